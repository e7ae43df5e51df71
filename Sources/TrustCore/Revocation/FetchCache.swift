import Foundation
import TrustCrypto

/// What fetching evaluations keep between them: CRLs and OCSP responses that verified against the
/// issuer they were fetched for, and caIssuers downloads. It is given to the evaluation beside the
/// fetcher (``RevocationFetching``, ``ServerTrust/evaluate(fetchingWith:cache:within:)``), never
/// held by a fetcher: a ``RevocationFetcher`` only fetches, and the engine looks here before it asks
/// the fetcher and stores here what it fetched.
///
/// Why it cannot change a verdict or be poisoned:
/// - Only revocation documents that passed their integrity checks against the issuer are stored
///   (a CRL signed by the issuer's key; an OCSP response about the certificate signed by the issuer
///   or by a responder it authorised), keyed on everything they were verified against: the URL, the
///   issuer certificate and, for OCSP, the request. Each is re-checked in full at every use
///   (signature policy, freshness at the verify date, scope), exactly like a freshly fetched one.
///   Documents without nextUpdate are not stored.
/// - caIssuers downloads are kept as bytes, keyed on their URL: every evaluation parses them again
///   and path building verifies the certificates as it verifies any intermediate.
/// - Lifetime: at most ``lifetime`` seconds (default one hour), and a revocation document no longer
///   than its own nextUpdate, so even a far-future nextUpdate (year 9999) is asked again in time.
/// - Bounded: at most ``capacity`` revocation answers and ``issuerDownloadCapacity`` downloads;
///   when full, the least recently used entry goes first.
/// - Both parts are `BoundedCache`s, so `TrustCaches` (`SWIFTTRUST_CACHES=off`) switches them
///   off with every other cache: then nothing is looked up or stored, and every URL is fetched.
///
/// A cache hit is not a fetch: it is not asked of the fetcher (nor counted by a metered one), and it
/// is used whatever the fetch deadline, as what an earlier evaluation kept on the trust is.
public final class FetchCache: Sendable {
    /// The verified CRLs and OCSP responses.
    package let responses: RevocationResponseCache
    /// The caIssuers downloads.
    package let issuerDownloads: IssuerDownloadCache

    /// The process-wide cache: what `TLSTrustSettings` and trustctl fetch with unless told otherwise
    /// (TrustHTTP's `RevocationFetching.shared`).
    public static let shared = FetchCache()

    /// A cache of at most `capacity` verified revocation answers and `issuerDownloadCapacity`
    /// caIssuers downloads, each used for at most `lifetime` seconds. A `capacity` of 0 keeps no
    /// revocation answers; to keep nothing at all, give the evaluation no cache (nil).
    public init(capacity: Int = 256, issuerDownloadCapacity: Int = 64, lifetime: TimeInterval = 3600) {
        responses = RevocationResponseCache(capacity: capacity, maximumLifetime: lifetime)
        issuerDownloads = IssuerDownloadCache(capacity: issuerDownloadCapacity, lifetime: lifetime)
    }

    /// The most verified revocation answers kept.
    public var capacity: Int { responses.capacity }

    /// The most caIssuers downloads kept.
    public var issuerDownloadCapacity: Int { issuerDownloads.capacity }

    /// The longest time, in seconds, anything is kept.
    public var lifetime: TimeInterval { responses.maximumLifetime }

    /// The number of entries, revocation answers and downloads (expired ones included until they age out).
    public var count: Int { responses.count + issuerDownloads.count }

    /// Forgets every answer and download.
    public func removeAll() {
        responses.removeAll()
        issuerDownloads.removeAll()
    }
}
