/// A strict-DER decoding failure: the rule that was broken and the byte offset where it was found.
///
/// Offsets are absolute positions in the buffer handed to the reader, so a caller
/// can point at the exact byte of a file.
public struct DERError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The DER / X.690 rule that was broken.
    public enum Rule: Hashable, Sendable {
        /// The input ended before the element did.
        case truncated
        /// The indefinite length form (0x80) is forbidden in DER (X.690 §10.1).
        case indefiniteLength
        /// A length was not encoded in the fewest possible octets (X.690 §10.1).
        case nonMinimalLength
        /// A length is larger than this reader supports.
        case lengthTooLarge
        /// Bytes follow the outermost element.
        case trailingBytes
        /// A high tag number was not encoded minimally (X.690 §8.1.2.4).
        case nonMinimalTag
        /// A tag number is larger than this reader supports.
        case tagTooLarge
        /// A primitive type was encoded constructed, or the reverse.
        case constructedMismatch
        /// The element's tag is not what the structure requires.
        case unexpectedTag(expected: String, found: String)
        /// A BOOLEAN was not a single 0x00 or 0xFF octet (X.690 §11.1).
        case invalidBoolean
        /// An INTEGER was empty or had redundant leading octets (X.690 §8.3.2).
        case nonMinimalInteger
        /// An INTEGER does not fit the expected range.
        case integerOutOfRange
        /// A BIT STRING was empty, had more than 7 unused bits, or non-zero padding (X.690 §11.2).
        case invalidBitString
        /// A NULL had content (X.690 §8.8.2).
        case invalidNull
        /// An OBJECT IDENTIFIER was empty, truncated, non-minimal or had an arc past UInt64.
        case invalidObjectIdentifier
        /// A UTCTime or GeneralizedTime was not in its exact DER form (X.690 §11.7, §11.8).
        case invalidTime
        /// A string's bytes violate its ASN.1 character set.
        case invalidString(type: String)
        /// Elements nest deeper than ``DERReader/maximumDepth``.
        case nestingTooDeep
        /// A SET OF was not in ascending order, or a SET had duplicates (X.690 §11.6).
        case unsortedSet
        /// A structure had content this reader did not expect.
        case unexpectedContent(String)
    }

    /// The rule that was broken.
    public let rule: Rule
    /// The absolute byte offset at which the problem was detected.
    public let offset: Int

    /// Creates an error for `rule` found at `offset`.
    public init(_ rule: Rule, at offset: Int) {
        self.rule = rule
        self.offset = offset
    }

    /// A one-line, human-readable explanation ending with the byte offset.
    public var description: String { "\(ruleDescription) at byte \(offset)" }

    /// The rule alone, without the offset.
    public var ruleDescription: String {
        switch rule {
        case .truncated: return "truncated element (length runs past the end of the input)"
        case .indefiniteLength: return "indefinite length is not allowed in DER"
        case .nonMinimalLength: return "length is not minimally encoded"
        case .lengthTooLarge: return "length is too large"
        case .trailingBytes: return "trailing bytes after the outermost element"
        case .nonMinimalTag: return "high tag number is not minimally encoded"
        case .tagTooLarge: return "tag number is too large"
        case .constructedMismatch: return "primitive/constructed form does not match the type"
        case let .unexpectedTag(expected, found): return "expected \(expected), found \(found)"
        case .invalidBoolean: return "BOOLEAN must be a single 0x00 or 0xFF octet"
        case .nonMinimalInteger: return "INTEGER is empty or not minimally encoded"
        case .integerOutOfRange: return "INTEGER is out of range"
        case .invalidBitString: return "BIT STRING has invalid unused bits or non-zero padding"
        case .invalidNull: return "NULL must have no content"
        case .invalidObjectIdentifier: return "OBJECT IDENTIFIER is malformed (empty, non-minimal arc, or arc overflow)"
        case .invalidTime: return "time is not in its exact DER form"
        case let .invalidString(type): return "\(type) contains characters outside its character set"
        case .nestingTooDeep: return "elements are nested too deeply"
        case .unsortedSet: return "SET OF elements are not in DER order"
        case let .unexpectedContent(what): return what
        }
    }
}
