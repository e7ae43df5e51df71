import Foundation
import TrustDocuments
import TrustCore

/// The pin-configuration formats, in the order recognition asks them: a codec before any that
/// would also recognise its documents (TrustKit before ATS, whose keys a TrustKit `Info.plist`
/// may also have, and before SwiftTrust JSON, which takes any other JSON object).
package enum PinningConfigurationCodecs {
    /// Every codec, in recognition order; also the order of help texts and
    /// ``PinningConfigurationFormat/allCases``.
    package static let all: [any PinningConfigurationCodec] = [
        TrustKitCodec(),
        ATSCodec(),
        AndroidCodec(),
        SwiftTrustJSONCodec(),
    ]

    /// The codec named `name`.
    package static func codec(named name: String) -> (any PinningConfigurationCodec)? {
        all.first { $0.name == name }
    }

    /// The format of `data`, by its first structure: a binary property list; a JSON object; an
    /// XML document an XML codec recognises, else an XML property list. Nil when none fits.
    ///
    /// - Throws: why a property list cannot be read (a duplicate key, over a limit), rather than
    ///   leaving its format unknown.
    static func recognise(_ data: Data, file: String) throws(PinningConfigurationLoadError) -> PinningConfigurationFormat? {
        let bytes = Array(data.prefix(PinningConfiguration.maximumFileSize))
        if bytes.starts(with: Array("bplist".utf8)) {
            return first(recognising: .propertyList(try PropertyListValue.parsePropertyList(data, file: file)))
        }
        let text = JSONText.sniffingText(of: bytes)
        if JSONText.startsWithObject(bytes) {
            // UTF-16 and UTF-32 JSON too, which its loader then refuses with the reason (RFC 8259 §8.1).
            return first(recognising: .jsonObject(text: text))
        }
        // Wide XML stays unrecognised: only JSON is told apart in UTF-16 or UTF-32.
        guard JSONText.wideEncoding(of: bytes) == nil, text.drop(while: \.isWhitespace).hasPrefix("<") else { return nil }
        if let format = first(recognising: .xml(text: text)) { return format }
        guard text.contains("<plist") else { return nil }
        return first(recognising: .propertyList(try PropertyListValue.parsePropertyList(data, file: file)))
    }

    private static func first(recognising document: PinningConfigurationSniff) -> PinningConfigurationFormat? {
        all.first { $0.recognises(document) }.map(PinningConfigurationFormat.init)
    }

    /// What recognition looks for, for the message when nothing fits.
    static var recognitionHints: String {
        let hints = all.map(\.recognitionHint)
        guard let last = hints.last else { return "" }
        return hints.count == 1 ? last : hints.dropLast().joined(separator: ", ") + ", or " + last
    }
}
