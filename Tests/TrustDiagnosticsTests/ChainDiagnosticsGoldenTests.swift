import Foundation
import TrustCore
@testable import TrustDiagnostics
import TrustX509
import TrustTestSupport
import XCTest

/// Golden-output tests for ``ChainDiagnostics`` (the library behind `trustctl chain`): each case
/// evaluates a TestCertificates scenario at the pinned verify date (2026-06-01T00:00:00Z unless the
/// case says otherwise) and compares `text(style: .plain)` and the JSON encoding (sorted keys,
/// pretty-printed, slashes unescaped — what `trustctl chain --json` prints) with
/// `Tests/TrustDiagnosticsTests/Golden/<case>.txt` and `<case>.json`.
///
/// The goldens contain serial numbers and fingerprints, so they change when the output format
/// changes on purpose or when `scripts/generate-test-certificates` is re-run. To rewrite them:
///
///     UPDATE_GOLDEN=1 swift test --filter ChainDiagnosticsGoldenTests
///
/// then review the change with `git diff Tests/TrustDiagnosticsTests/Golden` before committing it.
final class ChainDiagnosticsGoldenTests: XCTestCase {
    /// One scenario: what the peer sent (in that order), what else is supplied, and what is trusted.
    private struct GoldenCase {
        let name: String
        let presented: [String]
        var intermediates: [String] = []
        var anchors = ["ecdsa/root.pem"]
        var host: String? = "www.swifttrust.test"
        var verifyDate = TestCertificates.verifyDate // 2026-06-01T00:00:00Z
    }

    private static let testDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    private static let goldenDirectory = testDirectory.appendingPathComponent("Golden", isDirectory: true)
    private static var updating: Bool { ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" }

    // MARK: - Cases

    func testGoodChain() throws {
        try assertGolden(GoldenCase(name: "good-chain", presented: ["ecdsa/chain.pem"]))
    }

    func testMissingIntermediate() throws {
        let diagnostics = try assertGolden(GoldenCase(name: "missing-intermediate", presented: ["scenarios/chain-leaf-only.pem"]))
        XCTAssertFalse(diagnostics.trusted)
        XCTAssertEqual(diagnostics.missingIssuer, "CN=SwiftTrust Test Intermediate ECDSA,O=SwiftTrust")
        XCTAssertEqual(diagnostics.findings.first?.code, "missing-intermediate")
    }

    func testWrongOrder() throws {
        let diagnostics = try assertGolden(GoldenCase(name: "wrong-order", presented: ["scenarios/chain-wrong-order.pem"]))
        XCTAssertTrue(diagnostics.trusted)
        XCTAssertTrue(diagnostics.findings.contains { $0.code == "wrong-order" })
    }

    func testExtraRoot() throws {
        let diagnostics = try assertGolden(GoldenCase(name: "extra-root", presented: ["scenarios/chain-with-root.pem"]))
        XCTAssertTrue(diagnostics.trusted)
        XCTAssertTrue(diagnostics.findings.contains { $0.code == "root-sent" })
    }

    func testExpiredIntermediate() throws {
        let diagnostics = try assertGolden(
            GoldenCase(
                name: "expired-intermediate",
                presented: ["scenarios/leaf-under-expired-intermediate.pem", "scenarios/expired-intermediate.pem"]))
        XCTAssertFalse(diagnostics.trusted)
        XCTAssertEqual(diagnostics.findings.first { $0.severity == "error" }?.code, "expired")
    }

    /// The expired twin is presented first: being expired at the verify date, it is tried after the
    /// current one, which leads to the anchor, so it is never needed and is reported as unused.
    func testCrossSignedAlternativePaths() throws {
        let diagnostics = try assertGolden(
            GoldenCase(
                name: "cross-signed",
                presented: [
                    "scenarios/cross-leaf.pem", "scenarios/cross-intermediate-expired-by-root2.pem",
                    "scenarios/cross-intermediate-by-root2.pem",
                ],
                anchors: ["scenarios/root2.pem"]))
        XCTAssertTrue(diagnostics.trusted)
        XCTAssertEqual(diagnostics.paths.map(\.outcome), ["valid"])
        XCTAssertEqual(diagnostics.paths[0].certificates.map(\.origin), ["presented #0", "presented #2", "trust anchors"])
        XCTAssertEqual(diagnostics.presented.map(\.chainIndex), [0, nil, 1])
        XCTAssertTrue(
            diagnostics.findings.contains {
                $0.code == "unused-certificate" && $0.severity == "warning" && $0.message.contains("presented #1") && $0.message.contains("expired")
            }, "\(diagnostics.findings.map(\.message))")
    }

    /// The same twins supplied locally rather than sent, with both roots trusted.
    func testCrossSignedSuppliedIntermediates() throws {
        let diagnostics = try assertGolden(
            GoldenCase(
                name: "cross-signed-supplied", presented: ["scenarios/cross-leaf.pem"],
                intermediates: ["scenarios/cross-intermediate-expired-by-root2.pem", "scenarios/cross-intermediate-by-root2.pem"],
                anchors: ["scenarios/root2.pem"]))
        XCTAssertTrue(diagnostics.trusted)
        XCTAssertTrue(diagnostics.findings.contains { $0.code == "intermediate-not-sent" })
    }

    func testHostMismatch() throws {
        let diagnostics = try assertGolden(GoldenCase(name: "host-mismatch", presented: ["ecdsa/chain.pem"], host: "api.swifttrust.test"))
        XCTAssertFalse(diagnostics.trusted)
        XCTAssertEqual(diagnostics.findings.map(\.code), ["host-mismatch"])
    }

    /// 21 days before the leaf's notAfter (2027-06-01T00:00:00Z); the CAs run to 2099.
    func testExpiringSoon() throws {
        let diagnostics = try assertGolden(
            GoldenCase(
                name: "expiring-soon", presented: ["ecdsa/chain.pem"],
                verifyDate: Date(timeIntervalSince1970: 1_809_993_600))) // 2027-05-11T00:00:00Z
        XCTAssertTrue(diagnostics.trusted)
        XCTAssertEqual(diagnostics.findings.filter { $0.code == "expires-soon" }.map(\.certificateIndex), [0])
        XCTAssertTrue(diagnostics.findings.allSatisfy { $0.severity == "warning" })
    }

    // MARK: - Risks on untrusted chains, styles

    func testWeakAlgorithmsAreFlaggedWhenTheChainIsNotTrusted() throws {
        for (file, code) in [("scenarios/leaf-sha1.pem", "sha1-signature"), ("scenarios/leaf-rsa1024.pem", "weak-rsa-key")] {
            for presented in [[file], [file, "ecdsa/intermediate.pem"]] {
                let diagnostics = try makeDiagnostics(GoldenCase(name: code, presented: presented))
                XCTAssertFalse(diagnostics.trusted, "\(presented)")
                XCTAssertTrue(
                    diagnostics.findings.contains { $0.code == code && $0.certificateIndex == 0 },
                    "\(presented): \(diagnostics.findings.map(\.code))")
            }
        }
    }

    func testColorStyleUsesANSIEscapesAndPlainStyleNone() throws {
        for name in ["ecdsa/chain.pem", "scenarios/chain-leaf-only.pem"] {
            let diagnostics = try makeDiagnostics(GoldenCase(name: "style", presented: [name]))
            XCTAssertTrue(diagnostics.text(style: .color).contains("\u{1B}["), name)
            XCTAssertFalse(diagnostics.text(style: .plain).contains("\u{1B}"), name)
        }
    }

    // MARK: - Helpers

    /// Evaluates a case the way `trustctl chain` does: leaf moved first when the bundle is out of
    /// order, the received order kept for the report, only the given anchors trusted.
    private func makeDiagnostics(_ golden: GoldenCase) throws -> ChainDiagnostics {
        let received = try golden.presented.flatMap(TestCertificates.certificates)
        let trust = ServerTrust(certificates: LeafOrdering.leafFirst(received), policies: [.ssl(server: true, hostname: golden.host)])
        trust.setAnchorCertificates(try golden.anchors.flatMap(TestCertificates.certificates))
        trust.additionalIntermediates = try golden.intermediates.flatMap(TestCertificates.certificates)
        trust.verifyDate = golden.verifyDate
        return ChainDiagnostics(trust: trust, host: golden.host, verifyDate: golden.verifyDate, asReceived: received)
    }

    /// Renders the case as plain text and JSON and compares both with the goldens (or rewrites them
    /// under `UPDATE_GOLDEN=1`).
    @discardableResult
    private func assertGolden(_ golden: GoldenCase, file: StaticString = #filePath, line: UInt = #line) throws -> ChainDiagnostics {
        let diagnostics = try makeDiagnostics(golden)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(diagnostics), as: UTF8.self)
        try compare(diagnostics.text(style: .plain) + "\n", with: "\(golden.name).txt", file: file, line: line)
        try compare(json + "\n", with: "\(golden.name).json", file: file, line: line)
        return diagnostics
    }

    private func compare(_ actual: String, with goldenName: String, file: StaticString, line: UInt) throws {
        let url = Self.goldenDirectory.appendingPathComponent(goldenName)
        if Self.updating {
            try FileManager.default.createDirectory(at: Self.goldenDirectory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            XCTFail(
                "missing golden \(url.path); create it with UPDATE_GOLDEN=1 swift test --filter ChainDiagnosticsGoldenTests",
                file: file, line: line)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        if let difference = Self.firstDifference(expected: expected, actual: actual) {
            XCTFail(
                "\(goldenName) differs from the golden file \(url.path)\n\(difference)\n"
                    + "If the change is intended: UPDATE_GOLDEN=1 swift test --filter ChainDiagnosticsGoldenTests",
                file: file, line: line)
        }
    }

    /// The first differing line as a small unified-diff-like excerpt, or nil when equal.
    private static func firstDifference(expected: String, actual: String) -> String? {
        guard expected != actual else { return nil }
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let index = (0..<min(old.count, new.count)).first { old[$0] != new[$0] } ?? min(old.count, new.count)
        var lines = ["@@ line \(index + 1) (golden \(old.count) lines, actual \(new.count) lines) @@"]
        if index > 0 { lines.append("  \(old[index - 1])") }
        lines.append(index < old.count ? "- \(old[index])" : "- <end of golden file>")
        lines.append(index < new.count ? "+ \(new[index])" : "+ <end of output>")
        return lines.joined(separator: "\n")
    }
}
