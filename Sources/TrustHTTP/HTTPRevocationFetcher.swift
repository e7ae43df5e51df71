import Foundation
import TrustCore

/// The default fetcher: plain HTTP (the only scheme CRL and OCSP distribution uses), a deadline per
/// request, a response-size cap, at most a few requests at once, and a `RevocationResponseCache`
/// of verified answers (never of raw bytes).
public final class HTTPRevocationFetcher: RevocationFetcher {
    /// Seconds allowed for one request, connect to last byte.
    public let timeout: Double
    /// Largest CRL accepted, in bytes.
    public let maximumCRLBytes: Int
    /// Largest OCSP response accepted, in bytes.
    public let maximumOCSPBytes: Int
    /// The verified answers kept for later evaluations (nil when `cacheCapacity` is 0).
    public let responseCache: RevocationResponseCache?
    /// Whether loopback, link-local, private-use and other non-public addresses may be fetched from
    /// (judged on each resolved address). Default false: a certificate names the URLs, and must not
    /// make SwiftTrust reach the host itself or its internal network. Tests serving revocation
    /// information on 127.0.0.1, and deployments whose CAs publish on an internal network, say so.
    public let allowsLocalAddresses: Bool
    /// Largest caIssuers download accepted (a certificate, or a certs-only PKCS #7 bundle): 256 KiB.
    public static let maximumIssuerBytes = 256 * 1024
    /// caIssuers downloads by URL (nil when `cacheCapacity` is 0).
    let issuerCache: IssuerDownloadCache?
    /// Most cached answers kept.
    public var cacheCapacity: Int { responseCache?.capacity ?? 0 }

    /// A process-wide instance with the default limits.
    public static let shared = HTTPRevocationFetcher()
    /// ``shared`` allowing local addresses, with the same caches.
    package static let sharedAllowingLocalAddresses = shared.allowing(localAddresses: true)

    /// CRL and OCSP requests in flight at once, process-wide (per host: 2, by registrable domain or address).
    public static let concurrentRevocationFetches = HTTPClient.concurrentRequests
    /// caIssuers downloads in flight at once, process-wide, in a pool of their own (per host: 1):
    /// a peer choosing slow caIssuers URLs never delays the revocation fetches of validated chains.
    public static let concurrentIssuerFetches = HTTPClient.concurrentIssuerRequests

    /// Creates a fetcher with the given limits; `cacheCapacity` 0 turns the cache off,
    /// `cacheLifetime` caps how long (seconds) a verified answer is reused, and
    /// `allowsLocalAddresses` allows non-public destinations.
    public init(timeout: Double = 10, maximumCRLBytes: Int = 20 * 1024 * 1024, maximumOCSPBytes: Int = 64 * 1024,
                cacheCapacity: Int = 256, cacheLifetime: TimeInterval = 3600, allowsLocalAddresses: Bool = false) {
        self.allowsLocalAddresses = allowsLocalAddresses
        issuerCache = cacheCapacity > 0 ? IssuerDownloadCache(capacity: 64, lifetime: cacheLifetime) : nil
        self.timeout = timeout
        self.maximumCRLBytes = maximumCRLBytes
        self.maximumOCSPBytes = maximumOCSPBytes
        responseCache = cacheCapacity > 0 ? RevocationResponseCache(capacity: cacheCapacity, maximumLifetime: cacheLifetime) : nil
    }

    /// `other`'s limits and caches (shared, not copied), with `allowsLocalAddresses`.
    private init(_ other: HTTPRevocationFetcher, allowsLocalAddresses: Bool) {
        timeout = other.timeout
        maximumCRLBytes = other.maximumCRLBytes
        maximumOCSPBytes = other.maximumOCSPBytes
        responseCache = other.responseCache
        issuerCache = other.issuerCache
        self.allowsLocalAddresses = allowsLocalAddresses
    }

    /// This fetcher's limits and caches with local addresses allowed or not.
    public func allowing(localAddresses allowed: Bool) -> HTTPRevocationFetcher {
        allowed == allowsLocalAddresses ? self : HTTPRevocationFetcher(self, allowsLocalAddresses: allowed)
    }

    /// This fetcher allowing local addresses, for the CRL and OCSP URLs of a chain validated to
    /// explicit anchors alone (``ServerTrust/revocationFetchesMayReachLocalAddresses``).
    public func allowingLocalAddresses() -> any RevocationFetcher { allowing(localAddresses: true) }

    /// Downloads the CRL at `url`.
    public func fetchCRL(from url: String) async throws -> [UInt8] {
        try await HTTPClient.request(url, method: "GET", contentType: nil, body: [], timeout: timeout, maximumBytes: maximumCRLBytes,
                                     allowsLocalAddresses: allowsLocalAddresses, pool: .revocation)
    }

    /// POSTs an OCSP request.
    public func fetchOCSPResponse(from url: String, request: [UInt8]) async throws -> [UInt8] {
        try await HTTPClient.request(url, method: "POST", contentType: "application/ocsp-request", body: request,
                                     timeout: timeout, maximumBytes: maximumOCSPBytes, allowsLocalAddresses: allowsLocalAddresses,
                                     pool: .revocation)
    }

    /// Downloads what a caIssuers URL serves (``maximumIssuerBytes`` at most), or returns what an
    /// earlier download of the same URL kept (for `cacheLifetime`).
    public func fetchIssuerCertificates(from url: String) async throws -> [UInt8] {
        if let cached = issuerCache?.bytes(for: url) { return cached }
        let bytes = try await HTTPClient.request(url, method: "GET", contentType: nil, body: [], timeout: timeout,
                                                 maximumBytes: Self.maximumIssuerBytes, allowsLocalAddresses: allowsLocalAddresses,
                                                 pool: .issuers)
        issuerCache?.store(bytes, for: url)
        return bytes
    }

    /// Forgets every cached answer and download.
    public func removeAll() {
        responseCache?.removeAll()
        issuerCache?.removeAll()
    }
}
