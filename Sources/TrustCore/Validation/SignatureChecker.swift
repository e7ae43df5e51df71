import TrustCrypto
import TrustX509

/// Checks "issuer signed child" for one evaluation, remembering each answer so the path
/// builder and the validator never verify the same pair twice.
final class SignatureChecker {
    private struct Pair: Hashable {
        let child: Certificate
        let issuer: Certificate
    }

    private var results: [Pair: TrustFailureReason?] = [:]
    let policy: SignaturePolicy
    /// How many real signature verifications were made.
    private(set) var verificationCount = 0

    init(policy: SignaturePolicy) { self.policy = policy }

    /// Whether `child` was signed by `issuer`'s key; nil when it was, otherwise the reason.
    func failure(child: Certificate, issuer: Certificate) -> TrustFailureReason? {
        let pair = Pair(child: child, issuer: issuer)
        if let known = results[pair] { return known }
        verificationCount += 1
        let outcome = SignatureChecker.verify(child: child, issuer: issuer, policy: policy)
        results[pair] = outcome
        return outcome
    }

    static func verify(child: Certificate, issuer: Certificate, policy: SignaturePolicy) -> TrustFailureReason? {
        if SignatureCache.shared.contains(child: child, issuer: issuer, policy: policy) { return nil }
        do {
            let algorithm = try child.signatureAlgorithm()
            let key = try issuer.verificationKey()
            try SignatureVerifier.verify(
                signature: child.signature, over: child.tbsCertificateBytes,
                algorithm: algorithm, key: key, policy: policy
            )
            SignatureCache.shared.insert(child: child, issuer: issuer, policy: policy)
            return nil
        } catch SignatureError.invalidSignature {
            return .signatureInvalid
        } catch {
            return .signatureUnverifiable(error)
        }
    }
}
