import TrustCore

/// Which evaluation of an evaluator failed, inside
/// ``ServerTrustFailureReason/trustEvaluationFailed(host:stage:failures:)``.
///
/// On current Apple systems Alamofire 5 reports every failed `SecTrust` evaluation as the one reason
/// `.trustEvaluationFailed(error:)` (`SecTrust.af.evaluate()` in `ServerTrustEvaluation.swift`,
/// taken whenever `SecTrustEvaluateWithError` exists: iOS 12, macOS 10.14, tvOS 12, watchOS 5).
/// The stage keeps what its legacy reasons told apart (`defaultEvaluationFailed`,
/// `hostValidationFailed`, `revocationCheckFailed`), which Alamofire still throws on older systems.
public enum TrustEvaluationStage: Hashable, Sendable, CustomStringConvertible {
    /// Default validation: a chain to a trusted anchor, fit for TLS server authentication, without
    /// the host name (Alamofire's `performDefaultValidation(forHost:)`).
    case defaultValidation
    /// Validation with the host name, a full evaluation (Alamofire's `performValidation(forHost:)`).
    case hostValidation
    /// The revocation check of ``RevocationTrustEvaluator`` with these options (Alamofire's
    /// `RevocationTrustEvaluator.evaluate`).
    case revocation(RevocationOptions)

    /// The name of Alamofire's legacy reason for the stage (`defaultEvaluationFailed`, ...).
    public var legacyAlamofireReason: String {
        switch self {
        case .defaultValidation: return "defaultEvaluationFailed"
        case .hostValidation: return "hostValidationFailed"
        case .revocation: return "revocationCheckFailed"
        }
    }

    /// "default validation", "host validation" or "revocation check (options: ...)".
    public var description: String {
        switch self {
        case .defaultValidation: return "default validation"
        case .hostValidation: return "host validation"
        case let .revocation(options): return "revocation check (options: \(options.swiftNames))"
        }
    }
}
