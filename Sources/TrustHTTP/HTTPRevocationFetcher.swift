import Foundation
import TrustCore

/// The default fetcher: plain HTTP (the only scheme CRL, OCSP and caIssuers distribution uses), a
/// deadline per request, a response-size cap, and at most a few requests at once. It only fetches:
/// what an evaluation keeps between evaluations is the `FetchCache` it is given beside the fetcher
/// (``RevocationFetching/shared`` pairs ``shared`` with `FetchCache.shared`).
public final class HTTPRevocationFetcher: RevocationFetcher {
    /// Seconds allowed for one request, connect to last byte.
    public let timeout: Double
    /// Largest CRL accepted, in bytes.
    public let maximumCRLBytes: Int
    /// Largest OCSP response accepted, in bytes.
    public let maximumOCSPBytes: Int
    /// Whether loopback, link-local, private-use and other non-public addresses may be fetched from
    /// (judged on each resolved address). Default false: a certificate names the URLs, and must not
    /// make SwiftTrust reach the host itself or its internal network. Tests serving revocation
    /// information on 127.0.0.1, and deployments whose CAs publish on an internal network, say so.
    public let allowsLocalAddresses: Bool
    /// Largest caIssuers download accepted (a certificate, or a certs-only PKCS #7 bundle): 256 KiB.
    public static let maximumIssuerBytes = 256 * 1024

    /// A process-wide instance with the default limits.
    public static let shared = HTTPRevocationFetcher()
    /// ``shared`` allowing local addresses.
    package static let sharedAllowingLocalAddresses = shared.allowing(localAddresses: true)

    /// CRL and OCSP requests in flight at once, process-wide (per host: 2, by registrable domain or address).
    public static let concurrentRevocationFetches = HTTPClient.concurrentRequests
    /// caIssuers downloads in flight at once, process-wide, in a pool of their own (per host: 1):
    /// a peer choosing slow caIssuers URLs never delays the revocation fetches of validated chains.
    public static let concurrentIssuerFetches = HTTPClient.concurrentIssuerRequests

    /// Creates a fetcher with the given limits; `allowsLocalAddresses` allows non-public destinations.
    public init(
        timeout: Double = 10, maximumCRLBytes: Int = RevocationMethod.crl.maximumResponseBytes,
        maximumOCSPBytes: Int = RevocationMethod.ocsp.maximumResponseBytes,
        allowsLocalAddresses: Bool = false
    ) {
        self.allowsLocalAddresses = allowsLocalAddresses
        self.timeout = timeout
        self.maximumCRLBytes = maximumCRLBytes
        self.maximumOCSPBytes = maximumOCSPBytes
    }

    /// This fetcher's limits with local addresses allowed or not.
    public func allowing(localAddresses allowed: Bool) -> HTTPRevocationFetcher {
        allowed == allowsLocalAddresses
            ? self
            : HTTPRevocationFetcher(
                timeout: timeout, maximumCRLBytes: maximumCRLBytes, maximumOCSPBytes: maximumOCSPBytes,
                allowsLocalAddresses: allowed)
    }

    /// This fetcher allowing local addresses, for the CRL and OCSP URLs of a chain validated to
    /// explicit anchors alone (``ServerTrust/revocationFetchesMayReachLocalAddresses``).
    public func allowingLocalAddresses() -> any RevocationFetcher { allowing(localAddresses: true) }

    /// GETs or POSTs what `request` asks for, reading at most this fetcher's limit for the method
    /// (``maximumCRLBytes``, ``maximumOCSPBytes``; the request's own for another method).
    public func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] {
        try await HTTPClient.request(
            request.url, method: request.body == nil ? "GET" : "POST", contentType: request.contentType,
            body: request.body ?? [], timeout: timeout, maximumBytes: maximumBytes(for: request),
            allowsLocalAddresses: allowsLocalAddresses, pool: .revocation)
    }

    /// The largest answer accepted for `request`.
    private func maximumBytes(for request: RevocationFetchRequest) -> Int {
        switch request.method {
        case .crl: maximumCRLBytes
        case .ocsp: maximumOCSPBytes
        default: request.maximumBytes
        }
    }

    /// Downloads what a caIssuers URL serves (``maximumIssuerBytes`` at most).
    public func fetchIssuerCertificates(from url: String) async throws -> [UInt8] {
        try await HTTPClient.request(
            url, method: "GET", contentType: nil, body: [], timeout: timeout,
            maximumBytes: Self.maximumIssuerBytes, allowsLocalAddresses: allowsLocalAddresses,
            pool: .issuers)
    }
}
