import Foundation

/// TrustKit-Android's `<trustkit-config enforcePinning="…" disableDefaultReportUri="…">` with
/// `<report-uri>` children, inside a `<domain-config>`.
struct AndroidTrustKitSettings {
    /// `enforcePinning`, or nil when absent (then inherited from the enclosing domain-config).
    let enforcesPinning: Bool?
    /// The `<report-uri>` URLs, in document order, without duplicates. A `<trustkit-config>`
    /// always sets the list, even to empty (TrustKit-Android inherits it only when the element is absent).
    let reportURIs: [URL]
    /// The element, for errors.
    let context: AndroidElementContext

    /// Reads `<trustkit-config>`. `disableDefaultReportUri` is checked and otherwise ignored:
    /// SwiftTrust never sends reports to TrustKit's default Data Theorem server, only to the URIs listed.
    init(_ context: AndroidElementContext) throws(PinningConfigurationLoadError) {
        try context.checkAttributes(["enforcePinning", "disableDefaultReportUri"])
        enforcesPinning = try context.booleanAttribute("enforcePinning")
        _ = try context.booleanAttribute("disableDefaultReportUri")
        var reportURIs: [URL] = []
        for child in try context.children(allowed: ["report-uri"]) {
            try child.checkAttributes([])
            let text = try child.textValue()
            guard let url = ReportURI.parse(text) else { throw child.error(.invalidReportURI(text)) }
            reportURIs.append(url)
        }
        self.reportURIs = reportURIs
        self.context = context
    }
}
