import TrustX509

/// The X.509 authorities of one SPIFFE trust domain (spiffe/spiffe
/// `standards/SPIFFE_Trust_Domain_and_Bundle.md` §4, `standards/X509-SVID.md` §6): the CA
/// certificates an X.509-SVID of that trust domain must chain to, with the bundle's sequence number
/// and refresh hint when it has them.
///
/// Load one from the SPIFFE bundle format (``init(json:trustDomain:file:)``) or from PEM
/// (``init(pem:trustDomain:file:)``); a ``SPIFFETrustBundleSet`` picks the bundle of a leaf's trust
/// domain. An empty bundle (`"keys": []`, or only keys of other uses) trusts no SVID of its trust
/// domain (§4.1.3).
public struct SPIFFETrustBundle: Hashable, Sendable {
    /// The trust domain whose SVIDs these authorities sign.
    public let trustDomain: SPIFFETrustDomain
    /// The X.509 authorities (the trust anchors), in file order, each once.
    public let x509Authorities: [Certificate]
    /// `spiffe_sequence` (§4.1.1): changes whenever the bundle's contents do.
    public let sequenceNumber: UInt64?
    /// `spiffe_refresh_hint` (§4.1.2): how often, in seconds, the publisher suggests checking for updates.
    public let refreshHintSeconds: Int64?
    /// The JWK entries of a JSON bundle that were passed over, and why (other uses, unknown key
    /// types, x5c values beyond the first); empty for PEM.
    public let ignoredEntries: [SPIFFEBundleIgnoredEntry]

    /// A bundle of `x509Authorities` (duplicates kept once) for `trustDomain`.
    public init(
        trustDomain: SPIFFETrustDomain, x509Authorities: [Certificate], sequenceNumber: UInt64? = nil,
        refreshHintSeconds: Int64? = nil, ignoredEntries: [SPIFFEBundleIgnoredEntry] = []
    ) {
        self.trustDomain = trustDomain
        var seen = Set<Certificate>()
        self.x509Authorities = x509Authorities.filter { seen.insert($0).inserted }
        self.sequenceNumber = sequenceNumber
        self.refreshHintSeconds = refreshHintSeconds
        self.ignoredEntries = ignoredEntries
    }
}
