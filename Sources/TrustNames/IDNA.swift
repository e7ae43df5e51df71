// IDNA.swift
// Conversion of (possibly internationalised) host names to their ASCII form.

/// Conversion of internationalised domain names to ASCII (A-label) form and
/// validation of ASCII host names.
///
/// ``toASCII(_:allowingUnderscores:)`` is a deliberately conservative subset of IDNA2008
/// (RFC 5890–5892) with the simple mapping step of UTS #46:
///
/// - Labels are separated by `.` (U+002E); the ideographic and full-width
///   full stops U+3002, U+FF0E and U+FF61 are treated as `.` as well, as
///   UTS #46 and RFC 3490 do.
/// - ASCII labels are lowercased. Labels containing non-ASCII are mapped with
///   Unicode lowercasing (`String.lowercased()`, no Foundation) and then
///   normalised to NFC with `NFC` (our own tables, Unicode 14.0). Full
///   UTS #46 mapping (for example of full-width or compatibility characters)
///   is **not** performed; such characters are rejected instead.
/// - Each resulting code point of a non-ASCII label must be ASCII
///   letter/digit/hyphen, or a letter (`Ll`, `Lo`, `Lm`), combining mark
///   (`Mn`, `Mc`) or decimal digit (`Nd`) that is stable under NFKC case
///   folding, or one of the IDNA2008 PVALID exceptions (ß, ς, U+06FD,
///   U+06FE, U+0F0B, U+3007). This approximates the IDNA2008 PVALID
///   property; symbols, punctuation, spaces, controls, unassigned code
///   points and the CONTEXTJ/CONTEXTO characters (such as ZWJ, ZWNJ and
///   U+00B7) are rejected, as are code points assigned after the NFC tables'
///   Unicode version. The Bidi rule (RFC 5893) is not checked.
///   A label must not start with a combining mark, start or end with `-`,
///   or have `--` in positions 3 and 4.
/// - Existing `xn--` labels must decode, must decode to a non-ASCII label
///   that passes the checks above and that is already lowercase and NFC,
///   and must re-encode to exactly the same A-label.
///
/// Every function returns `nil`/`false` on any error and never traps.
package enum IDNA {
    /// The maximum length of a host name in octets, excluding a trailing dot.
    package static let maximumHostnameLength = 253

    /// The maximum length of a single label in octets.
    package static let maximumLabelLength = 63

    /// Inputs longer than this many UTF-8 octets are rejected up front.
    ///
    /// No longer input can produce a valid host name: every non-basic scalar
    /// contributes at least one octet to the ASCII form, and lowercasing
    /// shrinks a scalar by at most a factor of three (U+212A KELVIN SIGN).
    private static let maximumInputLength = 2048

    /// The IDNA ACE prefix.
    private static let acePrefix = "xn--"

    /// Converts a host name to its ASCII form.
    ///
    /// The result contains only lowercase ASCII letters, digits, hyphens and
    /// dots, has no trailing dot, no empty label, no label longer than
    /// 63 octets and is at most 253 octets long. Non-ASCII labels are
    /// converted to A-labels (`xn--` + Punycode). See ``IDNA`` for the exact
    /// mapping and validation rules.
    ///
    /// - Parameter host: A host name such as `"Bücher.example"` or
    ///   `"www.example.com."` (a single trailing dot is removed).
    /// - Returns: The ASCII host name, for example `"xn--bcher-kva.example"`,
    ///   or `nil` if `host` is not a valid host name.
    /// - Parameter allowingUnderscores: Also accept `_` in ASCII labels (anywhere in the label),
    ///   as in `_srv.internal.example` or `my_host.example.com`: not preferred name syntax, but
    ///   Apple's `SecDNSMatch` compares such a reference and `SecFrameworkIsDNSName` accepts such
    ///   SAN names. Server reference identities are parsed this way (``ServerIdentity``).
    package static func toASCII(_ host: String, allowingUnderscores: Bool = false) -> String? {
        guard !host.isEmpty, host.utf8.count <= maximumInputLength else { return nil }
        if let length = normalisedASCIILength(host.utf8, allowingUnderscores: allowingUnderscores) {
            return length == host.utf8.count ? host : String(host.dropLast())
        }

        // Split into labels on '.' and its ideographic/full-width variants.
        var labels: [String.UnicodeScalarView] = [String.UnicodeScalarView()]
        for scalar in host.unicodeScalars {
            if isLabelSeparator(scalar) {
                labels.append(String.UnicodeScalarView())
            } else {
                labels[labels.count - 1].append(scalar)
            }
        }
        // Remove the empty label produced by a single trailing dot.
        if labels.count > 1, let last = labels.last, last.isEmpty {
            labels.removeLast()
        }

        var output: [UInt8] = []
        output.reserveCapacity(host.utf8.count)
        for label in labels {
            guard let ascii = labelToASCII(label, allowingUnderscores: allowingUnderscores) else { return nil }
            if !output.isEmpty {
                output.append(UInt8(ascii: "."))
            }
            output.append(contentsOf: ascii)
            guard output.count <= maximumHostnameLength else { return nil }
        }
        guard !output.isEmpty else { return nil }
        return String(decoding: output, as: UTF8.self)
    }

    /// ``toASCII(_:allowingUnderscores:)`` of UTF-8 `bytes` (valid UTF-8): an already-normalised ASCII name is made a
    /// `String` directly (the public-suffix list converts thousands of such labels on first use).
    package static func toASCII(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard !bytes.isEmpty, bytes.count <= maximumInputLength else { return nil }
        if let length = normalisedASCIILength(bytes) {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<length]), as: UTF8.self)
        }
        return toASCII(String(decoding: bytes, as: UTF8.self))
    }

    /// The fast path of ``toASCII(_:allowingUnderscores:)``: when `utf8` is already an ASCII host name in the output
    /// form (lower case, no A-label to validate), its length without a trailing dot; else nil.
    private static func normalisedASCIILength(_ utf8: some BidirectionalCollection<UInt8>, allowingUnderscores: Bool = false) -> Int? {
        guard let scan = scanASCIIHostname(utf8, allowingUnderscores: allowingUnderscores), !scan.hasUppercase, !scan.hasACELabel
        else { return nil }
        return utf8.last == UInt8(ascii: ".") ? utf8.count - 1 : utf8.count
    }

    /// Returns whether `name` is a syntactically valid ASCII host name.
    ///
    /// A valid name consists of one or more labels separated by `.`, each
    /// 1–63 octets of ASCII letters (either case), digits and hyphens, not
    /// starting or ending with a hyphen, with a total length of at most
    /// 253 octets. A single trailing dot is allowed and not counted.
    /// `xn--` labels are checked only syntactically, not decoded; use
    /// ``toASCII(_:allowingUnderscores:)`` for full validation.
    ///
    /// - Parameter name: The candidate host name.
    /// - Returns: `true` if `name` is a valid ASCII host name.
    /// - Parameter allowingUnderscores: Also accept `_` anywhere in a label (Apple's
    ///   `SecFrameworkIsDNSName` treats it as a letter).
    package static func isValidASCIIHostname(_ name: some StringProtocol, allowingUnderscores: Bool = false) -> Bool {
        scanASCIIHostname(name.utf8, allowingUnderscores: allowingUnderscores) != nil
    }

    /// One allocation-free pass over an ASCII host name: LDH labels of 1…63 octets without
    /// leading or trailing hyphens, at most 253 octets, one trailing dot tolerated. Returns whether
    /// it has upper-case letters and an `xn--` label, or nil when it is not a valid ASCII host name.
    /// With `allowingUnderscores`, `_` is accepted anywhere in a label too.
    package static func scanASCIIHostname(_ utf8: some Collection<UInt8>, allowingUnderscores: Bool = false)
        -> (hasUppercase: Bool, hasACELabel: Bool)?
    {
        // Native strings and arrays expose their bytes: scanning a buffer is several times cheaper
        // than stepping a `String.UTF8View` index.
        if let scanned = utf8.withContiguousStorageIfAvailable({ scanASCIIHostnameBuffer($0, allowingUnderscores: allowingUnderscores) }) {
            return scanned
        }
        return scanASCIIHostnameBytes(utf8, allowingUnderscores: allowingUnderscores)
    }

    /// ``scanASCIIHostnameBytes(_:allowingUnderscores:)`` over contiguous bytes, label by label: the
    /// same answers with a few comparisons per octet instead of a state update per octet.
    private static func scanASCIIHostnameBuffer(_ bytes: UnsafeBufferPointer<UInt8>, allowingUnderscores: Bool)
        -> (hasUppercase: Bool, hasACELabel: Bool)?
    {
        let dot = UInt8(ascii: "."), hyphen = UInt8(ascii: "-")
        var end = bytes.count
        // A single trailing dot is the root label: allowed, not counted.
        if end > 0 && bytes[end - 1] == dot { end -= 1 }
        guard end > 0, end <= maximumHostnameLength else { return nil }
        var hasUppercase = false, hasACE = false
        var start = 0
        while true {
            var position = start
            while position < end {
                let byte = bytes[position]
                if byte == dot { break }
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), hyphen:
                    break
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    hasUppercase = true
                case UInt8(ascii: "_") where allowingUnderscores:
                    break
                default:
                    return nil
                }
                position += 1
            }
            let length = position - start
            guard length > 0, length <= maximumLabelLength,
                bytes[start] != hyphen, bytes[position - 1] != hyphen
            else { return nil }
            if length >= 4, asciiLowercased(bytes[start]) == UInt8(ascii: "x"), asciiLowercased(bytes[start + 1]) == UInt8(ascii: "n"),
                bytes[start + 2] == hyphen, bytes[start + 3] == hyphen
            {
                hasACE = true
            }
            if position == end { return (hasUppercase, hasACE) }
            start = position + 1
        }
    }

    /// ``scanASCIIHostname(_:allowingUnderscores:)`` proper.
    private static func scanASCIIHostnameBytes(_ utf8: some Collection<UInt8>, allowingUnderscores: Bool)
        -> (hasUppercase: Bool, hasACELabel: Bool)?
    {
        var count = 0, labelLength = 0, previous: UInt8 = 0
        var hasUppercase = false, hasACE = false
        var labelPrefix: UInt32 = 0
        for byte in utf8 {
            count += 1
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0, previous != UInt8(ascii: "-") else { return nil }
                if labelLength >= 4 && labelPrefix == 0x786E_2D2D { hasACE = true } // "xn--"
                labelLength = 0
                labelPrefix = 0
                previous = byte
                continue
            }
            guard isLDHByte(byte) || (allowingUnderscores && byte == UInt8(ascii: "_")) else { return nil }
            if labelLength == 0 && byte == UInt8(ascii: "-") { return nil }
            labelLength += 1
            guard labelLength <= maximumLabelLength else { return nil }
            if labelLength <= 4 { labelPrefix = labelPrefix << 8 | UInt32(asciiLowercased(byte)) }
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { hasUppercase = true }
            previous = byte
        }
        if previous == UInt8(ascii: ".") {
            // A single trailing dot is the root label: allowed, not counted.
            guard count > 1 else { return nil }
            count -= 1
        } else {
            guard labelLength > 0, previous != UInt8(ascii: "-") else { return nil }
            if labelLength >= 4 && labelPrefix == 0x786E_2D2D { hasACE = true }
        }
        guard count > 0, count <= maximumHostnameLength else { return nil }
        return (hasUppercase, hasACE)
    }

    // MARK: - Internal helpers shared with the matchers

    /// Returns whether `label` is 1–63 octets of ASCII letters, digits and
    /// hyphens that neither starts nor ends with a hyphen.
    /// With `allowingUnderscores`, `_` is accepted anywhere too.
    package static func isLDHLabel<C: BidirectionalCollection<UInt8>>(_ label: C, allowingUnderscores: Bool = false) -> Bool {
        guard let first = label.first, let last = label.last,
            label.count <= maximumLabelLength,
            first != UInt8(ascii: "-"), last != UInt8(ascii: "-")
        else { return false }
        return label.allSatisfy { isLDHByte($0) || (allowingUnderscores && $0 == UInt8(ascii: "_")) }
    }

    /// Returns whether `byte` is an ASCII letter, digit or hyphen.
    package static func isLDHByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// Lowercases an ASCII letter; other bytes are returned unchanged.
    package static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
            return byte + 0x20
        }
        return byte
    }

    /// Returns whether the right-most label of a dot-separated ASCII name
    /// (ignoring one trailing dot) looks like a number: all decimal digits,
    /// or `0x`/`0X` followed by hexadecimal digits.
    ///
    /// Such names are not valid DNS host names (RFC 1123 §2.1, RFC 3696 §2)
    /// and URL parsers treat them as IPv4 addresses, so the name matchers
    /// refuse them to avoid confusing an IP address with a DNS name.
    package static func endsInNumericLabel(_ name: some StringProtocol) -> Bool {
        // In place when the bytes are contiguous (native strings); otherwise on a copy.
        let inPlace = name.utf8.withContiguousStorageIfAvailable { buffer -> Bool in
            // More than 1024 octets: `trimmedNameBytes` refuses the name, which is not numeric then.
            guard buffer.count <= 1024 else { return false }
            var end = buffer.count
            if end > 0 && buffer[end - 1] == UInt8(ascii: ".") { end -= 1 }
            return endsInNumericLabel(trimmed: buffer[0..<end])
        }
        if let inPlace { return inPlace }
        guard let bytes = trimmedNameBytes(name) else { return false }
        return endsInNumericLabel(trimmed: bytes[...])
    }

    /// ``endsInNumericLabel(_:)`` of a name's bytes, one trailing dot already removed.
    package static func endsInNumericLabel<Bytes: RandomAccessCollection>(trimmed bytes: Bytes) -> Bool
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let lastLabel: Bytes.SubSequence
        if let dot = bytes.lastIndex(of: UInt8(ascii: ".")) {
            lastLabel = bytes[(dot + 1)...]
        } else {
            lastLabel = bytes[...]
        }
        guard !lastLabel.isEmpty else { return false }
        if lastLabel.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return true
        }
        guard lastLabel.count >= 2,
            lastLabel.first == UInt8(ascii: "0"),
            asciiLowercased(lastLabel[lastLabel.startIndex + 1]) == UInt8(ascii: "x")
        else { return false }
        return lastLabel.dropFirst(2).allSatisfy { isHexDigit($0) }
    }

    /// The UTF-8 octets of `name` without one trailing dot, or `nil` if
    /// `name` is implausibly long (more than 1024 octets) to bound work.
    package static func trimmedNameBytes(_ name: some StringProtocol) -> [UInt8]? {
        let utf8 = name.utf8
        guard utf8.count <= 1024 else { return nil }
        var bytes = Array(utf8)
        if bytes.last == UInt8(ascii: ".") {
            bytes.removeLast()
        }
        return bytes
    }

    // MARK: - Private

    /// Converts one label to lowercase ASCII, or returns `nil` if invalid.
    /// With `allowingUnderscores`, an ASCII label may hold `_` (a non-ASCII one never does).
    private static func labelToASCII(_ label: String.UnicodeScalarView, allowingUnderscores: Bool) -> [UInt8]? {
        guard !label.isEmpty else { return nil }

        if label.allSatisfy({ $0.isASCII }) {
            let bytes = label.map { asciiLowercased(UInt8(truncatingIfNeeded: $0.value)) }
            guard isLDHLabel(bytes, allowingUnderscores: allowingUnderscores) else { return nil }
            if bytes.starts(with: acePrefix.utf8) {
                guard validateALabel(bytes) else { return nil }
            }
            return bytes
        }

        // Non-ASCII: map (lowercase + NFC), validate, then encode.
        let mapped = mapULabel(String(label))
        if mapped.unicodeScalars.allSatisfy({ $0.isASCII }) {
            // Lowercasing turned the label into ASCII (e.g. KELVIN SIGN).
            let bytes = Array(mapped.utf8)
            guard isLDHLabel(bytes), !bytes.starts(with: acePrefix.utf8) else { return nil }
            return bytes
        }
        guard isValidULabel(mapped.unicodeScalars),
            let encoded = Punycode.encode(mapped.unicodeScalars)
        else { return nil }
        let bytes = Array(acePrefix.utf8) + Array(encoded.utf8)
        guard isLDHLabel(bytes) else { return nil }
        return bytes
    }

    /// Validates an existing lowercase `xn--` label: it must decode to a
    /// valid, already-mapped non-ASCII U-label that re-encodes identically.
    private static func validateALabel(_ bytes: [UInt8]) -> Bool {
        let body = String(decoding: bytes.dropFirst(4), as: UTF8.self)
        guard let scalars = Punycode.decode(body[...]),
            !scalars.allSatisfy({ $0.isASCII })
        else { return false }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        let decoded = String(view)
        guard isValidULabel(view),
            mapULabel(decoded).unicodeScalars.elementsEqual(view),
            let reencoded = Punycode.encode(view)
        else { return false }
        return reencoded.utf8.elementsEqual(body.utf8)
    }

    /// Applies the mapping step: Unicode lowercasing followed by NFC (``NFC``).
    private static func mapULabel(_ label: String) -> String {
        var mapped = String.UnicodeScalarView()
        mapped.append(contentsOf: NFC.normalize(label.lowercased().unicodeScalars))
        return String(mapped)
    }

    /// Checks the code points and hyphen placement of a mapped U-label.
    private static func isValidULabel(_ label: String.UnicodeScalarView) -> Bool {
        let scalars = Array(label)
        guard let first = scalars.first, let last = scalars.last else { return false }
        let hyphen = Unicode.Scalar(UInt8(ascii: "-"))
        // RFC 5891 §4.2.3.1: no leading/trailing hyphen, no "--" at 3-4.
        guard first != hyphen, last != hyphen else { return false }
        if scalars.count >= 4, scalars[2] == hyphen, scalars[3] == hyphen { return false }
        // RFC 5891 §4.2.3.2: must not begin with a combining mark.
        switch first.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return false
        default:
            break
        }
        return scalars.allSatisfy { isPermittedULabelScalar($0) }
    }

    /// An approximation of the IDNA2008 PVALID property (RFC 5892).
    private static func isPermittedULabelScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let byte = UInt8(truncatingIfNeeded: scalar.value)
            // Uppercase ASCII cannot occur after mapping; reject it anyway.
            return isLDHByte(byte) && asciiLowercased(byte) == byte
        }
        // A code point newer than the NFC tables may have been normalised wrongly: not PVALID for us.
        guard NFC.isKnown(scalar) else { return false }
        switch scalar.value {
        case 0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007:
            return true // RFC 5892 §2.6 PVALID exceptions.
        case 0x0640, 0x07FA, 0x302E, 0x302F, 0x3031...0x3035, 0x303B:
            return false // RFC 5892 §2.6 DISALLOWED exceptions.
        default:
            break
        }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .lowercaseLetter, .otherLetter, .modifierLetter,
            .nonspacingMark, .spacingMark, .decimalNumber:
            return !properties.changesWhenNFKCCaseFolded
                && !properties.isNoncharacterCodePoint
                && !properties.isDefaultIgnorableCodePoint
        default:
            return false
        }
    }

    /// Returns whether `scalar` separates labels.
    private static func isLabelSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x002E, 0x3002, 0xFF0E, 0xFF61:
            return true
        default:
            return false
        }
    }

    /// Returns whether `byte` is an ASCII hexadecimal digit.
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}
