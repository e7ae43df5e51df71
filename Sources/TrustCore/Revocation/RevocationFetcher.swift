import Foundation
import Synchronization
import TrustDER
import TrustX509

/// Fetches revocation information over the network. Implement it to route requests through your
/// own HTTP stack, a proxy, or a test double; ``HTTPRevocationFetcher`` is the default.
public protocol RevocationFetcher: Sendable {
    /// Downloads the DER (or PEM) CRL at `url`.
    func fetchCRL(from url: String) async throws -> [UInt8]
    /// POSTs the DER OCSP `request` to the responder at `url` and returns the DER response.
    func fetchOCSPResponse(from url: String, request: [UInt8]) async throws -> [UInt8]
}

/// The default fetcher: plain HTTP (the only scheme CRL and OCSP distribution uses), a deadline per
/// request, a response-size cap, and a cache keyed by URL (and request) that keeps each answer
/// until its nextUpdate.
public final class HTTPRevocationFetcher: RevocationFetcher {
    /// Seconds allowed for one request, connect to last byte.
    public let timeout: Double
    /// Largest CRL accepted, in bytes.
    public let maximumCRLBytes: Int
    /// Largest OCSP response accepted, in bytes.
    public let maximumOCSPBytes: Int
    /// Most cached answers kept.
    public let cacheCapacity: Int

    private struct CacheEntry: Sendable {
        let bytes: [UInt8]
        let expires: Date
    }

    private let cache = Mutex<[String: CacheEntry]>([:])

    /// A process-wide instance with the default limits.
    public static let shared = HTTPRevocationFetcher()

    /// Creates a fetcher with the given limits.
    public init(timeout: Double = 10, maximumCRLBytes: Int = 20 * 1024 * 1024, maximumOCSPBytes: Int = 64 * 1024,
                cacheCapacity: Int = 256) {
        self.timeout = timeout
        self.maximumCRLBytes = maximumCRLBytes
        self.maximumOCSPBytes = maximumOCSPBytes
        self.cacheCapacity = cacheCapacity
    }

    /// Downloads the CRL at `url` (cached until its nextUpdate).
    public func fetchCRL(from url: String) async throws -> [UInt8] {
        if let cached = cached(url) { return cached }
        let bytes = try await HTTPClient.request(url, method: "GET", contentType: nil, body: [], timeout: timeout, maximumBytes: maximumCRLBytes)
        let nextUpdate = (try? CertificateRevocationList.loadAll(from: bytes))?.first?.nextUpdate
        store(url, bytes, until: nextUpdate)
        return bytes
    }

    /// POSTs an OCSP request (cached per URL and request until the response's nextUpdate).
    public func fetchOCSPResponse(from url: String, request: [UInt8]) async throws -> [UInt8] {
        let key = url + "#" + Base64.encode(request)
        if let cached = cached(key) { return cached }
        let bytes = try await HTTPClient.request(url, method: "POST", contentType: "application/ocsp-request", body: request,
                                                 timeout: timeout, maximumBytes: maximumOCSPBytes)
        let nextUpdate = (try? OCSPResponse(derEncoded: bytes))?.responses.compactMap(\.nextUpdate).min()
        store(key, bytes, until: nextUpdate)
        return bytes
    }

    /// Forgets every cached answer.
    public func removeAll() { cache.withLock { $0.removeAll() } }

    private func cached(_ key: String) -> [UInt8]? {
        cache.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.expires > Date() else {
                entries[key] = nil
                return nil
            }
            return entry.bytes
        }
    }

    private func store(_ key: String, _ bytes: [UInt8], until nextUpdate: DERTime?) {
        // Without a nextUpdate the answer is not cached: there is no promise of when it goes stale.
        guard let nextUpdate else { return }
        let expires = Date(timeIntervalSince1970: TimeInterval(nextUpdate.secondsSince1970))
        guard expires > Date() else { return }
        cache.withLock { entries in
            if entries.count >= cacheCapacity, let oldest = entries.min(by: { $0.value.expires < $1.value.expires })?.key {
                entries[oldest] = nil
            }
            entries[key] = CacheEntry(bytes: bytes, expires: expires)
        }
    }
}
