import Foundation

extension PinningConfigurationFormat {
    /// SwiftTrust's own versioned JSON format (docs/pinning-configuration.md).
    public static let json = PinningConfigurationFormat(SwiftTrustJSONCodec())
}

/// SwiftTrust's versioned JSON format: the whole model, nothing refused on writing.
struct SwiftTrustJSONCodec: PinningConfigurationCodec {
    let name = "json"
    let displayName = "SwiftTrust JSON"
    let fileExtensions = ["json"]
    let recognitionHint = "SwiftTrust JSON (\"version\" and \"domains\")"
    let notes = "expresses the whole model"

    /// Any JSON object: it comes after the codecs that recognise theirs by content.
    func recognises(_ document: PinningConfigurationSniff) -> Bool {
        guard case .jsonObject = document else { return false }
        return true
    }

    func load(data: Data, file: String, baseDirectory: URL?) throws(PinningConfigurationLoadError) -> PinningConfiguration {
        try PinningConfiguration.loadJSON(data: data, file: file, baseDirectory: baseDirectory)
    }

    func encode(_ configuration: PinningConfiguration) throws(PinningConfigurationExportError) -> Data {
        configuration.jsonData()
    }
}
