import Foundation
import TrustDocuments

extension PinningConfigurationFormat {
    /// A TrustKit configuration: a property list (an `Info.plist` with `TSKConfiguration`, or the
    /// configuration dictionary itself) or the same dictionary as JSON.
    public static let trustkit = PinningConfigurationFormat(TrustKitCodec())
}

/// TrustKit's `TSKConfiguration` (`parseTrustKitConfiguration`), read from a property list or JSON,
/// written as an `Info.plist` fragment.
struct TrustKitCodec: PinningConfigurationCodec {
    let name = "trustkit"
    let displayName = "TrustKit"
    let fileExtensions = ["plist", "json"]
    let recognitionHint = "a TrustKit property list or JSON (\(TrustKitKey.configuration) or \(TrustKitKey.pinnedDomains))"
    let notes =
        "one pin set over the whole chain per domain, two pins at least (one a backup key) when enforced; cannot express leaf- or CA-only pins, one-level subdomains or anchors"

    /// A property list whose top-level dictionary has `TSKConfiguration` or `TSKPinnedDomains`, or
    /// a JSON object that mentions either key.
    func recognises(_ document: PinningConfigurationSniff) -> Bool {
        switch document {
        case let .jsonObject(text):
            return text.contains("\"\(TrustKitKey.pinnedDomains)\"") || text.contains("\"\(TrustKitKey.configuration)\"")
        case let .propertyList(.dictionary(dictionary)):
            return dictionary[TrustKitKey.configuration] != nil || dictionary[TrustKitKey.pinnedDomains] != nil
        case .propertyList, .xml:
            return false
        }
    }

    func load(data: Data, file: String, baseDirectory: URL?) throws(PinningConfigurationLoadError) -> PinningConfiguration {
        try PinningConfiguration.loadTrustKit(data: data, file: file)
    }

    func encode(_ configuration: PinningConfiguration) throws(PinningConfigurationExportError) -> Data {
        try configuration.trustKitPropertyList()
    }
}
