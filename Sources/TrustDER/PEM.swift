/// One `-----BEGIN LABEL-----` … `-----END LABEL-----` block, decoded.
public struct PEMBlock: Sendable, Hashable {
    /// The label, e.g. `CERTIFICATE` or `X509 CRL`.
    public let label: String
    /// The decoded bytes.
    public let der: [UInt8]
    /// The 1-based line of the BEGIN marker.
    public let line: Int
    /// Where the block's base64 lines are in the text, to map a decoded byte back to its line.
    public let bodyLayout: PEMBodyLayout

    /// A block labelled `label` with bytes `der`, whose BEGIN marker is on `line` and whose base64
    /// lines are laid out as `bodyLayout` says.
    public init(label: String, der: [UInt8], line: Int, bodyLayout: PEMBodyLayout = PEMBodyLayout()) {
        self.label = label
        self.der = der
        self.line = line
        self.bodyLayout = bodyLayout
    }
}

/// The lines of a PEM block's base64 body: which line of the text holds which characters, so an
/// offset into the decoded bytes (where DER errors are found) can be named by its line in the file.
public struct PEMBodyLayout: Sendable, Hashable {
    /// The 1-based text line of each base64 line of the body, in order.
    public private(set) var lineNumbers: [Int] = []
    /// The running total of base64 characters at the end of each body line.
    private var characterTotals: [Int] = []

    /// An empty layout (no body lines known).
    public init() {}

    /// Adds body line `lineNumber`, holding `characters` base64 characters.
    mutating func append(line lineNumber: Int, characters: Int) {
        lineNumbers.append(lineNumber)
        characterTotals.append((characterTotals.last ?? 0) + characters)
    }

    /// The 1-based text line holding decoded byte `offset` (its base64 quantum starts there), or
    /// nil when the layout does not reach it.
    public func line(ofDecodedByte offset: Int) -> Int? {
        guard offset >= 0 else { return nil }
        // Every 3 decoded bytes are 4 base64 characters (RFC 4648 §4).
        let (quanta, _) = offset.dividedReportingOverflow(by: 3)
        let (character, overflow) = quanta.multipliedReportingOverflow(by: 4)
        guard !overflow else { return nil }
        // The first line whose running total passes the character: a binary search, as blocks can be long.
        var low = 0, high = characterTotals.count
        while low < high {
            let middle = (low + high) / 2
            if characterTotals[middle] > character { high = middle } else { low = middle + 1 }
        }
        return low < lineNumbers.count ? lineNumbers[low] : nil
    }
}

/// A PEM block that was passed over: its label and where it starts. Its body was not decoded
/// (it may hold RFC 1421 headers, e.g. an encrypted legacy private key).
public struct PEMSkippedBlock: Sendable, Hashable, CustomStringConvertible {
    /// The label, e.g. `PRIVATE KEY`.
    public let label: String
    /// The 1-based line of the BEGIN marker.
    public let line: Int

    /// `PRIVATE KEY at line 3`.
    public var description: String { "\(QuotedValue.capped(label)) at line \(line)" }
}

/// Why PEM text could not be decoded.
public enum PEMError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A BEGIN marker had no matching END marker.
    case unterminatedBlock(label: String, line: Int)
    /// An END marker's label differs from its BEGIN marker's.
    case mismatchedEnd(begin: String, end: String, line: Int)
    /// A marker line is not of the form `-----BEGIN LABEL-----`.
    case malformedMarker(line: Int)
    /// The body is not strict base64 (RFC 7468 §3): bad character, padding or length.
    case invalidBase64(label: String, line: Int)
    /// A block decoded to no bytes.
    case emptyBlock(label: String, line: Int)
    /// The text holds no PEM block at all.
    case noBlocks

    /// A one-line explanation naming the line.
    public var description: String {
        switch self {
        case let .unterminatedBlock(label, line): return "PEM block \(QuotedValue.capped(label)) starting at line \(line) has no END line"
        case let .mismatchedEnd(begin, end, line):
            return "PEM END \(QuotedValue.capped(end)) at line \(line) does not match BEGIN \(QuotedValue.capped(begin))"
        case let .malformedMarker(line): return "malformed PEM marker at line \(line)"
        case let .invalidBase64(label, line): return "PEM block \(QuotedValue.capped(label)): invalid base64 at line \(line)"
        case let .emptyBlock(label, line): return "PEM block \(QuotedValue.capped(label)) at line \(line) is empty"
        case .noBlocks: return "no PEM block found"
        }
    }
}

/// PEM (RFC 7468) decoding and encoding.
public enum PEM {
    /// Whether `bytes` look like PEM text (they contain a BEGIN marker) rather than DER.
    public static func looksLikePEM(_ bytes: [UInt8]) -> Bool {
        let marker = Array("-----BEGIN ".utf8)
        guard bytes.count >= marker.count else { return false }
        var index = 0
        while index + marker.count <= bytes.count {
            if bytes[index] == marker[0], bytes[index..<(index + marker.count)].elementsEqual(marker) { return true }
            index += 1
        }
        return false
    }

    /// Decodes every block in `text`. Text outside blocks is ignored (RFC 7468 §5.2 explanatory text);
    /// inside a block only strict base64 lines are allowed.
    ///
    /// - Throws: The first error of ``decodeEach(_:)``, in the order of the text.
    public static func decode(_ text: String) throws(PEMError) -> [PEMBlock] {
        try decode(text, where: { _ in true }).blocks
    }

    /// Decodes the blocks whose label is in `labels` and passes over the others, as servers and
    /// proxies do with combined certificate-and-key files: a skipped block's body is not read
    /// (it may be an encrypted key with RFC 1421 `Proc-Type`/`DEK-Info` headers), only its
    /// markers must be well-formed. Text outside blocks is ignored (RFC 7468 §5.2).
    ///
    /// - Throws: The first problem in the text, in order.
    public static func decode(
        _ text: String, labels: Set<String>
    ) throws(PEMError) -> (blocks: [PEMBlock], skipped: [PEMSkippedBlock]) {
        try decode(text, where: labels.contains)
    }

    /// Decodes every block in `text` on its own: a bad block is one failure in the list, and the
    /// blocks after it are still decoded. For bundles where one unreadable block must not cost the
    /// others (a CA bundle); ``decode(_:)`` is the strict form.
    ///
    /// A block's failure is the first problem found in it, so ``decode(_:)`` reports what it always did.
    public static func decodeEach(_ text: String) -> [Result<PEMBlock, PEMError>] {
        scan(text, decodes: { _ in true }).compactMap { entry in
            switch entry {
            case let .decoded(block): return .success(block)
            case let .failed(error): return .failure(error)
            case .skipped: return nil
            }
        }
    }

    private static func decode(
        _ text: String, where decodes: (String) -> Bool
    ) throws(PEMError) -> (blocks: [PEMBlock], skipped: [PEMSkippedBlock]) {
        var blocks: [PEMBlock] = []
        var skipped: [PEMSkippedBlock] = []
        for entry in scan(text, decodes: decodes) {
            switch entry {
            case let .decoded(block): blocks.append(block)
            case let .skipped(block): skipped.append(block)
            case let .failed(error): throw error
            }
        }
        return (blocks, skipped)
    }

    /// What became of one block (or stray marker) of the text.
    private enum Entry {
        case decoded(PEMBlock)
        case skipped(PEMSkippedBlock)
        case failed(PEMError)
    }

    /// A block being read: its label and line, whether its body is decoded, the body so far, and
    /// its first problem.
    private struct OpenBlock {
        let label: String
        let line: Int
        let decoded: Bool
        var body: [UInt8] = []
        var layout = PEMBodyLayout()
        var error: PEMError?
    }

    /// Every block of `text` in order: those whose label `decodes` accepts decoded, the others
    /// passed over (body unread), each problem reported for its block and the scan continued.
    private static func scan(_ text: String, decodes: (String) -> Bool) -> [Entry] {
        var entries: [Entry] = []
        var current: OpenBlock?
        // A line outside any block that looks like a BEGIN marker gone wrong, and whether it was
        // already reported: the END line that follows belongs to it and is reported there, once.
        var damagedBegin: (line: Int, reported: Bool)?
        var lineNumber = 0
        // Lines are cut from the UTF-8 bytes (walking Characters costs grapheme breaking on every
        // byte of a bundle); every byte the rules look at is ASCII, so the result is the same.
        let bytes = Array(text.utf8)
        var lineStart = 0
        while lineStart < bytes.count {
            let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n"))
            var line = bytes[lineStart..<(newline ?? bytes.count)]
            lineStart = (newline ?? bytes.count) + 1
            lineNumber += 1
            // "\r\n" ends a line like "\n"; then one more "\r" and trailing blanks are dropped.
            if newline != nil, line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            while line.last == UInt8(ascii: " ") || line.last == UInt8(ascii: "\t") { line = line.dropLast() }
            if line.starts(with: beginPrefix) {
                if let open = current {
                    entries.append(.failed(open.error ?? .unterminatedBlock(label: open.label, line: open.line)))
                    current = nil
                }
                guard let label = marker(line, prefix: beginPrefix) else {
                    entries.append(.failed(.malformedMarker(line: lineNumber)))
                    damagedBegin = (lineNumber, true)
                    continue
                }
                damagedBegin = nil
                current = OpenBlock(label: label, line: lineNumber, decoded: decodes(label))
            } else if line.starts(with: endPrefix) {
                guard let open = current else {
                    if damagedBegin?.reported != true {
                        entries.append(.failed(.malformedMarker(line: damagedBegin?.line ?? lineNumber)))
                    }
                    damagedBegin = nil
                    continue
                }
                current = nil
                entries.append(closeBlock(open, endLine: line, at: lineNumber))
            } else if current == nil {
                if damagedBegin == nil, line.starts(with: [0x2D, 0x2D]) || contains(line, beginWord) { damagedBegin = (lineNumber, false) }
            } else if let open = current, open.decoded, open.error == nil {
                if !line.isEmpty, line.allSatisfy(Base64.isAlphabetOrPad) {
                    current?.body.append(contentsOf: line)
                    current?.layout.append(line: lineNumber, characters: line.count)
                } else {
                    current?.error = .invalidBase64(label: open.label, line: lineNumber)
                }
            }
        }
        if let open = current { entries.append(.failed(open.error ?? .unterminatedBlock(label: open.label, line: open.line))) }
        return entries
    }

    private static let beginPrefix = Array("-----BEGIN ".utf8)
    private static let endPrefix = Array("-----END ".utf8)
    private static let markerSuffix = Array("-----".utf8)
    private static let beginWord = Array("BEGIN".utf8)

    /// Whether `word` occurs in `line`.
    private static func contains(_ line: ArraySlice<UInt8>, _ word: [UInt8]) -> Bool {
        guard line.count >= word.count else { return false }
        return (line.startIndex...(line.endIndex - word.count)).contains { line[$0..<($0 + word.count)].elementsEqual(word) }
    }

    /// The block `open` ended by the END marker `endLine`, or its first problem.
    private static func closeBlock(_ open: OpenBlock, endLine: ArraySlice<UInt8>, at lineNumber: Int) -> Entry {
        if let error = open.error { return .failed(error) }
        guard let label = marker(endLine, prefix: endPrefix) else { return .failed(.malformedMarker(line: lineNumber)) }
        guard label == open.label else { return .failed(.mismatchedEnd(begin: open.label, end: label, line: lineNumber)) }
        guard open.decoded else { return .skipped(PEMSkippedBlock(label: open.label, line: open.line)) }
        guard let der = Base64.decode(open.body) else { return .failed(.invalidBase64(label: open.label, line: open.line)) }
        guard !der.isEmpty else { return .failed(.emptyBlock(label: open.label, line: open.line)) }
        return .decoded(PEMBlock(label: open.label, der: der, line: open.line, bodyLayout: open.layout))
    }

    /// Encodes `der` as a PEM block with 64-character lines.
    public static func encode(_ der: some Collection<UInt8>, label: String) -> String {
        let body = Base64.encode(der)
        var out = "-----BEGIN \(label)-----\n"
        var index = body.startIndex
        while index < body.endIndex {
            let end = body.index(index, offsetBy: 64, limitedBy: body.endIndex) ?? body.endIndex
            out += body[index..<end] + "\n"
            index = end
        }
        return out + "-----END \(label)-----\n"
    }

    /// The label of marker line `line` (`-----BEGIN LABEL-----`), or nil when it is malformed:
    /// RFC 7468 §3 labels are upper-case letters, digits, spaces and hyphens.
    private static func marker(_ line: ArraySlice<UInt8>, prefix: [UInt8]) -> String? {
        guard line.starts(with: prefix), line.count > prefix.count + markerSuffix.count,
            line.suffix(markerSuffix.count).elementsEqual(markerSuffix)
        else { return nil }
        let label = line.dropFirst(prefix.count).dropLast(markerSuffix.count)
        let allowed = label.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-")
        }
        guard allowed else { return nil }
        return String(decoding: label, as: UTF8.self)
    }
}

/// Strict base64 (RFC 4648 §4): canonical padding, zero pad bits, no stray characters.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func isAlphabetOrPad(_ byte: UInt8) -> Bool {
        value(of: byte) != nil || byte == UInt8(ascii: "=")
    }

    private static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }

    /// Decodes canonical base64, or returns nil on any deviation.
    public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        let chars = Array(text)
        guard chars.count % 4 == 0 else { return nil }
        var padding = 0
        if chars.last == UInt8(ascii: "=") { padding += 1 }
        if chars.count >= 2, chars[chars.count - 2] == UInt8(ascii: "=") { padding += 1 }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var index = 0
        while index < chars.count {
            let isLast = index + 4 == chars.count
            // The quantum's four 6-bit values; a pad position counts as 0 and must be "=".
            var quad: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
            for k in 0..<4 {
                let c = chars[index + k]
                var v: UInt8 = 0
                if isLast && k >= 4 - padding {
                    guard c == UInt8(ascii: "=") else { return nil }
                } else {
                    guard let decoded = value(of: c) else { return nil }
                    v = decoded
                }
                switch k {
                case 0: quad.0 = v
                case 1: quad.1 = v
                case 2: quad.2 = v
                default: quad.3 = v
                }
            }
            let b0 = quad.0 << 2 | quad.1 >> 4
            let b1 = (quad.1 & 0x0F) << 4 | quad.2 >> 2
            let b2 = (quad.2 & 0x03) << 6 | quad.3
            out.append(b0)
            if isLast && padding == 2 {
                guard quad.1 & 0x0F == 0 else { return nil }
            } else if isLast && padding == 1 {
                guard quad.2 & 0x03 == 0 else { return nil }
                out.append(b1)
            } else {
                out.append(b1)
                out.append(b2)
            }
            index += 4
        }
        return out
    }

    /// Encodes bytes as canonical base64 with padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index < input.count {
            let b0 = input[index]
            let b1 = index + 1 < input.count ? input[index + 1] : 0
            let b2 = index + 2 < input.count ? input[index + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(index + 1 < input.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(index + 2 < input.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
