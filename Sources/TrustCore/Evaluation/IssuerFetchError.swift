import TrustX509

/// Why a missing issuer was not taken from its caIssuers URL.
public enum IssuerFetchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The fetcher does not fetch issuers (a ``RevocationFetcher`` that does not implement
    /// ``RevocationFetcher/fetchIssuerCertificates(from:)``).
    case notSupported
    /// What the URL served is neither a DER certificate nor a certs-only PKCS #7 bundle: `error`
    /// is why it is not the bundle.
    case unreadable(url: String, error: X509Error)

    /// One sentence.
    public var description: String {
        switch self {
        case .notSupported: return "the fetcher does not fetch issuer certificates"
        case let .unreadable(url, error): return "\(url) served neither a DER certificate nor a certs-only PKCS #7 bundle: \(error)"
        }
    }
}

/// An intermediate a fetching evaluation downloaded because the peer left it out, and where from.
public struct FetchedIssuer: Hashable, Sendable {
    /// The certificate.
    public let certificate: Certificate
    /// The caIssuers URL it was fetched from.
    public let url: String

    /// Pairs a certificate with its URL.
    public init(certificate: Certificate, url: String) {
        self.certificate = certificate
        self.url = url
    }
}
