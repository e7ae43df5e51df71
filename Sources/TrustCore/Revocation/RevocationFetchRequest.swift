/// One request for a revocation document: what a ``RevocationFetcher`` is asked to fetch. The
/// method's folder builds it (a GET of a CRL distribution point, a POST of an OCSP request), so a
/// fetcher serves every method the same way and a new method needs nothing of it.
public struct RevocationFetchRequest: Hashable, Sendable, CustomStringConvertible {
    /// The kind of document asked for.
    public let method: RevocationMethod
    /// Where: a URL the certificate names.
    public let url: String
    /// The body to POST, or nil for a GET.
    public let body: [UInt8]?
    /// The body's media type (`application/ocsp-request`, RFC 6960 Appendix A.1); nil for a GET.
    public let contentType: String?
    /// The largest answer the method expects, in bytes: a fetcher without a limit of its own for
    /// the method stops reading there.
    public let maximumBytes: Int

    /// A request for a `method` document at `url`: a POST of `body` as `contentType`, or a GET when
    /// `body` is nil.
    public init(method: RevocationMethod, url: String, body: [UInt8]? = nil, contentType: String? = nil, maximumBytes: Int) {
        self.method = method
        self.url = url
        self.body = body
        self.contentType = contentType
        self.maximumBytes = max(0, maximumBytes)
    }

    /// e.g. `GET CRL http://crl.example.com/ca.crl`.
    public var description: String { "\(body == nil ? "GET" : "POST") \(method) \(url)" }
}

extension RevocationFetchRequest {
    /// The same request sent to `url` instead: for a fetcher that routes requests (a proxy, a
    /// mirror, a test's loopback server).
    public func redirected(to url: String) -> RevocationFetchRequest {
        RevocationFetchRequest(method: method, url: url, body: body, contentType: contentType, maximumBytes: maximumBytes)
    }
}
