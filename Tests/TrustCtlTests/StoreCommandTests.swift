import Foundation
import OpenSSLServerSupport
import XCTest

/// `trustctl store` against a trust store laid out in a temporary directory: an `SSL_CERT_FILE`
/// bundle, an `SSL_CERT_DIR` of hashed names, and (through `--root`) the administrators' and the
/// distribution's directories and the probed bundle locations, with certificates made by the openssl CLI.
final class StoreCommandTests: XCTestCase {
    private var directory: URL!
    /// `--at`: 30 days from now, so a 10-day certificate is expired and a 100-day one expires within 90 days.
    private var at: String!
    private var root: URL { directory.appendingPathComponent("root", isDirectory: true) }

    override func setUpWithError() throws {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed (needed to make the store's certificates)") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trustctl-store-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let formatter = ISO8601DateFormatter()
        at = formatter.string(from: Date().addingTimeInterval(30 * 86_400))
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    // MARK: - The laid-out store

    /// A self-signed CA certificate (P-256) named `name`, valid for `days`, with the key `key` (made when absent).
    private func certificate(_ name: String, days: Int, key: String? = nil) throws -> String {
        let out = directory.appendingPathComponent("\(name).pem").path
        let keyPath = directory.appendingPathComponent("\(key ?? name).key").path
        var arguments = [
            "req", "-x509", "-nodes", "-out", out, "-days", String(days), "-subj", "/O=SwiftTrust Store Test/CN=\(key ?? name)",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ]
        if FileManager.default.fileExists(atPath: keyPath) {
            arguments += ["-key", keyPath]
        } else {
            arguments += ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-keyout", keyPath]
        }
        try OpenSSLCommand.run(arguments)
        return try String(contentsOfFile: out, encoding: .utf8)
    }

    /// The OpenSSL subject hash of a PEM certificate (the name of its file in a hashed directory).
    private func subjectHash(_ pem: String) throws -> String {
        let file = directory.appendingPathComponent("hash-input-\(UUID().uuidString).pem")
        try pem.write(to: file, atomically: true, encoding: .utf8)
        return try OpenSSLCommand.output(of: ["x509", "-hash", "-noout", "-in", file.path]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func write(_ text: String, to relative: String, under base: URL) throws -> URL {
        let url = base.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Lays out:
    /// - `bundle.pem` (SSL_CERT_FILE): expired, expiring, long-lived, a garbage block, admin, shipped,
    ///   long-lived again, a block that is not base64;
    /// - `certs/` (SSL_CERT_DIR): the long-lived root renewed (same subject and key) as `HASH.0`, linked
    ///   as `renewed.pem`, and the long-lived root again as `HASH.1`;
    /// - `root/usr/local/share/ca-certificates/`: admin and not-in-bundle (`corp/local.crt`), shipped
    ///   (`shipped.crt`); `root/usr/share/ca-certificates/mozilla/shipped.crt`: shipped.
    ///
    /// Returns the bundle, the directory, the 1-based BEGIN line of each block of the bundle by name, and
    /// the subject hash naming the directory's files.
    private func layOut() throws -> (bundle: URL, certDir: URL, lines: [String: Int], hash: String) {
        let expired = try certificate("expired", days: 10)
        let expiring = try certificate("expiring", days: 100)
        let longLived = try certificate("long-lived", days: 3650)
        let renewed = try certificate("renewed", days: 3000, key: "long-lived")
        let admin = try certificate("admin", days: 3650)
        let notInBundle = try certificate("not-in-bundle", days: 3650)
        let shipped = try certificate("shipped", days: 3650)
        let garbage = "-----BEGIN CERTIFICATE-----\nAAECAwQFBgcICQ==\n-----END CERTIFICATE-----\n"
        let notBase64 = "-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n"
        var text = "", lines: [String: Int] = [:]
        for (name, block) in [
            ("expired", expired), ("expiring", expiring), ("long-lived", longLived), ("garbage", garbage),
            ("admin", admin), ("shipped", shipped), ("long-lived again", longLived), ("not base64", notBase64),
        ] {
            lines[name] = text.split(separator: "\n", omittingEmptySubsequences: false).count
            text += block
        }
        let bundle = try write(text, to: "bundle.pem", under: directory)
        let certDir = directory.appendingPathComponent("certs", isDirectory: true)
        let hash = try subjectHash(renewed)
        let hashed = try write(renewed, to: "\(hash).0", under: certDir)
        try FileManager.default.createSymbolicLink(atPath: certDir.appendingPathComponent("renewed.pem").path, withDestinationPath: hashed.path)
        try write(longLived, to: "\(hash).1", under: certDir)
        try write(admin + notInBundle, to: "usr/local/share/ca-certificates/corp/local.crt", under: root)
        try write(shipped, to: "usr/local/share/ca-certificates/shipped.crt", under: root)
        try write(shipped, to: "usr/share/ca-certificates/mozilla/shipped.crt", under: root)
        return (bundle, certDir, lines, hash)
    }

    // MARK: - JSON

    /// The documented JSON shape (docs/trust-store.md), as far as the tests read it.
    private struct Report: Decodable {
        struct Location: Decodable {
            let kind: String, path: String, status: String, problem: String?, certificates: Int, anchors: Int, skipped: Int
        }
        struct Copy: Decodable, Equatable {
            let path: String, line: Int?
        }
        struct Anchor: Decodable {
            let index: Int, subject: String, validity: String, trust: String, daysLeft: Int, copies: [Copy], installedAt: [Copy]
        }
        struct Duplicate: Decodable {
            let kind: String, subject: String, anchors: [Int], copies: [Copy]
        }
        struct Skipped: Decodable {
            let location: String, path: String, line: Int?, reason: String
        }
        struct NotAnchor: Decodable {
            let subject: String, copy: Copy
        }
        struct Counts: Decodable {
            let anchors: Int, system: Int, administrator: Int, expired: Int, expiring: Int, notYetValid: Int, duplicates: Int,
                skipped: Int, installedNotAnchors: Int
        }
        let at: String, root: String?, source: String?, error: String?, expiringWithinDays: Int
        let counts: Counts, locations: [Location], anchors: [Anchor], duplicates: [Duplicate], skipped: [Skipped]
        let installedNotAnchors: [NotAnchor]

        /// The anchor whose CN is `name` (the test's subjects are `CN=name,O=SwiftTrust Store Test`).
        func anchor(_ name: String) -> Anchor? { anchors.first { $0.subject == "CN=\(name),O=SwiftTrust Store Test" } }
    }

    private func report(_ result: TrustCtlResult) throws -> Report {
        do { return try JSONDecoder().decode(Report.self, from: Data(result.stdout)) } catch {
            XCTFail("not the documented shape: \(error)\n\(result.stdoutText)\n\(result.stderrText)")
            throw error
        }
    }

    func testJSONReportsSourcesClassificationsExpiryDuplicatesAndUnreadableBlocks() throws {
        let (bundle, certDir, lines, hash) = try layOut()
        let environment = ["SSL_CERT_FILE": bundle.path, "SSL_CERT_DIR": certDir.path]
        let result = try trustctl(["store", "--json", "--at", at, "--root", root.path], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderrText)
        let report = try report(result)

        XCTAssertNil(report.error)
        XCTAssertEqual(report.source, "SSL_CERT_FILE=\(bundle.path), SSL_CERT_DIR=\(certDir.path)")
        XCTAssertEqual(report.root, root.path)
        XCTAssertEqual(report.expiringWithinDays, 90)

        // Every location, in order: the variables used, the distribution's locations not consulted, then the
        // classifying directories (under --root).
        XCTAssertEqual(
            report.locations.map(\.kind),
            ["SSL_CERT_FILE", "SSL_CERT_DIR"] + Array(repeating: "bundle", count: 7)
                + Array(repeating: "directory", count: 3) + Array(repeating: "administrator", count: 3) + ["distribution"])
        XCTAssertEqual(
            report.locations.map(\.status),
            ["used", "used"] + Array(repeating: "not-consulted", count: 10)
                + ["used", "unreadable", "unreadable", "used"])
        let file = report.locations[0], dir = report.locations[1]
        XCTAssertEqual([file.certificates, file.anchors, file.skipped], [6, 5, 2], "the bundle: 6 certificates, one twice, 2 bad blocks")
        XCTAssertEqual([dir.certificates, dir.anchors, dir.skipped], [3, 2, 0])
        XCTAssertEqual(report.locations[2].path, root.path + "/etc/ssl/certs/ca-certificates.crt")
        let local = report.locations[12]
        XCTAssertEqual(local.path, root.path + "/usr/local/share/ca-certificates")
        XCTAssertEqual([local.certificates, local.anchors], [3, 2], "admin and shipped are anchors, not-in-bundle is not")
        XCTAssertEqual(report.locations[13].problem, "does not exist")

        // Anchors: 6 distinct, the administrator's root classified as evaluations do (the shipped one is the
        // distribution's, although an administrator's directory holds it too).
        XCTAssertEqual(report.counts.anchors, 6)
        XCTAssertEqual([report.counts.system, report.counts.administrator], [5, 1])
        XCTAssertEqual(report.anchor("admin")?.trust, "administrator")
        XCTAssertEqual(report.anchor("shipped")?.trust, "system")
        XCTAssertEqual(report.anchor("shipped")?.installedAt.map(\.path), [root.path + "/usr/local/share/ca-certificates/shipped.crt"])
        XCTAssertEqual(report.anchor("admin")?.installedAt.map(\.path), [root.path + "/usr/local/share/ca-certificates/corp/local.crt"])

        // Expiry at --at (now + 30 days).
        XCTAssertEqual([report.counts.expired, report.counts.expiring, report.counts.notYetValid], [1, 1, 0])
        XCTAssertEqual(report.anchor("expired")?.validity, "expired")
        XCTAssertEqual(report.anchor("expiring")?.validity, "expiring")
        XCTAssertEqual(report.anchor("long-lived")?.validity, "valid")
        XCTAssertEqual(report.anchor("admin")?.validity, "valid")
        let expiringDays = try XCTUnwrap(report.anchor("expiring")?.daysLeft)
        XCTAssertTrue((68...70).contains(expiringDays), "\(expiringDays)")
        XCTAssertTrue(try XCTUnwrap(report.anchor("expired")?.daysLeft) < 0)

        // Duplicates: the long-lived root three times (twice in the bundle, once in the directory), the renewed
        // root through a link to its hashed file, and the two as one subject and key.
        XCTAssertEqual(report.duplicates.map(\.kind), ["identical", "linked", "same-subject-and-key"])
        XCTAssertEqual(
            report.duplicates[0].copies,
            [
                Report.Copy(path: bundle.path, line: lines["long-lived"]),
                Report.Copy(path: bundle.path, line: lines["long-lived again"]),
                Report.Copy(path: certDir.path + "/\(hash).1", line: 1),
            ])
        XCTAssertEqual(Set(report.duplicates[1].copies.map(\.path)), [certDir.path + "/\(hash).0", certDir.path + "/renewed.pem"])
        XCTAssertEqual(report.duplicates[2].anchors.count, 2)
        XCTAssertEqual(Set(report.duplicates[2].anchors.map { report.anchors[$0].subject }), [report.anchor("long-lived")?.subject])
        XCTAssertEqual(report.counts.duplicates, 3)

        // Unreadable blocks: the garbage block by its line, the non-base64 block by the PEM error.
        XCTAssertEqual(report.skipped.count, 2)
        XCTAssertEqual(report.skipped.map(\.path), [bundle.path, bundle.path])
        XCTAssertEqual(report.skipped.map(\.location), ["SSL_CERT_FILE", "SSL_CERT_FILE"])
        XCTAssertEqual(report.skipped[0].line, lines["garbage"])
        XCTAssertTrue(report.skipped[0].reason.hasPrefix("not a valid certificate"), report.skipped[0].reason)
        XCTAssertNil(report.skipped[1].line)
        let notBase64Line = try XCTUnwrap(lines["not base64"]) + 1
        XCTAssertTrue(report.skipped[1].reason.contains("invalid base64 at line \(notBase64Line)"), report.skipped[1].reason)

        // Installed by an administrator, not yet in the bundle.
        XCTAssertEqual(report.installedNotAnchors.map(\.copy.path), [root.path + "/usr/local/share/ca-certificates/corp/local.crt"])
        XCTAssertEqual(report.installedNotAnchors.map(\.subject), ["CN=not-in-bundle,O=SwiftTrust Store Test"])
    }

    func testTextReportsTheSameStore() throws {
        let (bundle, certDir, lines, _) = try layOut()
        let result = try trustctl(
            ["store", "--at", at, "--root", root.path],
            environment: ["SSL_CERT_FILE": bundle.path, "SSL_CERT_DIR": certDir.path])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let text = result.stdoutText
        let expected = [
            "Trust store: SSL_CERT_FILE=\(bundle.path), SSL_CERT_DIR=\(certDir.path)  (validity judged at ",
            "  SSL_CERT_FILE  \(bundle.path)  used: 6 certificates (5 anchors), 2 unreadable",
            "  SSL_CERT_DIR   \(certDir.path)  used: 3 certificates (2 anchors)",
            "  bundle         \(root.path)/etc/ssl/certs/ca-certificates.crt  not consulted",
            "  administrator  \(root.path)/usr/local/share/ca-certificates  read: 3 certificates (2 anchors)",
            "  administrator  \(root.path)/etc/pki/trust/anchors  unreadable: does not exist",
            "Anchors: 6 (5 system, 1 administrator); 1 expired, 1 expiring within 90 days",
            "Duplicates: 2 (not counting 1 read again through links to one file",
            "  identical certificate: ",
            "  same subject and key, different certificates: ",
            "      copies: \(bundle.path):\(lines["long-lived"] ?? 0), \(bundle.path):\(lines["long-lived again"] ?? 0), \(certDir.path)/",
            "Unreadable blocks and files: 2",
            "  SSL_CERT_FILE  \(bundle.path), line \(lines["garbage"] ?? 0): not a valid certificate",
            "In administrators' directories but not anchors (update-ca-certificates / update-ca-trust not run?): 1",
        ]
        for line in expected { XCTAssertTrue(text.contains(line), "missing \(line) in\n\(text)") }
        let admin = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("CN=admin") && $0.contains("notAfter") })
        XCTAssertTrue(admin.contains("] administrator  "), String(admin))
        let expired = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("CN=expired") })
        XCTAssertTrue(expired.contains("EXPIRED "), String(expired))
        let expiring = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("CN=expiring") })
        XCTAssertTrue(expiring.contains("EXPIRING in "), String(expiring))
    }

    // MARK: - Discovery without the variables, and failures

    /// Without SSL_CERT_FILE and SSL_CERT_DIR the distribution's bundles are probed in order: the first is
    /// missing, the second (Fedora's) is used, the rest are not consulted.
    func testTheDistributionBundlesAreProbedInOrder() throws {
        let long = try certificate("fedora-root", days: 3650)
        let bundle = try write(long, to: "etc/pki/tls/certs/ca-bundle.crt", under: root)
        let result = try trustctl(["store", "--json", "--root", root.path], environment: ["SSL_CERT_FILE": "", "SSL_CERT_DIR": ""])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let report = try report(result)
        XCTAssertEqual(report.source, bundle.path)
        XCTAssertEqual(report.locations.prefix(3).map(\.status), ["unreadable", "used", "not-consulted"])
        XCTAssertEqual(report.locations.prefix(2).map(\.kind), ["bundle", "bundle"])
        XCTAssertEqual(report.locations[1].path, bundle.path)
        XCTAssertEqual(report.counts.anchors, 1)
        XCTAssertEqual(report.anchors.first?.copies, [Report.Copy(path: bundle.path, line: 1)])
        XCTAssertEqual(report.anchors.first?.trust, "system")
        XCTAssertEqual(report.counts.administrator, 0)
        // No administrator's root: the distribution's directory is not read.
        XCTAssertEqual(report.locations.last?.kind, "distribution")
        XCTAssertEqual(report.locations.last?.status, "not-consulted")
    }

    /// An unusable SSL_CERT_FILE is what evaluations fail on: status 2, the error, the location named.
    func testAnUnusableSSLCertFileIsReportedWithStatus2() throws {
        let missing = directory.appendingPathComponent("missing.pem").path
        let result = try trustctl(["store", "--json", "--root", root.path], environment: ["SSL_CERT_FILE": missing, "SSL_CERT_DIR": ""])
        XCTAssertEqual(result.status, 2, result.stdoutText)
        let report = try report(result)
        XCTAssertEqual(
            report.error, "SSL_CERT_FILE=\(missing) does not exist: fix or unset SSL_CERT_FILE (the distribution's CA bundle is not used instead)")
        XCTAssertEqual(report.locations.first?.status, "unreadable")
        XCTAssertEqual(report.locations.first?.problem, "does not exist")
        XCTAssertTrue(report.locations.dropFirst().allSatisfy { $0.status == "not-consulted" })
        XCTAssertEqual(report.counts.anchors, 0)
        XCTAssertTrue(result.stderrText.contains("error: SSL_CERT_FILE=\(missing) does not exist"), result.stderrText)
        let text = try trustctl(["store", "--root", root.path], environment: ["SSL_CERT_FILE": missing, "SSL_CERT_DIR": ""])
        XCTAssertEqual(text.status, 2)
        XCTAssertTrue(text.stdoutText.contains("  SSL_CERT_FILE  \(missing)  unreadable: does not exist"), text.stdoutText)
    }

    /// Nowhere to find anchors: status 1, every probed location listed.
    func testNoAnchorsAnywhereIsStatus1() throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let result = try trustctl(["store", "--json", "--root", root.path], environment: ["SSL_CERT_FILE": "", "SSL_CERT_DIR": ""])
        XCTAssertEqual(result.status, 1, result.stderrText)
        let report = try report(result)
        XCTAssertNil(report.source)
        XCTAssertEqual(
            report.locations.filter { $0.kind == "bundle" || $0.kind == "directory" }.map(\.status),
            Array(repeating: "unreadable", count: 10))
    }

    func testABadDateIsAUsageError() throws {
        let result = try trustctl(["store", "--at", "yesterday"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderrText.contains("--at yesterday is not a date: use RFC 3339"), result.stderrText)
    }
}
