import TrustX509

/// Trust bundles keyed by trust domain: the trust domain of a leaf's SPIFFE ID picks the anchors
/// its chain must end at (SPIFFE-ID §3.1: an SVID is valid when signed by an authority of its
/// own trust domain), so an SVID of one trust domain never validates under another's authorities.
///
/// ```swift
/// var bundles = SPIFFETrustBundleSet()
/// bundles.insert(try SPIFFETrustBundle(jsonFile: "example.org.json", trustDomain: SPIFFETrustDomain("example.org")))
/// trust.setAnchorCertificates(try bundles.anchors(for: leaf))
/// ```
public struct SPIFFETrustBundleSet: Hashable, Sendable {
    private var bundles: [SPIFFETrustDomain: SPIFFETrustBundle] = [:]

    /// An empty set.
    public init() {}

    /// The set of `bundles`; of two for one trust domain, the first is kept.
    public init(_ bundles: [SPIFFETrustBundle]) {
        for bundle in bundles { insert(bundle) }
    }

    /// The bundle of `trustDomain`, if any.
    public subscript(trustDomain: SPIFFETrustDomain) -> SPIFFETrustBundle? { bundles[trustDomain] }

    /// The trust domains with a bundle, in name order.
    public var trustDomains: [SPIFFETrustDomain] { bundles.keys.sorted() }

    /// Whether the set holds no bundle.
    public var isEmpty: Bool { bundles.isEmpty }

    /// Adds `bundle` unless the set holds one for its trust domain already (that one is kept).
    ///
    /// - Returns: Whether `bundle` was added.
    @discardableResult
    public mutating func insert(_ bundle: SPIFFETrustBundle) -> Bool {
        guard bundles[bundle.trustDomain] == nil else { return false }
        bundles[bundle.trustDomain] = bundle
        return true
    }

    /// Adds `bundle`, replacing the one of its trust domain, if any (a bundle that rotated).
    public mutating func update(_ bundle: SPIFFETrustBundle) {
        bundles[bundle.trustDomain] = bundle
    }

    /// The SPIFFE ID an X.509-SVID names: its one URI subjectAltName (X509-SVID §2), parsed.
    ///
    /// - Throws: ``SPIFFEBundleSelectionError`` when the leaf has none, several, or one that is not a SPIFFE ID.
    public static func spiffeID(of leaf: Certificate) throws(SPIFFEBundleSelectionError) -> SPIFFEID {
        let uris = leaf.uriSubjectAltNames
        guard let uri = uris.first else { throw .noSPIFFEID }
        guard uris.count == 1 else { throw .severalURIs(count: uris.count) }
        do { return try SPIFFEID(uri) } catch { throw .invalidSPIFFEID(uri: uri, error: error) }
    }

    /// The X.509 authorities of the trust domain `leaf`'s SPIFFE ID names: the anchors to validate
    /// its chain with. A bundle without authorities gives none, so nothing of that trust domain validates.
    ///
    /// - Throws: ``SPIFFEBundleSelectionError``: the leaf names no single SPIFFE ID, or no bundle is
    ///   configured for its trust domain.
    public func anchors(for leaf: Certificate) throws(SPIFFEBundleSelectionError) -> [Certificate] {
        let id = try SPIFFETrustBundleSet.spiffeID(of: leaf)
        guard let bundle = bundles[id.trustDomain] else { throw .noBundle(trustDomain: id.trustDomain) }
        return bundle.x509Authorities
    }
}
