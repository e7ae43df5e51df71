import Foundation
import TrustCore
import TrustX509
import TrustDER
import TrustTestSupport
import XCTest

extension TestCertificates {
    /// A ServerTrust for `presented` (leaf first) anchored at `anchors` only, at the pinned date.
    static func trust(
        _ presented: [String], anchors: [String] = ["ecdsa/root.pem"],
        policies: [TrustPolicy] = [.ssl(server: true, hostname: TestCertificates.host)]
    ) throws -> ServerTrust {
        let certificates = try presented.flatMap { try TestCertificates.certificates($0) }
        let trust = ServerTrust(certificates: certificates, policies: policies)
        trust.setAnchorCertificates(try anchors.flatMap { try TestCertificates.certificates($0) })
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
    case .requiredKeyUsageMissing: return "requiredKeyUsageMissing"
    case .leafSPKISHA256NotPinned: return "leafSPKISHA256NotPinned"
    case .caSPKISHA256NotPinned: return "caSPKISHA256NotPinned"
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
    case .extensionUndecodable: return "extensionUndecodable"
    case .certificateDefect: return "certificateDefect"
    case .revoked: return "revoked"
    case .revocationUnavailable: return "revocationUnavailable"
    case .revocationInformationInvalid: return "revocationInformationInvalid"
    case .certificateTransparencyRequired: return "certificateTransparencyRequired"
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
