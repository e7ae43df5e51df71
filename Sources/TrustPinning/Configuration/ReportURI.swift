import Foundation

/// Report URIs (TrustKit's `kTSKReportUris`, TrustKit-Android's `<report-uri>`, our JSON's
/// `reportURIs`): absolute `http` or `https` URLs with a host and without credentials. One rule for
/// every format's loader and writer.
enum ReportURI {
    /// The URL `text` names, or nil when it is not a usable report URI.
    static func parse(_ text: String) -> URL? {
        guard let url = URL(string: text), url.isPinningReportURI else { return nil }
        return url
    }

    /// `text` with the password of its user information replaced by `***`, for messages: a refused
    /// URI is quoted in errors and logs, which must not carry the secret.
    static func redactingPassword(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? "<a URI with a password>"
    }
}

extension URL {
    /// Whether this is a usable report URI: absolute, `http` or `https`, with a host, and without a
    /// user or password: a report goes to a third party's collector, and a credential written into
    /// a configuration file would be sent (and logged) with every report. The uploader refuses such
    /// URIs too (TrustHTTP's `HTTPTarget`, which the uploader reads them with); refusing them here
    /// fails at load time instead of at the first pin failure.
    var isPinningReportURI: Bool {
        guard let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https", let host, !host.isEmpty,
            user == nil, password == nil
        else {
            return false
        }
        return true
    }
}
