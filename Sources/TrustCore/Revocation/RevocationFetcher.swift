import Foundation

/// Fetches revocation information over the network. Implement it to route requests through your
/// own HTTP stack, a proxy, or a test double; TrustHTTP's `HTTPRevocationFetcher` is the default
/// the transport layer uses (TrustCore itself holds no HTTP client).
///
/// Throw ``FetchFailureReason`` to say why a fetch gave nothing: the evaluation records it on the
/// certificate's status (any other error is kept whole, as ``FetchFailureReason/fetcherError(_:)``).
///
/// A fetcher only moves bytes: it gets what a URL serves, within its own limits, and keeps nothing.
/// The evaluation (``ServerTrust/evaluate(fetching:within:)``) parses and verifies what it returns,
/// and keeps what verified in the ``FetchCache`` it is given beside the fetcher
/// (``RevocationFetching``), so a fetcher that wraps another has only the fetches to forward.
/// Every revocation method asks through the one requirement ``fetch(_:)``: a wrapper forwards it
/// and serves methods added later without a change.
public protocol RevocationFetcher: Sendable {
    /// Fetches what `request` asks for (a GET, or a POST of its body) and returns the answer's
    /// bytes: a CRL (DER or PEM), a DER OCSP response, … Each method builds its request
    /// (``RevocationFetchRequest/crlDownload(from:)``, ``RevocationFetchRequest/ocspRequest(_:to:)``);
    /// ``fetchCRL(from:)`` and ``fetchOCSPResponse(from:request:)`` call this with them.
    func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8]
    /// Downloads what an authorityInfoAccess caIssuers `url` serves: a DER certificate or a
    /// certs-only PKCS #7 bundle (RFC 5280 §4.2.2.1), for a fetching evaluation whose chain lacks an
    /// issuer (``TrustOptions/fetchesMissingIssuers``). The default throws
    /// ``IssuerFetchError/notSupported``: a fetcher fetches issuers only when it says it can.
    func fetchIssuerCertificates(from url: String) async throws -> [UInt8]
    /// This fetcher, allowed to connect to loopback, link-local and private-use addresses: used for
    /// the CRL and OCSP URLs of a chain that validated to explicit anchors alone, when the trust
    /// says so (``ServerTrust/revocationFetchesMayReachLocalAddresses``); never for caIssuers URLs.
    /// The default returns `self`: a fetcher of your own decides for itself where it connects.
    func allowingLocalAddresses() -> any RevocationFetcher
}

extension RevocationFetcher {
    /// Issuers are not fetched unless the fetcher implements it.
    public func fetchIssuerCertificates(from url: String) async throws -> [UInt8] {
        throw IssuerFetchError.notSupported
    }

    /// `self`: a fetcher that judges no destinations has nothing to allow.
    public func allowingLocalAddresses() -> any RevocationFetcher { self }
}
