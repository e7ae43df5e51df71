import TrustX509

extension PathValidator {
    /// Apple's SPKI pin options of the SSL policy (``TrustOptions/leafSPKISHA256``,
    /// ``TrustOptions/caSPKISHA256``), each failure handed to `report`.
    ///
    /// As trustd checks them (SecPolicyServer.c): `SecPolicyCheckLeafSPKISHA256` looks for the leaf's
    /// `SecCertificateCopySubjectPublicKeyInfoSHA256Digest` in the list; `SecPolicyCheckCAspkiSHA256`
    /// for that of any certificate at index 1 to count - 1 of the path, so every certificate above
    /// the leaf, the anchor included, and fails a path of fewer than two certificates. A list is
    /// matched with `CFArrayContainsValue`, so an empty one matches nothing.
    func checkSPKIPins(_ chain: [Certificate], report: (TrustFailure) -> Void) {
        if let pinned = options.leafSPKISHA256, let leaf = chain.first {
            let digest = leaf.spkiSHA256
            if !pinned.contains(digest) {
                report(TrustFailure(.leafSPKISHA256NotPinned(spkiSHA256: digest, pinned: pinned), certificate: leaf, index: 0))
            }
        }
        if let pinned = options.caSPKISHA256 {
            let authorities = chain.dropFirst()
            if !authorities.contains(where: { pinned.contains($0.spkiSHA256) }) {
                // Apple marks every CA of the path (the leaf when there is none): one failure about the chain here.
                report(TrustFailure(.caSPKISHA256NotPinned(pinned: pinned, examined: authorities.count), certificate: nil, index: nil))
            }
        }
    }
}
