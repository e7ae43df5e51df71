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
    public static func load(contentsOf url: URL, format: PinningConfigurationFormat? = nil) throws(PinningConfigurationLoadError)
        -> PinningConfiguration
    {
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
    public static func load(
        data: Data, file: String = "<input>", format: PinningConfigurationFormat? = nil,
        baseDirectory: URL? = nil
    ) throws(PinningConfigurationLoadError) -> PinningConfiguration {
        try PinningConfigurationLoadError.checkSize(of: data, file: file)
        var recognised = format
        if recognised == nil { recognised = try PinningConfigurationCodecs.recognise(data, file: file) }
        guard let format = recognised else {
            throw PinningConfigurationLoadError(file: file, rule: .unrecognisedFormat("expected \(PinningConfigurationCodecs.recognitionHints)"))
        }
        return try format.codec.load(data: data, file: file, baseDirectory: baseDirectory)
    }

    /// The largest configuration file read (1 MiB): real ones are a few kilobytes.
    public static let maximumFileSize = DocumentLimits.standard.maximumByteCount

    /// The format `data` is in, judged by its first structure, asking the codecs in the order of
    /// ``PinningConfigurationFormat/allCases``: a binary or XML property list (TrustKit when it has
    /// `TSKConfiguration` or `TSKPinnedDomains`, else ATS when it has `NSAppTransportSecurity` or
    /// `NSPinnedDomains`), Android XML (`<network-security-config>`), JSON with `TSKPinnedDomains`
    /// (TrustKit) or otherwise our own JSON. Nil when none fits.
    public static func detectFormat(of data: Data) -> PinningConfigurationFormat? {
        try? PinningConfigurationCodecs.recognise(data, file: "")
    }

    /// This configuration written in `format`.
    ///
    /// - Throws: ``PinningConfigurationExportError`` when the format cannot express part of it
    ///   (for example subdomains at any depth in ATS, or a leaf-only pin in Android, or a domain
    ///   whose pins ATS merges with its parent's where the other format would not): refused,
    ///   never silently weakened.
    public func encoded(as format: PinningConfigurationFormat) throws(PinningConfigurationExportError) -> Data {
        try checkPolicySelection(expressibleIn: format)
        return try format.codec.encode(self)
    }

    /// Refuses a file whose loader would select policies differently for some host: ATS merges a
    /// domain's pins with its parent's `NSIncludesSubdomains` entry, the other formats apply the
    /// most specific domain alone.
    func checkPolicySelection(expressibleIn format: PinningConfigurationFormat) throws(PinningConfigurationExportError) {
        guard format.codec.policySelection != policySelection, let (domain, parent) = firstDomainMergedWithParent() else { return }
        throw PinningConfigurationExportError(
            format: format, domain: domain, reason: format.codec.policySelectionRefusal(domain: domain, parent: parent))
    }
}
