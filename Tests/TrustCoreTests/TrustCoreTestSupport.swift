import Foundation
import TrustCore
import TrustX509
import TrustDER
import XCTest

/// The repository's `TestCertificates/` and helpers to evaluate scenarios from it.
enum Fixtures {
    /// `<root>/Tests/TrustCoreTests/TrustCoreTestSupport.swift` → `<root>`.
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    static let certificatesDirectory = repositoryRoot.appendingPathComponent("TestCertificates", isDirectory: true)

    /// The pinned verify date of the test certificates: 2026-06-01T00:00:00Z.
    static let verifyTime: Int = 1_780_272_000
    static let verifyDate = Date(timeIntervalSince1970: TimeInterval(verifyTime))

    static let host = "www.swifttrust.test"

    static func path(_ relative: String) -> String { certificatesDirectory.appendingPathComponent(relative).path }

    static func bytes(_ relative: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(relative)) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path(relative)])
        }
        return [UInt8](data)
    }

    /// Every certificate in `relative` (a PEM bundle or DER file under TestCertificates/).
    static func certificates(_ relative: String) throws -> [Certificate] {
        try Certificate.loadAll(from: bytes(relative))
    }

    /// The only (first) certificate in `relative`.
    static func certificate(_ relative: String) throws -> Certificate {
        guard let first = try certificates(relative).first else { throw CocoaError(.fileReadCorruptFile) }
        return first
    }

    /// A ServerTrust for `presented` (leaf first) anchored at `anchors` only, at the pinned date.
    static func trust(
        _ presented: [String], anchors: [String] = ["ecdsa/root.pem"],
        policies: [TrustPolicy] = [.ssl(server: true, hostname: Fixtures.host)]
    ) throws -> ServerTrust {
        let certificates = try presented.flatMap { try Fixtures.certificates($0) }
        let trust = ServerTrust(certificates: certificates, policies: policies)
        trust.setAnchorCertificates(try anchors.flatMap { try Fixtures.certificates($0) })
        trust.verifyDate = verifyDate
        return trust
    }
}

// MARK: - Failure assertions

/// The enum case name of a failure reason, without associated values: `expired`, `notCA`, ….
/// An exhaustive switch rather than the reason's reflected text, so a new or renamed case is a
/// compile error here, not a silently different string.
func caseName(_ reason: TrustFailureReason) -> String {
    switch reason {
    case .signatureInvalid: return "signatureInvalid"
    case .signatureUnverifiable: return "signatureUnverifiable"
    case .expired: return "expired"
    case .notYetValid: return "notYetValid"
    case .notCA: return "notCA"
    case .pathLengthExceeded: return "pathLengthExceeded"
    case .missingKeyCertSign: return "missingKeyCertSign"
    case .keyUsageIncompatible: return "keyUsageIncompatible"
    case .extendedKeyUsageIncompatible: return "extendedKeyUsageIncompatible"
    case .nameConstraintViolation: return "nameConstraintViolation"
    case .explicitPolicyRequired: return "explicitPolicyRequired"
    case .policyMappingInvalid: return "policyMappingInvalid"
    case .unhandledCriticalExtension: return "unhandledCriticalExtension"
    case .versionNotAllowed: return "versionNotAllowed"
    case .profileViolation: return "profileViolation"
    case .nameConstraintMalformed: return "nameConstraintMalformed"
    case .hostnameMismatch: return "hostnameMismatch"
    case .invalidReferenceIdentity: return "invalidReferenceIdentity"
    case .emailAddressMismatch: return "emailAddressMismatch"
    case .untrustedRoot: return "untrustedRoot"
    case .issuerNotFound: return "issuerNotFound"
    case .maximumDepthExceeded: return "maximumDepthExceeded"
    case .budgetExhausted: return "budgetExhausted"
    case .tooManyCertificates: return "tooManyCertificates"
    case .malformed: return "malformed"
    case .certificateDefect: return "certificateDefect"
    case .revoked: return "revoked"
    case .revocationUnavailable: return "revocationUnavailable"
    case .revocationInformationInvalid: return "revocationInformationInvalid"
    case .noCertificates: return "noCertificates"
    case .verifyDateOutOfRange: return "verifyDateOutOfRange"
    case .systemTrustStoreUnavailable: return "systemTrustStoreUnavailable"
    }
}

/// `index:case` for each failure (`-` for a chain-wide failure), in order, e.g. `["1:notCA"]`.
func failureSummary(_ evaluation: TrustEvaluation) -> [String] {
    evaluation.failures.map { "\($0.certificateIndex.map(String.init) ?? "-"):\(caseName($0.reason))" }
}

/// Asserts a trusted result (`.unspecified`), no failures, and optionally the exact chain.
func assertTrusted(
    _ evaluation: TrustEvaluation, chain expected: [Certificate]? = nil,
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(evaluation.result, .unspecified, "\(evaluation)", file: file, line: line)
    XCTAssertTrue(evaluation.isTrusted, file: file, line: line)
    XCTAssertEqual(evaluation.failures, [], file: file, line: line)
    if let expected {
        XCTAssertEqual(evaluation.chain.map(\.subject.description), expected.map(\.subject.description), file: file, line: line)
        XCTAssertEqual(evaluation.chain, expected, file: file, line: line)
    }
}

/// Asserts an untrusted result of `result` whose failures are exactly `summary` (see ``failureSummary(_:)``).
func assertNotTrusted(
    _ evaluation: TrustEvaluation, _ result: TrustResult, failures summary: [String],
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertFalse(evaluation.isTrusted, file: file, line: line)
    XCTAssertEqual(evaluation.result, result, "\(evaluation)", file: file, line: line)
    XCTAssertEqual(failureSummary(evaluation), summary, "\(evaluation)", file: file, line: line)
}

// MARK: - Minimal DER editing (test-only, to derive certificates without generating keys)

/// Just enough DER to take a certificate apart and put it back together with one field changed.
/// Signatures are not recomputed, so an edited certificate no longer verifies under its issuer.
enum TestDER {
    /// One TLV inside `bytes`: its whole encoding and its content.
    struct Element {
        let tag: UInt8
        let encoded: ArraySlice<UInt8>
        let content: ArraySlice<UInt8>
    }

    /// Reads the TLV starting at `offset` (single-octet tags, definite lengths: enough for certificates).
    static func element(in bytes: ArraySlice<UInt8>, at offset: Int) -> Element {
        let tag = bytes[offset]
        var cursor = offset + 1
        var length = Int(bytes[cursor])
        cursor += 1
        if length & 0x80 != 0 {
            let octets = length & 0x7F
            length = 0
            for _ in 0..<octets {
                length = length << 8 | Int(bytes[cursor])
                cursor += 1
            }
        }
        return Element(tag: tag, encoded: bytes[offset..<(cursor + length)], content: bytes[cursor..<(cursor + length)])
    }

    /// The TLVs that make up `content`, in order.
    static func children(_ content: ArraySlice<UInt8>) -> [Element] {
        var result: [Element] = []
        var offset = content.startIndex
        while offset < content.endIndex {
            let next = element(in: content, at: offset)
            result.append(next)
            offset = next.encoded.endIndex
        }
        return result
    }

    /// A TLV with a minimal definite length.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        DERWriter.tlv(identifier: tag, content: content)
    }

    static func sequence(_ parts: [[UInt8]]) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }

    /// A Name of single-attribute RDNs written as PrintableString, e.g. `[("2.5.4.10", "SwiftTrust")]`.
    static func printableName(_ pairs: [(oid: [UInt8], value: String)]) -> [UInt8] {
        sequence(pairs.map { pair in
            tlv(0x31, sequence([tlv(0x06, pair.oid), tlv(0x13, Array(pair.value.utf8))]))
        })
    }

    /// DER content octets of the OIDs used in names.
    static let organizationName: [UInt8] = [0x55, 0x04, 0x0A]
    static let commonName: [UInt8] = [0x55, 0x04, 0x03]
}

/// A certificate's TBSCertificate fields, editable and re-encodable (the signature is kept as is).
struct EditableCertificate {
    var fields: [[UInt8]]
    let signatureAlgorithm: [UInt8]
    var signatureValue: [UInt8]
    /// Index of serialNumber in `fields` (1 when the `[0]` version is present, else 0).
    let serialIndex: Int

    init(_ certificate: Certificate) {
        let der = ArraySlice(certificate.derEncoded)
        let top = TestDER.children(TestDER.element(in: der, at: der.startIndex).content)
        precondition(top.count == 3, "a certificate is SEQUENCE { tbs, algorithm, signature }")
        fields = TestDER.children(top[0].content).map { Array($0.encoded) }
        signatureAlgorithm = Array(top[1].encoded)
        signatureValue = Array(top[2].encoded)
        serialIndex = fields.first?.first == 0xA0 ? 1 : 0
    }

    var serialNumber: [UInt8] {
        get { fields[serialIndex] }
        set { fields[serialIndex] = newValue }
    }
    var issuer: [UInt8] {
        get { fields[serialIndex + 2] }
        set { fields[serialIndex + 2] = newValue }
    }
    var subject: [UInt8] {
        get { fields[serialIndex + 4] }
        set { fields[serialIndex + 4] = newValue }
    }

    /// Sets a positive 16-octet serial number derived from `value`.
    mutating func setSerial(_ value: UInt32) {
        let content: [UInt8] = [0x41, 0x5A, 0x5A, 0x5A, 0, 0, 0, 0, 0, 0, 0, 0,
                                UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        serialNumber = TestDER.tlv(0x02, content)
    }

    var der: [UInt8] { TestDER.sequence([TestDER.sequence(fields), signatureAlgorithm, signatureValue]) }

    func parse() throws -> Certificate { try Certificate(derEncoded: der) }
}

/// `certificate` with the last octet of its signature flipped (still well-formed DER, wrong value).
func tamperedSignature(_ certificate: Certificate) throws -> Certificate {
    var der = certificate.derEncoded
    der[der.count - 1] ^= 0x01
    return try Certificate(derEncoded: der)
}

/// PEM text for `certificate` (for handing derived certificates to the openssl tool).
func pem(_ certificate: Certificate) -> String {
    let base64 = Data(certificate.derEncoded).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
    return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
}
