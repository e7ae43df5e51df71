/// The outcome of checking a served chain against a domain's pins, with TrustKit's integer codes
/// (`TSKPinValidationResult` in TrustKit's `TSKPinningValidatorResult.h`): the
/// `validation-result` field of a pin-failure report.
///
/// The raw values are TrustKit's, so a collector written for TrustKit reads our reports unchanged.
public enum PinValidationResult: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The chain was trusted and contained at least one of the configured pins (TrustKit
    /// `TSKPinValidationResultSuccess`, 0). No report is sent for it.
    case success = 0
    /// The chain was trusted but contained none of the configured pins (TrustKit
    /// `TSKPinValidationResultFailed`, 1).
    case failed = 1
    /// The chain itself was not trusted, so the pins were not checked (TrustKit
    /// `TSKPinValidationResultFailedCertificateChainNotTrusted`, 2).
    case failedCertificateChainNotTrusted = 2
    /// The trust could not be evaluated because of invalid parameters, such as no certificate at
    /// all (TrustKit `TSKPinValidationResultErrorInvalidParameters`, 3).
    case errorInvalidParameters = 3
    /// The chain was trusted and contained none of the pins, but it ends at an anchor the user or
    /// the application added rather than a system root (TrustKit
    /// `TSKPinValidationResultFailedUserDefinedTrustAnchor`, 4; macOS-only in TrustKit, where
    /// such anchors may be exempted for corporate proxies).
    case failedUserDefinedTrustAnchor = 4
    /// A certificate's SubjectPublicKeyInfo hash could not be computed (TrustKit
    /// `TSKPinValidationResultErrorCouldNotGenerateSpkiHash`, 5).
    case errorCouldNotGenerateSPKIHash = 5

    /// TrustKit's constant name without its `TSKPinValidationResult` prefix, e.g. `Failed`.
    public var description: String {
        switch self {
        case .success: return "Success"
        case .failed: return "Failed"
        case .failedCertificateChainNotTrusted: return "FailedCertificateChainNotTrusted"
        case .errorInvalidParameters: return "ErrorInvalidParameters"
        case .failedUserDefinedTrustAnchor: return "FailedUserDefinedTrustAnchor"
        case .errorCouldNotGenerateSPKIHash: return "ErrorCouldNotGenerateSpkiHash"
        }
    }
}
