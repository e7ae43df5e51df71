import Foundation
import TrustCore
import TrustDocuments

// The configuration readers' use of TrustDocuments' readers (`JSONText`, `JSONDuplicateKeyScanner`,
// `DocumentLimits.standard`, the caps every configuration format shares): their findings as
// `PinningConfigurationLoadError`s.

extension JSONText {
    /// The UTF-8 text of `data`, without its byte order mark, for the decoder and the scan alike.
    ///
    /// - Throws: ``PinningConfigurationRule/notUTF8(_:)`` naming `file` and what the bytes are.
    static func utf8Body(of data: Data, file: String) throws(PinningConfigurationLoadError) -> Data {
        let (body, problem) = utf8Body(of: data)
        guard let body else { throw PinningConfigurationLoadError(file: file, rule: .notUTF8(problem ?? .invalidUTF8(byteOffset: 0))) }
        return body
    }
}

extension JSONDuplicateKeyScanner {
    /// Refuses a duplicate key or a document over `limits`, naming the key path and line.
    static func check(_ data: Data, file: String, limits: DocumentLimits = .standard) throws(PinningConfigurationLoadError) {
        switch firstFinding(in: data, limits: limits) {
        case let .duplicate(keyPath, key, line)?:
            throw .duplicateKey(key, keyPath: keyPath, line: line, file: file)
        case let .overLimit(exceeded, keyPath, line)?:
            throw .overLimit(exceeded, keyPath: keyPath, line: line, file: file)
        case nil:
            break
        }
    }
}
