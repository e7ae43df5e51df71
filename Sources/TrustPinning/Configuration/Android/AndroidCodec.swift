import Foundation

extension PinningConfigurationFormat {
    /// Android's `network_security_config.xml`, with TrustKit-Android's `<trustkit-config>`.
    public static let android = PinningConfigurationFormat(AndroidCodec())
}

/// Android's network security configuration (`XmlConfigSource`), with TrustKit-Android's additions.
struct AndroidCodec: PinningConfigurationCodec {
    let name = "android"
    let displayName = "Android network security config"
    let fileExtensions = ["xml"]
    let recognitionHint = "an Android network-security-config XML file"
    let notes =
        "one pin-set over the whole chain per domain; cannot express one-level subdomains, leaf- or CA-only pins, several requirements or anchor certificates (no res/raw files are written)"

    /// An XML document with a `<network-security-config>` element.
    func recognises(_ document: PinningConfigurationSniff) -> Bool {
        guard case let .xml(text) = document else { return false }
        return text.contains("<network-security-config")
    }

    func load(data: Data, file: String, baseDirectory: URL?) throws(PinningConfigurationLoadError) -> PinningConfiguration {
        try PinningConfiguration.loadAndroid(data: data, file: file, baseDirectory: baseDirectory)
    }

    func encode(_ configuration: PinningConfiguration) throws(PinningConfigurationExportError) -> Data {
        try configuration.androidNetworkSecurityConfig()
    }
}
