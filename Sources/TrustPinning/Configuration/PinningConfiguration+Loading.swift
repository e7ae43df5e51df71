import Foundation
import TrustCore
import TrustDocuments

extension PinningConfiguration {
    /// Loads a configuration file in any supported format (``PinningConfigurationFormat``),
    /// recognising the format from the content unless `format` is given. Relative references in
    /// it (JSON anchor files, Android `@raw/` resources) resolve against the file's directory.
    ///
    /// - Throws: ``PinningConfigurationLoadError`` naming the file, the line or key path and the
    ///   rule; nothing is half-loaded.
    public static func load(contentsOf url: URL, format: PinningConfigurationFormat? = nil) throws(PinningConfigurationLoadError) -> PinningConfiguration {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw PinningConfigurationLoadError(file: url.path, rule: .unreadableReference(url.path, reason: error.localizedDescription))
        }
        return try load(data: data, file: url.path, format: format, baseDirectory: url.deletingLastPathComponent())
    }

    /// Loads a configuration from bytes.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - file: The name errors give for the file.
    ///   - format: The format, or nil to recognise it (``detectFormat(of:)``).
    ///   - baseDirectory: Where relative references resolve; nil refuses them.
    /// - Throws: ``PinningConfigurationLoadError``; also for a document larger than
    ///   ``maximumFileSize``, with more than 100,000 keys and values (a binary property list counts
    ///   a shared object each time it is used), nested more than 64 deep, or with a key written
    ///   twice in one dictionary.
    public static func load(data: Data, file: String = "<input>", format: PinningConfigurationFormat? = nil,
                            baseDirectory: URL? = nil) throws(PinningConfigurationLoadError) -> PinningConfiguration {
        try PinningConfigurationLoadError.checkSize(of: data, file: file)
        var recognised = format
        if recognised == nil { recognised = try recogniseFormat(of: data, file: file) }
        guard let format = recognised else {
            throw PinningConfigurationLoadError(file: file, rule: .unrecognisedFormat(
                "expected SwiftTrust JSON (\"version\" and \"domains\"), an ATS or TrustKit property list, TrustKit JSON, or an Android network-security-config XML file"))
        }
        switch format {
        case .json: return try loadJSON(data: data, file: file, baseDirectory: baseDirectory)
        case .ats: return try loadATS(data: data, file: file)
        case .android: return try loadAndroid(data: data, file: file, baseDirectory: baseDirectory)
        case .trustkit: return try loadTrustKit(data: data, file: file)
        }
    }

    /// The largest configuration file read (1 MiB): real ones are a few kilobytes.
    public static let maximumFileSize = DocumentLimits.standard.maximumByteCount

    /// The format `data` is in, judged by its first structure: a binary or XML property list
    /// (ATS when it has `NSAppTransportSecurity` or `NSPinnedDomains`, TrustKit when it has
    /// `TSKConfiguration` or `TSKPinnedDomains`), Android XML (`<network-security-config>`),
    /// JSON with `TSKPinnedDomains` (TrustKit) or otherwise our own JSON. Nil when none fits.
    public static func detectFormat(of data: Data) -> PinningConfigurationFormat? {
        try? recogniseFormat(of: data, file: "")
    }

    /// ``detectFormat(of:)``, except that a property list that cannot be read throws why (a
    /// duplicate key, over a limit) rather than leaving its format unknown.
    private static func recogniseFormat(of data: Data, file: String) throws(PinningConfigurationLoadError) -> PinningConfigurationFormat? {
        switch syntax(of: data) {
        case .json(let isTrustKit)?: return isTrustKit ? .trustkit : .json
        case .android?: return .android
        case .propertyList?: return propertyListFormat(of: try PropertyListValue.parsePropertyList(data, file: file))
        case nil: return nil
        }
    }

    /// What a document's first structure says it is.
    private enum Syntax {
        case json(isTrustKit: Bool)
        case android
        case propertyList
    }

    private static func syntax(of data: Data) -> Syntax? {
        let bytes = Array(data.prefix(maximumFileSize))
        if bytes.starts(with: Array("bplist".utf8)) { return .propertyList }
        let text = JSONText.sniffingText(of: bytes)
        if JSONText.startsWithObject(bytes) {
            // UTF-16 and UTF-32 JSON too, which its loader then refuses with the reason (RFC 8259 §8.1).
            return .json(isTrustKit: text.contains("\"TSKPinnedDomains\"") || text.contains("\"TSKConfiguration\""))
        }
        // Wide XML stays unrecognised, as before: only JSON is told apart in UTF-16 or UTF-32.
        guard JSONText.wideEncoding(of: bytes) == nil else { return nil }
        let trimmed = text.drop { $0.isWhitespace }
        guard trimmed.hasPrefix("<") else { return nil }
        if text.contains("<network-security-config") { return .android }
        if text.contains("<plist") { return .propertyList }
        return nil
    }

    /// ATS or TrustKit, by the keys of a property list's top-level dictionary (read with the
    /// loaders' own bounded readers: Foundation's binary reader expands shared objects without a bound).
    private static func propertyListFormat(of value: PropertyListValue) -> PinningConfigurationFormat? {
        guard case let .dictionary(dictionary) = value else { return nil }
        if dictionary["TSKConfiguration"] != nil || dictionary["TSKPinnedDomains"] != nil { return .trustkit }
        if dictionary["NSAppTransportSecurity"] != nil || dictionary["NSPinnedDomains"] != nil { return .ats }
        return nil
    }

    /// This configuration written in `format`.
    ///
    /// - Throws: ``PinningConfigurationExportError`` when the format cannot express part of it
    ///   (for example subdomains at any depth in ATS, or a leaf-only pin in Android, or a domain
    ///   whose pins ATS merges with its parent's where the other format would not): refused,
    ///   never silently weakened.
    public func encoded(as format: PinningConfigurationFormat) throws(PinningConfigurationExportError) -> Data {
        try checkPolicySelection(expressibleIn: format)
        switch format {
        case .json: return jsonData()
        case .ats: return try atsPropertyList()
        case .android: return try androidNetworkSecurityConfig()
        case .trustkit: return try trustKitPropertyList()
        }
    }

    /// Refuses a file whose loader would select policies differently for some host: ATS merges a
    /// domain's pins with its parent's `NSIncludesSubdomains` entry, the other formats apply the
    /// most specific domain alone.
    func checkPolicySelection(expressibleIn format: PinningConfigurationFormat) throws(PinningConfigurationExportError) {
        let formatSelection: PolicySelection = format == .ats ? .mergingExactAndParentEntries : .mostSpecificDomain
        guard formatSelection != policySelection, let (domain, parent) = firstDomainMergedWithParent() else { return }
        let reason: String
        if format == .ats {
            reason = "ATS would merge its pins with those of \(parent)'s \(ATSKey.includesSubdomains) entry (Apple parseNSPinnedDomains), and this configuration applies the most specific domain alone; list \(parent)'s pins under \(domain) too, or drop its subdomain coverage"
        } else {
            reason = "its pins are merged with those of \(parent)'s \(ATSKey.includesSubdomains) entry (ATS, Apple parseNSPinnedDomains), and \(format.displayName) applies the most specific domain alone; list \(parent)'s pins under \(domain) too"
        }
        throw PinningConfigurationExportError(format: format, domain: domain, reason: reason)
    }
}
