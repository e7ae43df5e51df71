import TrustCore
import TrustX509

/// SPIFFE trust bundles as a handshake's anchors: the trust domain of the peer's SPIFFE ID (its one
/// URI subjectAltName, as presented) picks the bundle whose X.509 authorities the chain must end at,
/// so a peer of one trust domain is never verified against another's authorities. The set answers
/// from memory, as a provider must.
extension SPIFFETrustBundleSet: TrustAnchorProvider {
    /// The authorities of the bundle of `leaf`'s trust domain (`SPIFFETrustBundleSet.anchors(for:)`).
    ///
    /// - Throws: ``TrustAnchorUnavailable/noBundleForLeaf(_:)`` naming what is missing: no
    ///   single SPIFFE ID (and which X509-SVID or SPIFFE-ID rule), or no bundle for its trust domain.
    public func anchors(forLeaf leaf: Certificate) throws(TrustAnchorUnavailable) -> [Certificate] {
        do { return try anchors(for: leaf) } catch { throw .noBundleForLeaf(error) }
    }
}
