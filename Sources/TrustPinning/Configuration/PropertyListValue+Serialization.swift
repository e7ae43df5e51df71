import TrustDocuments
import Foundation

/// Writing a value tree built by the ATS and TrustKit writers.
extension PropertyListValue {
    /// The Foundation object property-list and JSON serialisation take.
    var foundationObject: Any {
        switch self {
        case let .dictionary(values): return values.mapValues(\.foundationObject)
        case let .array(values): return values.map(\.foundationObject)
        case let .string(string): return string
        case let .boolean(bool): return bool
        case let .integer(integer): return integer
        case let .real(real): return real
        case let .date(date): return date
        case let .data(data): return data
        case .null: return NSNull()
        }
    }

    /// An XML property list (Foundation's writer orders dictionary keys, so the output is
    /// deterministic).
    func xmlPropertyListData(format: PinningConfigurationFormat) throws(PinningConfigurationExportError) -> Data {
        do {
            return try PropertyListSerialization.data(fromPropertyList: foundationObject, format: .xml, options: 0)
        } catch {
            throw PinningConfigurationExportError(format: format, domain: nil, reason: "property-list serialisation failed: \(error)")
        }
    }

    /// Pretty-printed JSON with sorted keys (deterministic) and unescaped slashes (readable URLs),
    /// ending with a newline.
    func jsonData(format: PinningConfigurationFormat) throws(PinningConfigurationExportError) -> Data {
        do {
            var data = try JSONSerialization.data(
                withJSONObject: foundationObject, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            data.append(UInt8(ascii: "\n"))
            return data
        } catch {
            throw PinningConfigurationExportError(format: format, domain: nil, reason: "JSON serialisation failed: \(error)")
        }
    }
}
