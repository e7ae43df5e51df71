import TrustCrypto
import TrustDER

/// One attribute of a relative distinguished name, e.g. `CN=www.example.com`.
public struct NameAttribute: Hashable, Sendable {
    /// The attribute type.
    public let type: ASN1ObjectIdentifier
    /// The value's ASN.1 tag (PrintableString, UTF8String …).
    public let valueTag: DERTag
    /// The value's encoded bytes (whole TLV).
    public let valueDER: ArraySlice<UInt8>
    /// The decoded text when the value is a string type; nil otherwise.
    public let stringValue: String?
}

/// An X.501 Name (RDN sequence), as found in certificate issuer and subject fields.
///
/// Equality follows RFC 5280 §7.1: identical encodings are equal at once; otherwise RDNs are
/// compared attribute by attribute, string values case-insensitively with white space folded.
/// Parsing validates everything; the normalised form is computed once, on first need, and kept.
public struct DistinguishedName: Hashable, Sendable, CustomStringConvertible {
    /// The RFC 5280 §7.1 comparison key of a name and where each RDN's part of it ends: built on
    /// first use, because most names are only ever compared byte for byte (the fast path of `==`).
    final class ComparisonKey: Sendable {
        let bytes: [UInt8]
        let rdnEnds: [Int]
        init(bytes: [UInt8], rdnEnds: [Int]) {
            self.bytes = bytes
            self.rdnEnds = rdnEnds
        }
    }

    /// A name's decoded attributes as an object (for ComputedOnce).
    final class Attributes: Sendable {
        let rdns: [[NameAttribute]]
        init(_ rdns: [[NameAttribute]]) { self.rdns = rdns }
    }

    /// The validated encoding, shared by copies (a copy costs one reference count).
    final class NameData: Sendable {
        let der: ArraySlice<UInt8>
        let rdnCount: Int
        /// A digest of the comparison key (nil when a value needs Unicode folding), from the parse.
        let fingerprint: UInt64?
        /// Built separately: chain building needs only the key, display only the attributes.
        private let key = ComputedOnce<ComparisonKey>()
        private let attributes = ComputedOnce<Attributes>()

        init(der: ArraySlice<UInt8>, rdnCount: Int, fingerprint: UInt64?) {
            self.der = der
            self.rdnCount = rdnCount
            self.fingerprint = fingerprint
        }

        var comparisonKey: ComparisonKey { key.value { NameData.comparisonKey(der, rdnCount: rdnCount) } }
        var rdns: [[NameAttribute]] { attributes.value { Attributes(NameData.rdns(der)) }.rdns }

        /// The RDNs of a name that ``DistinguishedName/init(parsing:in:)`` already validated, so no
        /// step can fail; were one to, the name would decode as empty rather than trap.
        static func rdns(_ der: ArraySlice<UInt8>) -> [[NameAttribute]] {
            var rdns: [[NameAttribute]] = []
            guard let element = try? DERReader.parseSingle(der), var reader = try? element.children() else { return [] }
            while let rdnElement = try? reader.next(), var rdnReader = try? rdnElement.children() {
                var attributes: [NameAttribute] = []
                while let attributeElement = try? rdnReader.next() {
                    guard var fields = try? attributeElement.children(),
                        let type = try? fields.read(.objectIdentifier).objectIdentifier(),
                        let value = try? fields.readAny()
                    else { continue }
                    let text: String? = value.isString ? try? value.string() : nil
                    attributes.append(NameAttribute(type: type, valueTag: value.tag, valueDER: value.encoded, stringValue: text))
                }
                rdns.append(attributes)
            }
            return rdns
        }

        /// The comparison key of a validated name, written straight into one buffer (ASCII values
        /// are folded from their bytes, without building Strings). An RDN's attributes are unordered
        /// for comparison: an RDN of several has its parts sorted.
        static func comparisonKey(_ der: ArraySlice<UInt8>, rdnCount: Int) -> ComparisonKey {
            var key: [UInt8] = []
            key.reserveCapacity(der.count + 16)
            var ends: [Int] = []
            ends.reserveCapacity(rdnCount)
            var boundaries: [Int] = [] // allocated only for an RDN of several attributes
            guard let element = try? DERIndexReader.parseSingle(der), var reader = try? element.children() else {
                return ComparisonKey(bytes: [], rdnEnds: [])
            }
            while let rdnElement = try? reader.next(in: der), var rdnReader = try? rdnElement.children() {
                key.append(0x31)
                let rdnStart = key.count
                boundaries.removeAll(keepingCapacity: true)
                var attributeStart: Int?
                while let attributeElement = try? rdnReader.next(in: der) {
                    guard var fields = try? attributeElement.children(),
                        let type = try? fields.read(.objectIdentifier, in: der),
                        let value = try? fields.readAny(in: der)
                    else { continue }
                    if let first = attributeStart {
                        if boundaries.isEmpty { boundaries.append(first) }
                        boundaries.append(key.count)
                    } else {
                        attributeStart = key.count
                    }
                    DistinguishedName.appendNormalizedPart(type: der[type.contentRange], value: value, in: der, to: &key)
                }
                if boundaries.count > 1 {
                    boundaries.append(key.count)
                    var parts = (0..<(boundaries.count - 1)).map { Array(key[boundaries[$0]..<boundaries[$0 + 1]]) }
                    parts.sort { $0.lexicographicallyPrecedes($1) }
                    key.removeSubrange(rdnStart...)
                    for part in parts { key.append(contentsOf: part) }
                }
                ends.append(key.count)
            }
            return ComparisonKey(bytes: key, rdnEnds: ends)
        }
    }

    private let data: NameData

    /// The encoded Name (whole TLV).
    public var der: ArraySlice<UInt8> { data.der }
    /// The relative distinguished names, in encoded (most significant first) order.
    public var rdns: [[NameAttribute]] { data.rdns }
    /// The RFC 5280 §7.1 comparison key: attribute types and normalised values.
    public var normalizedKey: [UInt8] { data.comparisonKey.bytes }
    /// The digest of `normalizedKey` taken at parse time, or nil (see ``Fingerprint``).
    var keyFingerprint: UInt64? { data.fingerprint }
    /// Where each RDN's part of `normalizedKey` ends, for prefix (subtree) tests.
    private var rdnKeyEnds: [Int] { data.comparisonKey.rdnEnds }

    /// Parses a Name from its DER element.
    public init(element: DERElement) throws(X509Error) {
        self = try mapX509Errors { try DistinguishedName(parsing: element.indexed, in: element.encoded) }
    }

    /// Validates every rule (structure, DER SET order, OIDs, string character sets) of the Name
    /// `element` of `bytes` (the bytes it was read from) without decoding: decoding happens on
    /// first use of ``rdns``, ``normalizedKey`` or ``description``.
    init(parsing element: DERIndexedElement, in bytes: ArraySlice<UInt8>) throws {
        try element.expect(.sequence)
        // Walked by offsets (nothing retained per element): a name is validated once per parse and
        // decoded only when used.
        var reader = try element.children()
        var count = 0
        var fingerprint = Fingerprint()
        while let rdnElement = try reader.next(in: bytes) {
            try rdnElement.expect(.set)
            var rdnReader = try rdnElement.children()
            var previous: Range<Int>?
            var attributes = 0
            while let attributeElement = try rdnReader.next(in: bytes) {
                // X.690 §11.6: SET OF components in ascending order of their encodings.
                if let previous, bytes[attributeElement.encodedRange].lexicographicallyPrecedes(bytes[previous]) {
                    throw DERError(.unsortedSet, at: attributeElement.offset)
                }
                previous = attributeElement.encodedRange
                try attributeElement.expect(.sequence)
                var fields = try attributeElement.children()
                let type = try fields.read(.objectIdentifier, in: bytes)
                try ASN1ObjectIdentifier.validate(bytes, range: type.contentRange, at: type.offset)
                let value = try fields.readAny(in: bytes)
                try fields.finish()
                if value.tag.isString { try value.element(in: bytes).validateString() }
                fingerprint.addAttribute(type: bytes[type.contentRange], value: value, in: bytes)
                attributes += 1
            }
            guard attributes > 0 else {
                throw X509Error.structure("empty RelativeDistinguishedName", at: rdnElement.offset)
            }
            fingerprint.endRDN()
            count += 1
        }
        data = NameData(der: bytes[element.encodedRange], rdnCount: count, fingerprint: fingerprint.value)
    }

    /// Parses a Name from its encoding.
    public init(der bytes: [UInt8]) throws(X509Error) {
        self = try mapX509Errors {
            let slice = bytes[...]
            return try DistinguishedName(parsing: DERIndexReader.parseSingle(slice), in: slice)
        }
    }

    /// Whether the name has no RDNs (an empty subject is allowed only with a SAN, RFC 5280 §4.1.2.6).
    public var isEmpty: Bool { data.rdnCount == 0 }

    /// Every value of attribute `type`, in order (e.g. all common names).
    public func values(of type: ASN1ObjectIdentifier) -> [String] {
        rdns.flatMap { $0 }.filter { $0.type == type }.compactMap(\.stringValue)
    }

    /// The common names (CN).
    public var commonNames: [String] { values(of: OID.commonName) }

    /// Whether `prefix`'s RDNs are, compared per RFC 5280 §7.1, the first RDNs of this name:
    /// the directoryName subtree test of RFC 5280 §4.2.1.10.
    public func hasPrefix(_ prefix: DistinguishedName) -> Bool {
        guard prefix.data.rdnCount <= data.rdnCount else { return false }
        guard let end = prefix.data.rdnCount == 0 ? 0 : rdnKeyEnds[safe: prefix.data.rdnCount - 1] else { return false }
        return normalizedKey[..<end].elementsEqual(prefix.normalizedKey)
    }

    /// RFC 5280 §7.1 equality (fast paths: identical bytes are equal; different RDN counts or
    /// different fingerprints are not; otherwise the comparison keys decide).
    public static func == (lhs: DistinguishedName, rhs: DistinguishedName) -> Bool {
        if lhs.data === rhs.data { return true }
        if ByteComparison.equal(lhs.data.der, rhs.data.der) { return true }
        guard lhs.data.rdnCount == rhs.data.rdnCount else { return false }
        // Different fingerprints prove different keys: most different names never build one.
        if let left = lhs.data.fingerprint, let right = rhs.data.fingerprint, left != right { return false }
        return lhs.data.comparisonKey.bytes == rhs.data.comparisonKey.bytes
    }

    /// Hashes the normalised key, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(normalizedKey) }

    /// RFC 4514 string form (least significant RDN first), e.g. `CN=leaf,O=Example,C=US`.
    public var description: String {
        rdns.reversed().map { rdn in
            rdn.map { attribute in
                let shortName = OID.attributeShortNames[attribute.type]
                let name = shortName ?? attribute.type.dotted
                let value: String
                // RFC 4514 §2.4: a value whose type is written in dotted-decimal form is written as
                // `#` + the hex of its BER encoding, even when it is a string.
                if let text = attribute.stringValue, shortName != nil {
                    value = DistinguishedName.escape4514(text)
                } else {
                    value =
                        "#"
                        + attribute.valueDER.map { byte in
                            let hex = String(byte, radix: 16)
                            return hex.count == 1 ? "0" + hex : hex
                        }.joined()
                }
                return "\(name)=\(value)"
            }.joined(separator: "+")
        }.joined(separator: ",")
    }

    // MARK: - Normalisation (RFC 5280 §7.1, RFC 4518 simplified)

    /// Appends one attribute's part of the comparison key: its type and its value, each length-
    /// prefixed so that no two different names share a key. String values of every type compare
    /// alike once decoded (tag 0x0C), case-folded with white space collapsed; other values by
    /// their encoding (tag 0x04).
    static func appendNormalizedPart(
        type: ArraySlice<UInt8>, value: DERIndexedElement, in bytes: ArraySlice<UInt8>,
        to out: inout [UInt8]
    ) {
        appendLength(type.count, to: &out)
        out.append(contentsOf: type)
        // The ASCII-compatible string types (UTF8String, PrintableString, IA5String, VisibleString)
        // with ASCII content fold straight from their bytes: the common case.
        let number = value.tag.number
        let asciiCompatible = number == 12 || number == 19 || number == 22 || number == 26
        let content = bytes[value.contentRange]
        if value.tag.isString, asciiCompatible, ASCIIScan.isASCII(content) {
            out.append(0x0C)
            let lengthAt = out.count
            appendLength(0, to: &out)
            foldASCII(content, into: &out)
            let length = UInt32(clamping: out.count - lengthAt - 4)
            out[lengthAt] = UInt8(length >> 24)
            out[lengthAt + 1] = UInt8((length >> 16) & 0xFF)
            out[lengthAt + 2] = UInt8((length >> 8) & 0xFF)
            out[lengthAt + 3] = UInt8(length & 0xFF)
        } else if value.tag.isString, let text = try? value.element(in: bytes).string() {
            out.append(0x0C)
            let folded = foldedUTF8(text)
            appendLength(folded.count, to: &out)
            out.append(contentsOf: folded)
        } else {
            out.append(0x04)
            appendLength(value.encodedRange.count, to: &out)
            out.append(contentsOf: bytes[value.encodedRange])
        }
    }

    /// A four-byte big-endian length prefix.
    private static func appendLength(_ count: Int, to out: inout [UInt8]) {
        let count = UInt32(clamping: count)
        out.append(UInt8(count >> 24))
        out.append(UInt8((count >> 16) & 0xFF))
        out.append(UInt8((count >> 8) & 0xFF))
        out.append(UInt8(count & 0xFF))
    }

    /// ``foldedUTF8(_:)`` for ASCII bytes, appended to `out` without building a String.
    static func foldASCII(_ bytes: ArraySlice<UInt8>, into out: inout [UInt8]) {
        // Copied in one go, then folded in place (the write index never passes the read index):
        // one append per byte cost a capacity and uniqueness check each.
        let start = out.count
        out.append(contentsOf: bytes)
        let end = out.withUnsafeMutableBufferPointer { buffer in
            var write = start
            forEachFoldedASCII(buffer[start...]) { byte in
                buffer[write] = byte
                write += 1
            }
            return write
        }
        out.removeLast(out.count - end)
    }

    /// Calls `body` with the bytes of ASCII text `bytes` case-folded, white space (space, tab, CR,
    /// LF) trimmed at both ends and each inner run of it one space, in order: the normalisation of
    /// ``foldASCII(_:into:)`` and of ``Fingerprint``, written once. `body` may overwrite the byte
    /// just read or an earlier one (the folded text is never longer than the text).
    @inline(__always)
    static func forEachFoldedASCII<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ body: (UInt8) -> Void) {
        var wroteAny = false
        var pendingSpace = false
        for byte in bytes {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                pendingSpace = wroteAny
                continue
            }
            if pendingSpace {
                body(0x20)
                pendingSpace = false
            }
            body(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
            wroteAny = true
        }
    }

    /// Case-folds and collapses runs of white space; trims both ends.
    static func foldedUTF8(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        let source: String.UTF8View = isASCII ? text.utf8 : text.lowercased().utf8
        for byte in source {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out.append(0x20)
                pendingSpace = false
            }
            out.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
        }
        return out
    }

    static func escape4514(_ text: String) -> String {
        var out = ""
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case ",", "+", "\"", "\\", "<", ">", ";":
                out += "\\" + String(scalar)
            case "#" where index == 0, " " where index == 0 || index == scalars.count - 1:
                out += "\\" + String(scalar)
            case "\u{0}":
                out += "\\00"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension Array {
    /// The element at `index`, or nil when out of range.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
