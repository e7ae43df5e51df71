import Foundation
import TrustCore
import TrustX509

/// Accepts a trust when the SHA-256 SPKI hash of one of the server's certificates is pinned, the
/// way TrustKit and OkHttp pin (`sha256/BASE64`).
///
/// At least two distinct pins are required, so that one can be a backup key. After the optional
/// `expirationDate` (compared with the trust's `verifyDate`, or now) pins are no longer enforced,
/// like TrustKit's `kTSKExpirationDate`, but default and host validation still are: an app that
/// is not updated does not lock its users out once its pins are stale.
///
/// ```swift
/// let evaluator = try PinnedSPKIHashesTrustEvaluator(pins: [
///     "sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=",   // current key
///     "sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg=",   // backup key
/// ])
/// ```
public struct PinnedSPKIHashesTrustEvaluator: ServerTrustEvaluating {
    /// The pins, without duplicates.
    public let pins: [SPKIPin]
    /// The instant after which pins are not enforced, if any.
    public let expirationDate: Date?
    let validation: StandardValidation

    /// Creates the evaluator.
    ///
    /// - Parameters:
    ///   - pins: `sha256/BASE64` pins; at least two distinct ones.
    ///   - expirationDate: After this instant the pins are not enforced. Default: never.
    ///   - performDefaultValidation: Whether to run default validation. Default true.
    ///   - validateHost: Whether to validate the host name (a full evaluation). Default true.
    /// - Throws: ``PinningConfigurationError/malformedPin(_:reason:)`` or
    ///   ``PinningConfigurationError/tooFewPins(count:)``.
    public init(
        pins: [String], expirationDate: Date? = nil, performDefaultValidation: Bool = true,
        validateHost: Bool = true
    ) throws(PinningConfigurationError) {
        var parsed: [SPKIPin] = []
        for pin in pins { parsed.append(try SPKIPin(pin)) }
        self.pins = parsed.uniqued()
        guard self.pins.count >= 2 else { throw .tooFewPins(count: self.pins.count) }
        self.expirationDate = expirationDate
        validation = StandardValidation(performDefaultValidation: performDefaultValidation, validateHost: validateHost)
    }

    /// Whether the pins are enforced at `date`.
    public func enforcesPins(at date: Date) -> Bool {
        guard let expirationDate else { return true }
        return date <= expirationDate
    }

    /// Throws a validation failure, or ``ServerTrustFailureReason/publicKeyPinningFailed(host:pinned:presented:)``
    /// listing the pins and the server's SPKI hashes.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        try refuseSkippingEvaluation(of: trust, forHost: host)
        let evaluation = try validation.run(on: trust, forHost: host)
        guard enforcesPins(at: trust.verifyDate ?? Date()) else { return }
        let server = trust.certificatesForPinning(evaluation)
        guard server.contains(where: { certificate in pins.contains { $0.matches(certificate) } }) else {
            throw ServerTrustFailureReason.publicKeyPinningFailed(
                host: host, pinned: pins.map { PinDescription(value: $0.description, subject: nil) },
                presented: server.map(PinDescription.publicKey))
        }
    }
}
