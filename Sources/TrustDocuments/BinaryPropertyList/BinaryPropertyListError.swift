import TrustDER

/// A binary property list ``BinaryPropertyListReader`` refuses, with the key path of the value
/// being read when it went wrong.
package struct BinaryPropertyListError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    package enum Problem: Hashable, Sendable {
        /// Not a `bplist00` file at all (too short to hold a header and a trailer, or another version).
        case notBinaryPropertyList(String)
        /// The trailer, the offset table or an object does not fit the bytes or the format.
        case malformed(String)
        /// An object of a type pinning configurations never use (UID, set, null, URL, UUID).
        case unsupportedObject(String)
        /// A container that contains itself, directly or through others.
        case referenceCycle(object: Int)
        /// A dictionary with two equal keys.
        case duplicateKey(String)
        /// Over one of the ``DocumentLimits``.
        case overLimit(DocumentLimitExceeded)
    }

    /// Where: dot-separated keys and `[index]` subscripts from the top object, as
    /// ``PropertyListReader`` writes them; empty at the top. For a duplicate key, its own path.
    package let keyPath: String
    /// What is wrong.
    package let problem: Problem

    /// What is wrong, without the key path.
    package var description: String {
        switch problem {
        case let .notBinaryPropertyList(reason): return reason
        case let .malformed(reason): return reason
        case let .unsupportedObject(reason): return reason
        case let .referenceCycle(object):
            return "object \(object) contains itself (a reference cycle)"
        case let .duplicateKey(key):
            return "the key \"\(QuotedValue.capped(key))\" appears twice in the same dictionary"
        case let .overLimit(.tooManyNodes(limit)):
            return "more than \(limit) keys and values once shared objects are expanded (an object counts each time it is used)"
        case let .overLimit(.tooMuchContent(limit)):
            return "more than \(limit) bytes of strings and data once shared objects are expanded (an object counts each time it is used)"
        case let .overLimit(exceeded):
            return exceeded.description
        }
    }
}
