// IPAddress.swift
// An IPv4 or IPv6 address with strict textual parsing and canonical output.

/// An IPv4 or IPv6 address, as carried in an X.509 `iPAddress` general name.
///
/// Parsing from text is strict:
///
/// - IPv4 is accepted only as four dot-separated decimal octets 0–255
///   without leading zeros (`"0"` is fine, `"01"` is not). Hexadecimal,
///   octal and shortened forms such as `"1.2.3"` are rejected.
/// - IPv6 is accepted in all RFC 4291 §2.2 forms: eight groups of one to four
///   hexadecimal digits (either case), one `::` compression, and an embedded
///   dotted-quad IPv4 tail (`"::ffff:192.0.2.1"`). The whole address may be
///   enclosed in one pair of brackets (`"[2001:db8::1]"`), as in URLs.
///   Zone identifiers (`"fe80::1%eth0"`), ports and surrounding whitespace
///   are rejected.
///
/// IPv4 addresses and IPv4-mapped IPv6 addresses are different values: the
/// address `"::ffff:192.0.2.1"` does not equal `"192.0.2.1"`.
package struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address in network byte order: 4 octets for IPv4, 16 for IPv6.
    package let bytes: [UInt8]

    /// Creates an address from its network-order octets.
    ///
    /// - Parameter bytes: Exactly 4 (IPv4) or 16 (IPv6) octets.
    /// - Returns: `nil` if `bytes` has any other length.
    package init?(bytes: some Collection<UInt8>) {
        var copy: [UInt8] = []
        for byte in bytes {
            guard copy.count < 16 else { return nil }
            copy.append(byte)
        }
        guard copy.count == 4 || copy.count == 16 else { return nil }
        self.bytes = copy
    }

    /// Parses an IPv4 or IPv6 address from text, strictly.
    ///
    /// See ``IPAddress`` for the accepted forms.
    ///
    /// - Parameter text: The textual address, e.g. `"192.0.2.1"`,
    ///   `"2001:db8::1"` or `"[2001:db8::1]"`.
    /// - Returns: `nil` if `text` is not a valid address.
    package init?(_ text: String) {
        // Every accepted form is made of hexadecimal digits, `.`, `:` and
        // brackets, and the longest (a bracketed IPv6 address with an IPv4
        // tail) is 47 octets: anything else is refused before any parsing,
        // which is what makes a host name cheap to reject.
        var utf8: [UInt8] = []
        for byte in text.utf8 {
            guard utf8.count < 64, Self.mayAppearInAddress(byte) else { return nil }
            utf8.append(byte)
        }
        var input = utf8[...]
        var bracketed = false
        if input.first == UInt8(ascii: "[") {
            guard input.count >= 2, input.last == UInt8(ascii: "]") else { return nil }
            input = input.dropFirst().dropLast()
            bracketed = true
        }
        if !bracketed, let v4 = Self.parseIPv4(input) {
            self.bytes = v4
        } else if input.contains(UInt8(ascii: ":")), let v6 = Self.parseIPv6(input) {
            self.bytes = v6
        } else {
            return nil
        }
    }

    /// Whether this is an IPv4 address (4 octets).
    package var isIPv4: Bool {
        bytes.count == 4
    }

    /// The canonical text form.
    ///
    /// IPv4 addresses use dotted-quad notation. IPv6 addresses use the
    /// RFC 5952 canonical form: lowercase hexadecimal without leading zeros,
    /// the longest run of two or more zero groups (the first on a tie)
    /// replaced by `::`, and mixed notation for IPv4-mapped addresses
    /// (`::ffff:192.0.2.1`). No brackets are added.
    package var description: String {
        if bytes.count == 4 {
            return Self.formatIPv4(bytes[...])
        }
        guard bytes.count == 16 else { return "<invalid>" }

        var groups: [UInt16] = []
        groups.reserveCapacity(8)
        for index in stride(from: 0, to: 16, by: 2) {
            groups.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
        }

        // IPv4-mapped addresses, ::ffff:0:0/96 (RFC 5952 §5).
        if groups[0..<5].allSatisfy({ $0 == 0 }) && groups[5] == 0xFFFF {
            return "::ffff:" + Self.formatIPv4(bytes[12..<16])
        }

        // Find the longest run of at least two zero groups; first wins ties.
        var bestStart = -1
        var bestLength = 0
        var runStart = -1
        for index in 0...8 {
            if index < 8 && groups[index] == 0 {
                if runStart < 0 { runStart = index }
            } else if runStart >= 0 {
                let length = index - runStart
                if length > bestLength {
                    bestStart = runStart
                    bestLength = length
                }
                runStart = -1
            }
        }
        if bestLength < 2 {
            bestStart = -1
        }

        var text = ""
        var index = 0
        while index < 8 {
            if index == bestStart {
                text += "::"
                index += bestLength
                continue
            }
            if !text.isEmpty && !text.hasSuffix(":") {
                text += ":"
            }
            text += String(groups[index], radix: 16)
            index += 1
        }
        return text
    }

    // MARK: - Parsing

    /// Whether `byte` can occur in any accepted textual form: a hexadecimal
    /// digit, `.`, `:`, `[` or `]`.
    private static func mayAppearInAddress(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: "."), UInt8(ascii: ":"),
            UInt8(ascii: "["), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }

    /// Parses exactly four decimal octets without leading zeros.
    package static func parseIPv4(_ input: ArraySlice<UInt8>) -> [UInt8]? {
        let parts = input.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(4)
        for part in parts {
            guard let first = part.first, part.count <= 3 else { return nil }
            if first == UInt8(ascii: "0") && part.count > 1 { return nil }
            var value = 0
            for byte in part {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            guard value <= 255 else { return nil }
            result.append(UInt8(truncatingIfNeeded: value))
        }
        return result
    }

    /// Parses an RFC 4291 §2.2 IPv6 address (no brackets, no zone).
    package static func parseIPv6(_ input: ArraySlice<UInt8>) -> [UInt8]? {
        let colon = UInt8(ascii: ":")
        // Locate a "::" (at most one is allowed).
        var doubleColon: Int?
        var index = input.startIndex
        while index < input.endIndex - 1 {
            if input[index] == colon && input[index + 1] == colon {
                guard doubleColon == nil else { return nil }
                doubleColon = index
                index += 2
            } else {
                index += 1
            }
        }

        let head: ArraySlice<UInt8>
        let tail: ArraySlice<UInt8>
        if let split = doubleColon {
            head = input[input.startIndex..<split]
            tail = input[(split + 2)..<input.endIndex]
        } else {
            head = input
            tail = []
        }

        // The IPv4 tail, if any, may only end the address.
        guard let headGroups = parseGroups(head, allowIPv4Tail: doubleColon == nil),
            let tailGroups = parseGroups(tail, allowIPv4Tail: true)
        else { return nil }

        var groups: [UInt16]
        if doubleColon != nil {
            // "::" stands for one or more zero groups.
            guard headGroups.count + tailGroups.count <= 7 else { return nil }
            groups = headGroups
            groups += Array(repeating: 0, count: 8 - headGroups.count - tailGroups.count)
            groups += tailGroups
        } else {
            guard headGroups.count == 8 else { return nil }
            groups = headGroups
        }

        var result: [UInt8] = []
        result.reserveCapacity(16)
        for group in groups {
            result.append(UInt8(truncatingIfNeeded: group >> 8))
            result.append(UInt8(truncatingIfNeeded: group))
        }
        return result
    }

    /// Parses colon-separated groups of 1–4 hex digits; an empty input is
    /// zero groups. A final dotted-quad IPv4 part counts as two groups.
    private static func parseGroups(_ input: ArraySlice<UInt8>, allowIPv4Tail: Bool) -> [UInt16]? {
        if input.isEmpty { return [] }
        let parts = input.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count <= 8 else { return nil }
        var groups: [UInt16] = []
        for (position, part) in parts.enumerated() {
            if part.contains(UInt8(ascii: ".")) {
                guard allowIPv4Tail, position == parts.count - 1,
                    let v4 = parseIPv4(part)
                else { return nil }
                groups.append(UInt16(v4[0]) << 8 | UInt16(v4[1]))
                groups.append(UInt16(v4[2]) << 8 | UInt16(v4[3]))
            } else {
                guard !part.isEmpty, part.count <= 4 else { return nil }
                var value: UInt16 = 0
                for byte in part {
                    guard let digit = hexValue(byte) else { return nil }
                    value = value << 4 | UInt16(digit)
                }
                groups.append(value)
            }
        }
        return groups
    }

    /// The value of an ASCII hexadecimal digit.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Formats four octets as a dotted quad.
    private static func formatIPv4(_ octets: ArraySlice<UInt8>) -> String {
        octets.map { String($0) }.joined(separator: ".")
    }
}
