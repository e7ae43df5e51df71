/// An OBJECT IDENTIFIER kept as its content octets, so comparison is a byte compare.
public struct ASN1ObjectIdentifier: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The encoded arcs (the OID's content octets, without tag and length).
    public let bytes: ArraySlice<UInt8>

    /// Wraps content octets already known to be valid (validated when they were parsed).
    package init(trusted bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// Validates content octets: non-empty, each arc minimal (no leading 0x80) and within UInt64,
    /// and the last octet ends an arc.
    public init(validating bytes: ArraySlice<UInt8>, at offset: Int = 0) throws(DERError) {
        try ASN1ObjectIdentifier.validate(bytes, range: bytes.indices, at: offset)
        self.bytes = bytes
    }

    /// Validates the content octets at `range` of `bytes` as ``init(validating:at:)`` does, without
    /// making a slice (for parsers that only check, see ``DERIndexReader``).
    public static func validate(_ bytes: ArraySlice<UInt8>, range: Range<Int>, at offset: Int) throws(DERError) {
        guard !range.isEmpty, range.lowerBound >= bytes.startIndex, range.upperBound <= bytes.endIndex else {
            throw DERError(.invalidObjectIdentifier, at: offset)
        }
        // Over the contiguous bytes (a certificate has some thirty OIDs): indexing the slice checked
        // its bounds on every octet.
        let valid = bytes.withUnsafeBufferPointer { buffer in
            let octets = UnsafeBufferPointer(rebasing: buffer[(range.lowerBound - bytes.startIndex)..<(range.upperBound - bytes.startIndex)])
            return isValidEncoding(octets)
        }
        guard valid else { throw DERError(.invalidObjectIdentifier, at: offset) }
    }

    /// X.690 §8.19: every arc in base 128, its first octet never 0x80 (no leading zero), the last
    /// octet ending an arc; an arc beyond 64 bits is refused.
    private static func isValidEncoding(_ octets: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let last = octets.last, last & 0x80 == 0 else { return false }
        var arcStart = true
        var value: UInt64 = 0
        for byte in octets {
            if arcStart && byte == 0x80 { return false }
            guard value <= (UInt64.max >> 7) else { return false }
            value = (value << 7) | UInt64(byte & 0x7F)
            arcStart = byte & 0x80 == 0
            if arcStart { value = 0 }
        }
        return true
    }

    /// Builds an OID from dotted text such as `"2.5.29.19"`; invalid text yields an empty OID
    /// that matches nothing a parser can produce.
    public init(stringLiteral text: String) {
        self.bytes = ASN1ObjectIdentifier.encode(dotted: text).map { $0[...] } ?? []
    }

    /// Builds an OID from dotted text, or returns nil when the text is not a valid OID.
    public init?(dotted text: String) {
        guard let encoded = ASN1ObjectIdentifier.encode(dotted: text) else { return nil }
        self.bytes = encoded[...]
    }

    /// The arcs as integers (the first two are recombined per X.690 §8.19.4).
    public var arcs: [UInt64] {
        var result: [UInt64] = []
        var value: UInt64 = 0
        for byte in bytes {
            value = (value << 7) | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                if result.isEmpty {
                    let first: UInt64 = value < 40 ? 0 : (value < 80 ? 1 : 2)
                    result.append(first)
                    result.append(value - first * 40)
                } else {
                    result.append(value)
                }
                value = 0
            }
        }
        return result
    }

    /// Dotted-decimal form, e.g. `2.5.29.19`.
    public var dotted: String { arcs.map(String.init).joined(separator: ".") }

    /// The dotted-decimal form.
    public var description: String { dotted }

    /// Compares by content octets (DER gives each OID exactly one encoding).
    public static func == (lhs: ASN1ObjectIdentifier, rhs: ASN1ObjectIdentifier) -> Bool {
        guard lhs.bytes.count == rhs.bytes.count else { return false }
        return lhs.bytes.withUnsafeBufferPointer { a in
            rhs.bytes.withUnsafeBufferPointer { b in
                for index in 0..<a.count where a[index] != b[index] { return false }
                return true
            }
        }
    }

    /// Hashes the content octets.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        for byte in bytes { hasher.combine(byte) }
    }

    private static func encode(dotted text: String) -> [UInt8]? {
        var arcs: [UInt64] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt64(part) else { return nil }
            arcs.append(value)
        }
        guard arcs.count >= 2, arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40 else { return nil }
        let (first, overflow) = arcs[0].multipliedReportingOverflow(by: 40)
        let (combined, overflow2) = first.addingReportingOverflow(arcs[1])
        guard !overflow, !overflow2 else { return nil }
        var out: [UInt8] = []
        for arc in [combined] + arcs.dropFirst(2) {
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            out.append(contentsOf: chunk.reversed())
        }
        return out
    }
}
