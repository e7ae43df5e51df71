import TrustCore
import TrustX509

/// Accepts a trust when one of the pinned public keys is the key of one of the server's
/// certificates: Alamofire 5's `PublicKeysTrustEvaluator`.
///
/// Keys are compared as whole DER SubjectPublicKeyInfo structures (algorithm and key). The
/// server's certificates are the chain the evaluation built, trusted or not, as Alamofire reads
/// `trust.af.certificates` (never certificates the server appended outside it). Pinning a key
/// survives certificate renewal with the same key.
public struct PublicKeysTrustEvaluator: ServerTrustEvaluating {
    /// The pinned keys, without duplicates.
    public let keys: [SubjectPublicKeyInfo]
    let validation: StandardValidation

    /// Creates the evaluator.
    ///
    /// - Parameters:
    ///   - keys: The pinned keys; `certificates.publicKeys` extracts them from certificates.
    ///   - performDefaultValidation: Whether to run default validation. Default true.
    ///   - validateHost: Whether to validate the host name (a full evaluation). Default true.
    public init(keys: [SubjectPublicKeyInfo], performDefaultValidation: Bool = true, validateHost: Bool = true) {
        self.keys = keys.uniqued()
        validation = StandardValidation(performDefaultValidation: performDefaultValidation, validateHost: validateHost)
    }

    /// Throws ``ServerTrustFailureReason/noPublicKeysFound``, a validation failure, or
    /// ``ServerTrustFailureReason/publicKeyPinningFailed(host:pinned:presented:)``.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        try refuseSkippingEvaluation(of: trust, forHost: host)
        guard !keys.isEmpty else { throw ServerTrustFailureReason.noPublicKeysFound }
        let evaluation = try validation.run(on: trust, forHost: host)
        let server = trust.certificatesForPinning(evaluation)
        let pinned = Set(keys)
        guard server.contains(where: { pinned.contains($0.publicKeyInfo) }) else {
            throw ServerTrustFailureReason.publicKeyPinningFailed(
                host: host, pinned: keys.map { PinDescription(value: SPKIPin(publicKey: $0).description, subject: nil) },
                presented: server.map(PinDescription.publicKey))
        }
    }
}
