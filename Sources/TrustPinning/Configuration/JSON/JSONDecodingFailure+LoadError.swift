import TrustCore
import TrustDocuments

extension JSONDecodingFailure {
    /// A `JSONDecoder` failure as a load error of `file` naming the key path.
    func loadError(file: String) -> PinningConfigurationLoadError {
        let path = keyPath.description
        switch kind {
        case let .wrongType(expected, found):
            return PinningConfigurationLoadError(file: file, keyPath: path, rule: .wrongType(expected: expected, found: found))
        case let .missingKey(key):
            return PinningConfigurationLoadError(file: file, keyPath: path, rule: .missingKey("key \"\(key)\""))
        case let .invalidValue(words):
            return PinningConfigurationLoadError(file: file, keyPath: path, rule: .invalidValue(words, reason: "not a value this key allows"))
        case let .malformedDocument(words):
            return PinningConfigurationLoadError(file: file, rule: .malformedDocument(words))
        }
    }
}
