import Foundation
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

// MARK: - Per-generation facts, read with the openssl tool

/// Values that change with every run of `scripts/generate-test-certificates` (serial numbers, key
/// identifiers, OCSP CertID hashes), read from the files at test time with the `openssl` tool. Tests
/// compare our parsers against these instead of hard-coding values the next regeneration replaces,
/// and `openssl` is an oracle independent of the code under test.
enum OpenSSLFacts {
    /// Runs `openssl` with `arguments` and returns its standard output; fails the test on a non-zero exit.
    static func run(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        guard let path = OpenSSLDifferentialTests.opensslPath else { throw XCTSkip("openssl is not installed") }
        let output = try OpenSSLDifferentialTests.run(path, arguments)
        guard output.status == 0 else {
            XCTFail("openssl \(arguments.joined(separator: " ")): \(output.stderr)", file: file, line: line)
            throw CocoaError(.executableLoad)
        }
        return output.text
    }

    /// The serial number of the (first) certificate in `relativePath` in upper-case hex, as
    /// `openssl x509 -serial` prints it (and `openssl ocsp -req_text` too).
    static func serialNumberHex(_ relativePath: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let text = try run(["x509", "-in", TestCertificates.url(relativePath).path, "-noout", "-serial"], file: file, line: line)
        return try value(after: "serial=", in: text, file: file, line: line)
    }

    /// The serial number of the (first) certificate in `relativePath` as DER INTEGER content octets
    /// (a leading zero octet when the top bit is set), the form `Certificate.serialNumber` and CRL/OCSP entries hold.
    static func serialNumber(_ relativePath: String, file: StaticString = #filePath, line: UInt = #line) throws -> [UInt8] {
        var hex = try serialNumberHex(relativePath, file: file, line: line)
        if hex.count % 2 == 1 { hex = "0" + hex }
        let octets = bytes(hex: hex)
        return (octets.first ?? 0) & 0x80 != 0 ? [0x00] + octets : octets
    }

    /// The subjectKeyIdentifier of the (first) certificate in `relativePath` (`openssl x509 -ext subjectKeyIdentifier`).
    static func subjectKeyIdentifier(_ relativePath: String, file: StaticString = #filePath, line: UInt = #line) throws -> [UInt8] {
        let text = try run(
            ["x509", "-in", TestCertificates.url(relativePath).path, "-noout", "-ext", "subjectKeyIdentifier"],
            file: file, line: line)
        // "X509v3 Subject Key Identifier: \n    A3:F8:...": the key identifier is the second line.
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.count == 2, lines[0].hasPrefix("X509v3 Subject Key Identifier") else {
            XCTFail("unexpected openssl output: \(text)", file: file, line: line)
            throw CocoaError(.coderReadCorrupt)
        }
        return bytes(hex: lines[1])
    }

    /// The SHA-1 CertID fields `openssl ocsp` computes for `certificate` issued by `issuer` (paths
    /// under TestCertificates/), from the text of a request it builds without sending it.
    static func sha1CertID(certificate: String, issuer: String, file: StaticString = #filePath, line: UInt = #line)
        throws -> (issuerNameHash: [UInt8], issuerKeyHash: [UInt8], serialNumberHex: String)
    {
        let text = try run(
            [
                "ocsp", "-issuer", TestCertificates.url(issuer).path, "-cert", TestCertificates.url(certificate).path,
                "-no_nonce", "-req_text",
            ], file: file, line: line)
        XCTAssertTrue(text.contains("Hash Algorithm: sha1"), text, file: file, line: line)
        return (
            bytes(hex: try value(after: "Issuer Name Hash:", in: text, file: file, line: line)),
            bytes(hex: try value(after: "Issuer Key Hash:", in: text, file: file, line: line)),
            try value(after: "Serial Number:", in: text, file: file, line: line)
        )
    }

    /// The rest of the only line of `text` that starts (after indentation) with `prefix`.
    private static func value(after prefix: String, in text: String, file: StaticString, line: UInt) throws -> String {
        let matches = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix(prefix) }
        guard matches.count == 1, let match = matches.first else {
            XCTFail("expected one \"\(prefix)\" line in openssl output: \(text)", file: file, line: line)
            throw CocoaError(.coderReadCorrupt)
        }
        return match.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
    }
}

// MARK: - A tiny DER encoder (test-only; independent of the module's own OID tables)

/// Builds DER TLVs for hand-made (often deliberately malformed) certificates and names.
enum DERBuilder {
    /// One TLV with a single-octet identifier and a minimal definite length.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        DERWriter.tlv(identifier: tag, content: content)
    }

    static func sequence(_ parts: [UInt8]...) -> [UInt8] { sequence(parts) }
    static func sequence(_ parts: [[UInt8]]) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }

    /// A SET with its components in the order given (not sorted: lets tests build bad DER).
    static func set(_ parts: [[UInt8]]) -> [UInt8] { tlv(0x31, parts.flatMap { $0 }) }

    /// A SET OF with its components sorted as DER requires (X.690 §11.6).
    static func setOf(_ parts: [[UInt8]]) -> [UInt8] {
        set(parts.sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// `[number]` context-specific, constructed (EXPLICIT or IMPLICIT constructed) or primitive.
    static func context(_ number: UInt8, constructed: Bool, _ content: [UInt8]) -> [UInt8] {
        tlv(0x80 | (constructed ? 0x20 : 0) | number, content)
    }

    static func explicit(_ number: UInt8, _ parts: [UInt8]...) -> [UInt8] {
        context(number, constructed: true, parts.flatMap { $0 })
    }

    static func boolean(_ value: Bool) -> [UInt8] { [0x01, 0x01, value ? 0xFF : 0x00] }
    static let null: [UInt8] = [0x05, 0x00]

    /// A non-negative INTEGER, minimally encoded.
    static func integer(_ value: UInt64) -> [UInt8] { tlv(0x02, integerContent(value)) }

    static func integerContent(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        } while rest > 0
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return bytes
    }

    static func octetString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x04, bytes) }
    static func bitString(_ bytes: [UInt8], unusedBits: UInt8 = 0) -> [UInt8] { tlv(0x03, [unusedBits] + bytes) }
    static func utf8String(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }
    static func printableString(_ text: String) -> [UInt8] { tlv(0x13, Array(text.utf8)) }
    static func ia5String(_ text: String) -> [UInt8] { tlv(0x16, Array(text.utf8)) }

    /// An OBJECT IDENTIFIER from dotted text (X.690 §8.19), encoded here rather than by the module.
    static func oid(_ dotted: String) -> [UInt8] { tlv(0x06, oidContent(dotted)) }

    static func oidContent(_ dotted: String) -> [UInt8] {
        let arcs = dotted.split(separator: ".").map { UInt64($0)! }
        precondition(arcs.count >= 2, "an OID has at least two arcs")
        var out: [UInt8] = []
        for arc in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            out += chunk
        }
        return out
    }

    /// One Extension. `critical`: nil omits the BOOLEAN (DER), true/false encodes it explicitly.
    static func `extension`(_ oid: String, critical: Bool? = nil, value: [UInt8]) -> [UInt8] {
        var parts = [self.oid(oid)]
        if let critical { parts.append(boolean(critical)) }
        parts.append(octetString(value))
        return sequence(parts)
    }

    /// One AttributeTypeAndValue.
    static func attribute(_ oid: String, _ value: [UInt8]) -> [UInt8] { sequence(self.oid(oid), value) }

    /// A Name from RDNs, each a list of AttributeTypeAndValue encodings (sorted into DER order).
    static func name(_ rdns: [[[UInt8]]]) -> [UInt8] { sequence(rdns.map { setOf($0) }) }

    /// A Name of single-valued UTF8String RDNs, most significant first, e.g. `[("2.5.4.10", "Org")]`.
    static func name(_ pairs: [(String, String)]) -> [UInt8] {
        name(pairs.map { [attribute($0.0, utf8String($0.1))] })
    }

    /// A GeneralName `[2] dNSName`.
    static func dnsName(_ text: String) -> [UInt8] { context(2, constructed: false, Array(text.utf8)) }
    /// A GeneralName `[1] rfc822Name`.
    static func rfc822Name(_ text: String) -> [UInt8] { context(1, constructed: false, Array(text.utf8)) }
    /// A GeneralName `[6] uniformResourceIdentifier`.
    static func uri(_ text: String) -> [UInt8] { context(6, constructed: false, Array(text.utf8)) }
    /// A GeneralName `[7] iPAddress`.
    static func ipAddress(_ octets: [UInt8]) -> [UInt8] { context(7, constructed: false, octets) }
    /// A GeneralName `[4] directoryName` (EXPLICIT, Name is a CHOICE).
    static func directoryName(_ name: [UInt8]) -> [UInt8] { context(4, constructed: true, name) }
}

/// OIDs spelled out for tests, independent of the module's `OID` table.
enum TestOID {
    static let commonName = "2.5.4.3"
    static let countryName = "2.5.4.6"
    static let organizationName = "2.5.4.10"
    static let organizationalUnitName = "2.5.4.11"
    static let userID = "0.9.2342.19200300.100.1.1"
    static let basicConstraints = "2.5.29.19"
    static let keyUsage = "2.5.29.15"
    static let extKeyUsage = "2.5.29.37"
    static let subjectAltName = "2.5.29.17"
    static let issuerAltName = "2.5.29.18"
    static let subjectKeyIdentifier = "2.5.29.14"
    static let authorityKeyIdentifier = "2.5.29.35"
    static let nameConstraints = "2.5.29.30"
    static let certificatePolicies = "2.5.29.32"
    static let policyMappings = "2.5.29.33"
    static let policyConstraints = "2.5.29.36"
    static let inhibitAnyPolicy = "2.5.29.54"
    static let crlDistributionPoints = "2.5.29.31"
    static let authorityInfoAccess = "1.3.6.1.5.5.7.1.1"
    static let tlsFeature = "1.3.6.1.5.5.7.1.24"
    static let sctList = "1.3.6.1.4.1.11129.2.4.2"
    static let serverAuth = "1.3.6.1.5.5.7.3.1"
    static let clientAuth = "1.3.6.1.5.5.7.3.2"
    static let ocsp = "1.3.6.1.5.5.7.48.1"
    static let caIssuers = "1.3.6.1.5.5.7.48.2"
    static let ecdsaWithSHA256 = "1.2.840.10045.4.3.2"
    static let ecdsaWithSHA384 = "1.2.840.10045.4.3.3"
}

// MARK: - Re-encodable certificate

/// A real certificate taken apart into its encoded fields, so tests can change one field and
/// re-encode. Signatures are not recomputed: these certificates are for parser tests only.
struct CertificateTemplate {
    /// The `[0]` version TLV, or nil for v1 (version omitted).
    var version: [UInt8]?
    var serialNumber: [UInt8]
    var innerSignatureAlgorithm: [UInt8]
    var issuer: [UInt8]
    var validity: [UInt8]
    var subject: [UInt8]
    var subjectPublicKeyInfo: [UInt8]
    /// Extension TLVs in order; nil means no `[3]` field at all.
    var extensions: [[UInt8]]?
    /// When set, used verbatim as the `[3]` field instead of wrapping `extensions`.
    var rawExtensionsField: [UInt8]?
    var outerSignatureAlgorithm: [UInt8]
    /// The whole signatureValue BIT STRING TLV.
    var signatureValue: [UInt8]

    /// Takes apart the first certificate of `relativePath` under TestCertificates.
    static func load(_ relativePath: String = "ecdsa/leaf.pem") throws -> CertificateTemplate {
        let der = try TestCertificates.certificate(relativePath).derEncoded
        return try CertificateTemplate(der: der)
    }

    init(der: [UInt8]) throws {
        let outer = try DERReader.parseSingle(der)
        var top = try outer.children()
        let tbs = try top.read(.sequence)
        outerSignatureAlgorithm = Array(try top.read(.sequence).encoded)
        signatureValue = Array(try top.read(.bitString).encoded)
        try top.finish()

        var fields = try tbs.children()
        version = try fields.readIfPresent(.context(0, constructed: true)).map { Array($0.encoded) }
        serialNumber = Array(try fields.read(.integer).encoded)
        innerSignatureAlgorithm = Array(try fields.read(.sequence).encoded)
        issuer = Array(try fields.read(.sequence).encoded)
        validity = Array(try fields.read(.sequence).encoded)
        subject = Array(try fields.read(.sequence).encoded)
        subjectPublicKeyInfo = Array(try fields.read(.sequence).encoded)
        if let explicit = try fields.readIfPresent(.context(3, constructed: true)) {
            var inner = try explicit.children()
            var list = try inner.read(.sequence).children()
            var all: [[UInt8]] = []
            while let next = try list.next() { all.append(Array(next.encoded)) }
            extensions = all
        } else {
            extensions = nil
        }
        try fields.finish()
    }

    /// The encoded tbsCertificate.
    var tbsCertificate: [UInt8] {
        var parts: [[UInt8]] = []
        if let version { parts.append(version) }
        parts += [serialNumber, innerSignatureAlgorithm, issuer, validity, subject, subjectPublicKeyInfo]
        if let rawExtensionsField {
            parts.append(rawExtensionsField)
        } else if let extensions {
            parts.append(DERBuilder.explicit(3, DERBuilder.sequence(extensions)))
        }
        return DERBuilder.sequence(parts)
    }

    /// The encoded certificate.
    var der: [UInt8] { DERBuilder.sequence(tbsCertificate, outerSignatureAlgorithm, signatureValue) }

    /// The dotted OID of each extension, in order.
    var extensionOIDs: [String] {
        (extensions ?? []).map { encoded in
            guard let element = try? DERReader.parseSingle(encoded),
                var reader = try? element.children(),
                let oid = try? reader.read(.objectIdentifier).objectIdentifier()
            else { return "?" }
            return oid.dotted
        }
    }

    /// Replaces the extension with `oid` (which must be present) by `replacement`.
    mutating func replaceExtension(_ oid: String, with replacement: [UInt8]) {
        guard let index = extensionOIDs.firstIndex(of: oid) else {
            preconditionFailure("template has no extension \(oid)")
        }
        extensions?[index] = replacement
    }

    /// Removes the extension with `oid` if present.
    mutating func removeExtension(_ oid: String) {
        guard let index = extensionOIDs.firstIndex(of: oid) else { return }
        extensions?.remove(at: index)
    }

    /// Replaces the extension with `oid` if present, otherwise appends it.
    mutating func setExtension(_ oid: String, critical: Bool? = nil, value: [UInt8]) {
        let encoded = DERBuilder.extension(oid, critical: critical, value: value)
        if extensionOIDs.contains(oid) {
            replaceExtension(oid, with: encoded)
        } else {
            extensions = (extensions ?? []) + [encoded]
        }
    }

    /// Parses the re-encoded certificate.
    func parse() throws(X509Error) -> Certificate { try Certificate(derEncoded: der) }
}

/// The offset of the last occurrence of `needle` in `haystack`.
func lastOffset(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard needle.count <= haystack.count, !needle.isEmpty else { return nil }
    for start in stride(from: haystack.count - needle.count, through: 0, by: -1)
    where haystack[start..<(start + needle.count)].elementsEqual(needle) {
        return start
    }
    return nil
}

/// Lower-case hex without separators.
func hexString(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// Bytes from a hex string (spaces and colons ignored).
func bytes(hex: String) -> [UInt8] {
    let digits = Array(hex.filter { $0.isHexDigit })
    precondition(digits.count % 2 == 0, "odd hex length")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

/// Asserts that `body` throws an ``X509Error`` and hands it to `check`.
func assertX509Error<T>(
    _ body: @autoclosure () throws -> T,
    _ message: String = "",
    file: StaticString = #filePath,
    line: UInt = #line,
    _ check: (X509Error) -> Void = { _ in }
) {
    do {
        let value = try body()
        XCTFail("expected an X509Error, got \(value) \(message)", file: file, line: line)
    } catch let error as X509Error {
        check(error)
    } catch {
        XCTFail("expected an X509Error, got \(type(of: error)): \(error) \(message)", file: file, line: line)
    }
}
