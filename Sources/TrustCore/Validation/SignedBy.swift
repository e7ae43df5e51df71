import TrustCrypto
import TrustX509

/// A certificate and the key tried as its issuer's: SHA-256 of the certificate's DER (which covers
/// the signed bytes, the signature algorithm and the signature) and of the issuer's
/// SubjectPublicKeyInfo. Whether libcrypto verifies the signature depends on nothing else (the
/// signature policy is applied on every use, not remembered), so this one key serves the
/// process-wide ``SignatureCache`` and the path builder's memory of the keys it tried. It holds no
/// reference: remembering a pair retains no certificate (objects concurrent evaluations share).
struct SignedBy: Hashable, Sendable {
    let child: DigestWords
    let issuerKey: DigestWords

    /// `child` and the key of `issuer`.
    init(_ child: Certificate, by issuer: Certificate) {
        self.child = child.sha256Words
        issuerKey = issuer.spkiSHA256Words
    }

    /// Words of two SHA-256 digests: one mixed word is as good as all of them. Equality (synthesised)
    /// compares every word.
    func hash(into hasher: inout Hasher) {
        hasher.combine(child.w0 ^ (issuerKey.w0 &* 0x9E37_79B9_7F4A_7C15))
    }
}
