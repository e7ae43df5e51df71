import Foundation

/// Report URIs (TrustKit's `kTSKReportUris`): absolute `http` or `https` URLs with a host.
enum ReportURI {
    static func parse(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else { return nil }
        return url
    }
}
