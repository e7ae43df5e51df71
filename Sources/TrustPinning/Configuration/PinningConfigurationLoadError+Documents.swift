import Foundation
import TrustCore
import TrustDocuments

/// The load errors the document readers share, so that every format reports a duplicate key, a
/// document over its ``DocumentLimits`` and an unreadable binary property list alike.
extension PinningConfigurationLoadError {
    /// A key written twice in one dictionary: a parser keeps only one of the two, so the other
    /// entry (a domain's pins, say) would be dropped without a word.
    ///
    /// - Parameter keyPath: The duplicate key's own path (`domains[0].enforcement`).
    static func duplicateKey(_ key: String, keyPath: String, line: Int?, file: String) -> PinningConfigurationLoadError {
        PinningConfigurationLoadError(
            file: file, line: line, keyPath: keyPath,
            rule: .invalidValue(key, reason: "the key appears twice in the same dictionary, and only one of the two entries would be used"))
    }

    /// A document over one of the ``DocumentLimits``, at the value where the reader stopped.
    static func overLimit(_ exceeded: DocumentLimitExceeded, keyPath: String, line: Int?, file: String) -> PinningConfigurationLoadError {
        PinningConfigurationLoadError(
            file: file, line: line, keyPath: keyPath.isEmpty ? nil : keyPath,
            rule: .malformedDocument(exceeded.description))
    }

    /// Refuses `data` when it is larger than `limits` allow, before any parser reads it.
    static func checkSize(of data: Data, file: String, limits: DocumentLimits = .standard) throws(PinningConfigurationLoadError) {
        guard data.count <= limits.maximumByteCount else {
            throw PinningConfigurationLoadError(
                file: file, rule: .malformedDocument("\(data.count) bytes; configurations are limited to \(limits.maximumByteCount) bytes"))
        }
    }

    /// The load error of a binary property list ``BinaryPropertyListReader`` refused: a file that
    /// is not one at all is of an unrecognised format, anything else malformed (or a duplicate key).
    init(_ error: BinaryPropertyListError, file: String) {
        switch error.problem {
        case let .notBinaryPropertyList(reason):
            self.init(file: file, rule: .unrecognisedFormat("not an XML or binary property list: \(reason)"))
        case let .duplicateKey(key):
            self = .duplicateKey(key, keyPath: error.keyPath, line: nil, file: file)
        default:
            self.init(
                file: file, keyPath: error.keyPath.isEmpty ? nil : error.keyPath,
                rule: .malformedDocument("binary property list: \(error.description)"))
        }
    }
}
