import Foundation
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

/// Compares what we parse with what the `openssl` command line tool says about the same file.
///
/// Only the first certificate of each file is compared (`openssl x509` reads only the first).
final class OpenSSLDifferentialTests: XCTestCase {
    // MARK: - Running openssl

    /// The `openssl` executable: the first one on PATH, else /usr/bin/openssl.
    static let opensslPath: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/openssl" } + ["/usr/bin/openssl"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    struct ProcessOutput {
        var status: Int32
        var stdout: Data
        var stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments`, feeding `input` on stdin.
    static func run(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> ProcessOutput {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            // Inputs are a few kilobytes at most: well inside a pipe buffer.
            stdin.fileHandleForWriting.write(input)
            try stdin.fileHandleForWriting.close()
        }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProcessOutput(status: process.terminationStatus, stdout: out, stderr: String(decoding: err, as: UTF8.self))
    }

    /// Runs `openssl` and requires success.
    func openssl(_ arguments: [String], input: Data? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> ProcessOutput {
        guard let path = Self.opensslPath else { throw XCTSkip("openssl is not installed") }
        let output = try Self.run(path, arguments, input: input)
        XCTAssertEqual(output.status, 0, "openssl \(arguments.joined(separator: " ")): \(output.stderr)", file: file, line: line)
        return output
    }

    /// `-in FILE [-inform DER]` for a TestCertificates file.
    func inputArguments(_ path: String) -> [String] {
        ["-in", TestCertificates.url(path).path] + (path.hasSuffix(".der") ? ["-inform", "DER"] : [])
    }

    // MARK: - Parsing openssl's output

    /// `key=value` lines of `openssl x509 -noout -subject -issuer -serial -dates`.
    struct X509Fields {
        var subject = "", issuer = "", serial = "", notBefore = "", notAfter = ""
        /// The entries of the `X509v3 Subject Alternative Name:` block, e.g. `DNS:www.example.com`.
        var subjectAltNames: [String] = []
    }

    static func parseFields(_ text: String) -> X509Fields {
        var fields = X509Fields()
        var inSAN = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
            if inSAN, line.hasPrefix(" ") {
                fields.subjectAltNames += line.trimmingCharacters(in: .whitespaces)
                    .components(separatedBy: ", ").filter { !$0.isEmpty }
                continue
            }
            inSAN = false
            if line.hasPrefix("X509v3 Subject Alternative Name") { inSAN = true; continue }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals], value = String(line[line.index(after: equals)...])
            switch key {
            case "subject": fields.subject = value
            case "issuer": fields.issuer = value
            case "serial": fields.serial = value
            case "notBefore": fields.notBefore = value
            case "notAfter": fields.notAfter = value
            default: break
            }
        }
        return fields
    }

    /// Parses openssl's `ASN1_TIME_print` form, `Jan  1 00:00:00 2024 GMT`.
    static func parseOpenSSLDate(_ text: String) -> DERTime? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard parts.count == 5, parts[4] == "GMT", let monthIndex = months.firstIndex(of: parts[0]),
            let day = Int(parts[1]), let year = Int(parts[3])
        else { return nil }
        let clock = parts[2].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        return DERTime(year: year, month: monthIndex + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2])
    }

    /// Normalises an RFC 4514 string for comparison with OpenSSL's `-nameopt RFC2253` output.
    ///
    /// Only documented formatting differences are normalised; everything else must match exactly:
    /// 1. OpenSSL's RFC2253 flags include `ASN1_STRFLGS_ESC_MSB` (openssl-namedisplay-options(1):
    ///    "escape characters with the MSB set"), so it writes each non-ASCII UTF-8 octet as `\XX`;
    ///    RFC 4514 §2.4 lets a string contain UTF-8 as is. `\XX` hex escapes are decoded back to octets.
    /// 2. RFC 4514 §2.2: the AttributeTypeAndValues of a multi-valued RDN may be output "in any
    ///    order" (OpenSSL reverses them along with the RDNs). The `+`-separated parts are sorted.
    /// 3. RFC 4514 §3 / RFC 4512 §1.4: attribute type short names are case-insensitive (RFC 4514
    ///    writes `STREET`, OpenSSL `street`). Type names are upper-cased.
    /// 4. RFC 4514 §2.4 `#hexstring` values (OpenSSL's `dump_der`/`dump_unknown`): hex digits are
    ///    case-insensitive (OpenSSL writes upper case, we lower). The hex after a leading unescaped
    ///    `#` is lower-cased.
    /// OpenSSL 3's `-nameopt RFC2253` = esc_2253, esc_ctrl, esc_msb, utf8, dump_nostr, dump_unknown,
    /// dump_der, sep_comma_plus, dn_rev, sname (openssl-namedisplay-options(1)).
    static func normalizeDN(_ text: String) -> String {
        // Split on unescaped `,` and `+` (a backslash escapes the next character or starts `\XX`).
        var rdns: [[String]] = [[]]
        var current = ""
        var iterator = Array(text).makeIterator()
        while let char = iterator.next() {
            switch char {
            case "\\":
                current.append(char)
                if let next = iterator.next() { current.append(next) }
            case ",":
                rdns[rdns.count - 1].append(current); current = ""; rdns.append([])
            case "+":
                rdns[rdns.count - 1].append(current); current = ""
            default:
                current.append(char)
            }
        }
        rdns[rdns.count - 1].append(current)
        return rdns.map { rdn in
            rdn.map(normalizeAttribute).sorted().joined(separator: "+")
        }.joined(separator: ",")
    }

    private static func normalizeAttribute(_ attribute: String) -> String {
        guard let equals = attribute.firstIndex(of: "=") else { return attribute }
        let type = attribute[..<equals].uppercased()
        var value = String(attribute[attribute.index(after: equals)...])
        if value.hasPrefix("#") {
            value = value.lowercased()
        } else {
            value = decodeHexEscapes(value)
        }
        return "\(type)=\(value)"
    }

    /// Turns `\XX` (two hex digits) into the octet, keeping every other escape as written.
    private static func decodeHexEscapes(_ value: String) -> String {
        let chars = Array(value.utf8)
        var out: [UInt8] = []
        var index = 0
        func hexValue(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        while index < chars.count {
            if chars[index] == UInt8(ascii: "\\"), index + 2 < chars.count,
                let high = hexValue(chars[index + 1]), let low = hexValue(chars[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else if chars[index] == UInt8(ascii: "\\"), index + 1 < chars.count {
                out += [chars[index], chars[index + 1]]
                index += 2
            } else {
                out.append(chars[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Octets of an address printed by OpenSSL's GENERAL_NAME_print: dotted IPv4, or IPv6 as eight
    /// upper-case groups without zero compression (`2001:DB8:0:0:0:0:0:10`).
    static func parseOpenSSLIP(_ text: String) -> [UInt8]? {
        if text.contains(".") {
            let parts = text.split(separator: ".").compactMap { UInt8($0) }
            return parts.count == 4 ? parts : nil
        }
        let groups = text.split(separator: ":", omittingEmptySubsequences: false).compactMap { UInt16($0, radix: 16) }
        guard groups.count == 8 else { return nil }
        return groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    /// Our SANs in OpenSSL's words. IP addresses are compared as octets (see ``parseOpenSSLIP``),
    /// because OpenSSL does not use the RFC 5952 text form we produce.
    static func describeForOpenSSL(_ name: GeneralName) -> String {
        switch name {
        case let .dnsName(value): return "DNS:\(value)"
        case let .rfc822Name(value): return "email:\(value)"
        case let .uniformResourceIdentifier(value): return "URI:\(value)"
        case let .ipAddress(octets): return "IP:" + hexString(octets)
        default: return "other:\(name)"
        }
    }

    static func normalizeOpenSSLSAN(_ entry: String) -> String {
        if entry.hasPrefix("IP Address:"), let octets = parseOpenSSLIP(String(entry.dropFirst("IP Address:".count))) {
            return "IP:" + hexString(octets)
        }
        return entry
    }

    // MARK: - Tests

    func testNormalizationHelpers() {
        XCTAssertEqual(Self.parseOpenSSLDate("Jan  1 00:00:00 2024 GMT"), DERTime(year: 2024, month: 1, day: 1, hour: 0, minute: 0, second: 0))
        XCTAssertEqual(Self.parseOpenSSLDate("Dec 31 23:59:59 2099 GMT"), DERTime(year: 2099, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        XCTAssertNil(Self.parseOpenSSLDate("Foo 31 23:59:59 2099 GMT"))
        XCTAssertEqual(Self.parseOpenSSLIP("2001:DB8:0:0:0:0:0:10"), bytes(hex: "20010db8000000000000000000000010"))
        XCTAssertEqual(Self.parseOpenSSLIP("192.0.2.10"), [192, 0, 2, 10])
        XCTAssertEqual(Self.normalizeDN("UID=u1+CN=caf\\C3\\A9,O=a\\,b"), "CN=café+UID=u1,O=a\\,b")
        XCTAssertEqual(Self.normalizeDN("1.2.3.4=#0C03616263"), "1.2.3.4=#0c03616263")
        XCTAssertEqual(Self.normalizeDN("CN=\\ x\\\\"), "CN=\\ x\\\\")
    }

    func testSubjectIssuerSerialDatesAndSANsAgreeWithOpenSSL() throws {
        let files = try TestCertificates.certificateFiles()
        XCTAssertFalse(files.isEmpty)
        var compared = 0
        for path in files {
            let certificate = try TestCertificates.certificate(path)
            let output = try openssl(
                [
                    "x509", "-noout", "-subject", "-issuer", "-serial", "-dates",
                    "-ext", "subjectAltName", "-nameopt", "RFC2253",
                ] + inputArguments(path))
            let fields = Self.parseFields(output.text)

            XCTAssertEqual(Self.normalizeDN(certificate.subject.description), Self.normalizeDN(fields.subject), "\(path) subject")
            XCTAssertEqual(Self.normalizeDN(certificate.issuer.description), Self.normalizeDN(fields.issuer), "\(path) issuer")
            // These certificates need no normalisation at all: plain ASCII, single-valued RDNs.
            XCTAssertEqual(certificate.subject.description, fields.subject, "\(path) subject (verbatim)")
            XCTAssertEqual(certificate.issuer.description, fields.issuer, "\(path) issuer (verbatim)")

            // OpenSSL prints the serial as an upper-case hex number: no colons, no sign octet.
            func serialKey(_ text: String) -> String {
                let digits = text.replacingOccurrences(of: ":", with: "").lowercased()
                let trimmed = digits.drop { $0 == "0" }
                return trimmed.isEmpty ? "0" : String(trimmed)
            }
            XCTAssertFalse(fields.serial.isEmpty, path)
            XCTAssertEqual(serialKey(certificate.serialNumberHex), serialKey(fields.serial), "\(path) serial")

            XCTAssertEqual(Self.parseOpenSSLDate(fields.notBefore), certificate.notBefore, "\(path) notBefore \(fields.notBefore)")
            XCTAssertEqual(Self.parseOpenSSLDate(fields.notAfter), certificate.notAfter, "\(path) notAfter \(fields.notAfter)")

            let ours = (certificate.extensions.subjectAlternativeNames ?? []).map(Self.describeForOpenSSL)
            let theirs = fields.subjectAltNames.map(Self.normalizeOpenSSLSAN)
            XCTAssertEqual(ours, theirs, "\(path) subjectAltName")
            compared += 1
        }
        XCTAssertEqual(compared, files.count)
    }

    func testFingerprintsAgreeWithOpenSSL() throws {
        for path in try TestCertificates.certificateFiles() {
            let certificate = try TestCertificates.certificate(path)
            for (digest, ours) in [("-sha256", certificate.sha256Fingerprint), ("-sha1", certificate.sha1Fingerprint)] {
                let output = try openssl(["x509", "-noout", "-fingerprint", digest] + inputArguments(path)).text
                // `sha256 Fingerprint=E8:29:...`
                let value =
                    output.split(separator: "=", maxSplits: 1).last.map {
                        $0.trimmingCharacters(in: .whitespacesAndNewlines)
                    } ?? ""
                XCTAssertEqual(Certificate.hex(ours, separator: ":").uppercased(), value, "\(path) \(digest)")
            }
        }
    }

    func testSPKIPinAgreesWithOpenSSL() throws {
        for path in try TestCertificates.certificateFiles() {
            let certificate = try TestCertificates.certificate(path)
            // openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64
            let publicKeyPEM = try openssl(["x509", "-pubkey", "-noout"] + inputArguments(path)).stdout
            let spki = try openssl(["pkey", "-pubin", "-outform", "der"], input: publicKeyPEM).stdout
            XCTAssertEqual([UInt8](spki), Array(certificate.publicKeyInfo.der), "\(path) SPKI")
            let digest = try openssl(["dgst", "-sha256", "-binary"], input: spki).stdout
            let base64 = try openssl(["base64", "-A"], input: digest).text.trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertEqual(base64.count, 44, path)
            XCTAssertEqual(certificate.spkiPin, "sha256/" + base64, path)
            XCTAssertEqual(certificate.spkiSHA256, [UInt8](digest), path)
        }
    }

    /// A hand-built certificate whose names need every RFC 4514 escape, checked against OpenSSL.
    func testEscapedAndMultiValuedNamesAgreeWithOpenSSL() throws {
        typealias B = DERBuilder
        var template = try CertificateTemplate.load()
        template.subject = B.name([
            [B.attribute(TestOID.countryName, B.printableString("US"))],
            [B.attribute(TestOID.organizationName, B.utf8String("Acme, Inc. + \"Q\" <x>;y\\z"))],
            [B.attribute(TestOID.organizationalUnitName, B.utf8String("#hash"))],
            [B.attribute(TestOID.organizationalUnitName, B.utf8String(" lead"))],
            [B.attribute(TestOID.organizationalUnitName, B.utf8String("trail "))],
            [B.attribute(TestOID.organizationalUnitName, B.utf8String("in#ner sp ace"))],
            [B.attribute(TestOID.commonName, B.utf8String("café")), B.attribute(TestOID.userID, B.utf8String("u1"))],
            [B.attribute("1.2.3.4", B.utf8String("abc"))],
        ])
        template.issuer = B.name([[B.attribute(TestOID.commonName, B.printableString("Plain Issuer"))]])
        // Every SAN kind the comparison covers, including the URI and IPv6 forms no committed certificate has.
        template.setExtension(
            TestOID.subjectAltName,
            value: B.sequence(
                B.dnsName("www.swifttrust.test"),
                B.ipAddress([198, 51, 100, 7]),
                B.ipAddress(bytes(hex: "20010db8000000000000000000000001")),
                B.ipAddress(bytes(hex: "fe800000000000000001000000000000")),
                B.rfc822Name("user@swifttrust.test"),
                B.uri("https://swifttrust.test/a?b=c")
            ))
        let der = template.der
        let certificate = try Certificate(derEncoded: der)

        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("TrustX509Tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("names.der")
        try Data(der).write(to: file)

        let output = try openssl([
            "x509", "-noout", "-subject", "-issuer", "-ext", "subjectAltName",
            "-nameopt", "RFC2253", "-in", file.path, "-inform", "DER",
        ])
        let fields = Self.parseFields(output.text)
        XCTAssertEqual(certificate.issuer.description, "CN=Plain Issuer")
        XCTAssertEqual(fields.issuer, "CN=Plain Issuer")
        XCTAssertEqual(
            certificate.subject.description,
            "1.2.3.4=#0c03616263,CN=café+UID=u1,OU=in#ner sp ace,OU=trail\\ ,OU=\\ lead,OU=\\#hash,"
                + "O=Acme\\, Inc. \\+ \\\"Q\\\" \\<x\\>\\;y\\\\z,C=US")
        XCTAssertEqual(
            Self.normalizeDN(certificate.subject.description), Self.normalizeDN(fields.subject),
            "ours: \(certificate.subject) openssl: \(fields.subject)")

        let sans = try XCTUnwrap(certificate.extensions.subjectAlternativeNames)
        XCTAssertEqual(sans.map(Self.describeForOpenSSL), fields.subjectAltNames.map(Self.normalizeOpenSSLSAN))
        XCTAssertEqual(fields.subjectAltNames.count, 6, "\(fields.subjectAltNames)")
        XCTAssertEqual(
            sans.map(\.description),
            [
                "DNS:www.swifttrust.test", "IP:198.51.100.7", "IP:2001:db8::1", "IP:fe80::1:0:0:0",
                "email:user@swifttrust.test", "URI:https://swifttrust.test/a?b=c",
            ])
    }
}
