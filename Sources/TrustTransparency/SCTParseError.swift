/// Why bytes are not a SignedCertificateTimestamp, or not a list of them (RFC 6962 §3.2, §3.3).
public enum SCTParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fewer bytes than the field being read needs: `needed` at `offset`.
    case truncated(field: String, offset: Int)
    /// A version other than v1 (0): trustd verifies v1 only.
    case unsupportedVersion(UInt8)
    /// Bytes after the signature (trustd: "We do not tolerate any extra data after the signature").
    case trailingBytes(Int)
    /// The list's length prefix disagrees with the bytes given.
    case listLengthMismatch(declared: Int, actual: Int)
    /// An empty list (RFC 6962 §3.3: `SerializedSCT sct_list <1..2^16-1>`).
    case emptyList
    /// The extension's value is not one OCTET STRING around the list.
    case notAnOctetString

    /// The reason in words.
    public var description: String {
        switch self {
        case let .truncated(field, offset): return "truncated at byte \(offset) (\(field))"
        case let .unsupportedVersion(version): return "version \(Int(version) + 1) (only v1 is verified)"
        case let .trailingBytes(count): return "\(count) bytes after the signature"
        case let .listLengthMismatch(declared, actual): return "the list declares \(declared) bytes but has \(actual)"
        case .emptyList: return "an empty SCT list"
        case .notAnOctetString: return "the extension value is not an OCTET STRING around the SCT list"
        }
    }
}
