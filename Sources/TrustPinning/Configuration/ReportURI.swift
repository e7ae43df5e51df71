import Foundation

/// Report URIs (TrustKit's `kTSKReportUris`, TrustKit-Android's `<report-uri>`, our JSON's
/// `reportURIs`): absolute `http` or `https` URLs with a host. One rule for every format's loader
/// and writer.
enum ReportURI {
    /// The URL `text` names, or nil when it is not a usable report URI.
    static func parse(_ text: String) -> URL? {
        guard let url = URL(string: text), url.isPinningReportURI else { return nil }
        return url
    }
}

extension URL {
    /// Whether this is a usable report URI: absolute, `http` or `https`, with a host.
    var isPinningReportURI: Bool {
        guard let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https", let host, !host.isEmpty else {
            return false
        }
        return true
    }
}
