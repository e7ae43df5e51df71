import TrustDocuments
import Foundation

extension PinningConfiguration {
    /// Reads Android's `network_security_config.xml`, with TrustKit-Android's `<trustkit-config>`
    /// (semantics: docs/pinning-configuration.md). Each `<domain>` becomes one policy with its
    /// domain-config's settings after inheritance; `includeSubdomains="true"` covers subdomains at
    /// any depth; a `<pin-set>` is one requirement over the whole chain.
    ///
    /// - Parameters:
    ///   - data: The file's bytes (UTF-8 XML, at most 1 MiB, elements nested at most 64 deep).
    ///   - file: The file's name, for errors.
    ///   - baseDirectory: The `res/xml` directory the file is in, or nil. `@raw/name` certificate
    ///     sources resolve to `baseDirectory/../raw/name.*` (any extension, PEM or DER); without a
    ///     base directory a `@raw` reference is an error.
    /// - Throws: ``PinningConfigurationLoadError`` naming the line, the key path
    ///   (`network-security-config/domain-config[1]/pin-set/pin[0]@digest`) and the rule.
    static func loadAndroid(data: Data, file: String, baseDirectory: URL?) throws(PinningConfigurationLoadError) -> PinningConfiguration {
        let root: XMLTreeElement
        do { root = try XMLDocumentParser.parse(Array(data)) } catch {
            throw PinningConfigurationLoadError(file: file, line: error.line, rule: .malformedDocument(error.reason))
        }
        return try AndroidNetworkSecurityConfigReader.read(root, file: file, baseDirectory: baseDirectory)
    }
}
