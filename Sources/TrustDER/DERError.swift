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
        /// Bytes follow the last field inside the constructed element at `elementOffset`.
        case trailingBytesInElement(elementOffset: Int)
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
    /// For ``Rule/truncated``: what the element needed and where the bytes ran out, when known.
    public let truncation: Truncation?

    /// How a truncated element ran past the end of the bytes it was read from.
    public struct Truncation: Hashable, Sendable {
        /// How many bytes, counted from the error's offset, the element needs.
        public let neededLength: Int
        /// Whether ``neededLength`` is only a lower bound (the length octets themselves were cut off).
        public let isLowerBound: Bool
        /// The absolute offset at which the bytes ended.
        public let availableEnd: Int
        /// Whether those bytes were an enclosing element's content rather than the whole input.
        public let endIsEnclosingElement: Bool

        /// Describes a truncation of `neededLength` bytes against bytes ending at `availableEnd`.
        public init(neededLength: Int, isLowerBound: Bool = false, availableEnd: Int, endIsEnclosingElement: Bool) {
            self.neededLength = neededLength
            self.isLowerBound = isLowerBound
            self.availableEnd = availableEnd
            self.endIsEnclosingElement = endIsEnclosingElement
        }
    }

    /// Creates an error for `rule` found at `offset`.
    public init(_ rule: Rule, at offset: Int) {
        self.rule = rule
        self.offset = offset
        self.truncation = nil
    }

    /// Creates a ``Rule/truncated`` error that says how much the element needed and where the bytes ended.
    public init(truncatedAt offset: Int, _ truncation: Truncation) {
        self.rule = .truncated
        self.offset = offset
        self.truncation = truncation
    }

    /// A one-line, human-readable explanation ending with the byte offset (and, for a truncated
    /// element, how many bytes it needed and where the bytes ended, so a cut-off file is recognisable).
    public var description: String {
        guard let truncation else { return "\(ruleDescription) at byte \(offset)" }
        let end = truncation.endIsEnclosingElement ? "enclosing element ends" : "input ends"
        let needed = "\(truncation.isLowerBound ? "at least " : "")\(truncation.neededLength) byte\(truncation.neededLength == 1 ? "" : "s")"
        return "\(ruleDescription): element at byte \(offset) needs \(needed), \(end) at byte \(truncation.availableEnd)"
    }

    /// The rule alone, without the offset.
    public var ruleDescription: String {
        switch rule {
        case .truncated: return "truncated element (length runs past the end of the input)"
        case .indefiniteLength: return "indefinite length is not allowed in DER"
        case .nonMinimalLength: return "length is not minimally encoded"
        case .lengthTooLarge: return "length is too large"
        case .trailingBytes: return "trailing bytes after the outermost element"
        case let .trailingBytesInElement(elementOffset): return "unexpected bytes after the last field of the element at byte \(elementOffset)"
        case .nonMinimalTag: return "high tag number is not minimally encoded"
        case .tagTooLarge: return "tag number is too large"
        case .constructedMismatch: return "primitive/constructed form does not match the type"
        case let .unexpectedTag(expected, found): return "expected \(QuotedValue.capped(expected)), found \(QuotedValue.capped(found))"
        case .invalidBoolean: return "BOOLEAN must be a single 0x00 or 0xFF octet"
        case .nonMinimalInteger: return "INTEGER is empty or not minimally encoded"
        case .integerOutOfRange: return "INTEGER is out of range"
        case .invalidBitString: return "BIT STRING has invalid unused bits or non-zero padding"
        case .invalidNull: return "NULL must have no content"
        case .invalidObjectIdentifier: return "OBJECT IDENTIFIER is malformed (empty, non-minimal arc, or arc overflow)"
        case .invalidTime: return "time is not in its exact DER form"
        case let .invalidString(type): return "\(QuotedValue.capped(type)) contains characters outside its character set"
        case .nestingTooDeep: return "elements are nested too deeply"
        case .unsortedSet: return "SET OF elements are not in DER order"
        case let .unexpectedContent(what): return QuotedValue.capped(what)
        }
    }
}
