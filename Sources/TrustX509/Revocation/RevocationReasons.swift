import TrustDER

/// A set of revocation reasons: the ReasonFlags BIT STRING of a distribution point's `reasons` and
/// an issuingDistributionPoint's `onlySomeReasons` (RFC 5280 §4.2.1.13, §5.2.5).
///
/// RFC 5280 §6.3.3 keeps a `reasons_mask` of these and consults CRLs until every reason in
/// ``all`` is covered or the certificate is found revoked.
public struct RevocationReasons: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The bits, bit n of the BIT STRING as `1 << n`.
    public let rawValue: UInt16

    /// A set from raw bits (`1 << n` for ReasonFlags bit n).
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// keyCompromise (1).
    public static let keyCompromise = RevocationReasons(rawValue: 1 << 1)
    /// cACompromise (2).
    public static let caCompromise = RevocationReasons(rawValue: 1 << 2)
    /// affiliationChanged (3).
    public static let affiliationChanged = RevocationReasons(rawValue: 1 << 3)
    /// superseded (4).
    public static let superseded = RevocationReasons(rawValue: 1 << 4)
    /// cessationOfOperation (5).
    public static let cessationOfOperation = RevocationReasons(rawValue: 1 << 5)
    /// certificateHold (6).
    public static let certificateHold = RevocationReasons(rawValue: 1 << 6)
    /// privilegeWithdrawn (7).
    public static let privilegeWithdrawn = RevocationReasons(rawValue: 1 << 7)
    /// aACompromise (8).
    public static let aaCompromise = RevocationReasons(rawValue: 1 << 8)

    /// RFC 5280 §6.3.3's `all-reasons`: every reason (bit 0, `unused`, is not a reason).
    public static let all: RevocationReasons = [
        .keyCompromise, .caCompromise, .affiliationChanged, .superseded, .cessationOfOperation,
        .certificateHold, .privilegeWithdrawn, .aaCompromise,
    ]

    private static let names: [(RevocationReasons, String)] = [
        (.keyCompromise, "keyCompromise"), (.caCompromise, "cACompromise"), (.affiliationChanged, "affiliationChanged"),
        (.superseded, "superseded"), (.cessationOfOperation, "cessationOfOperation"), (.certificateHold, "certificateHold"),
        (.privilegeWithdrawn, "privilegeWithdrawn"), (.aaCompromise, "aACompromise"),
    ]

    /// e.g. `{keyCompromise, cACompromise}`.
    public var description: String {
        "{" + Self.names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "}"
    }

    /// Decodes a ReasonFlags BIT STRING with the given (IMPLICIT) tag. Bits beyond aACompromise are
    /// ignored (RFC 5280 defines no more; a future reason cannot widen what we rely on).
    static func parse(_ element: DERIndexedElement, in bytes: ArraySlice<UInt8>, tag: DERTag) throws -> RevocationReasons {
        let bits = try element.bitString(in: bytes, tag: tag)
        var raw: UInt16 = 0
        for (byteIndex, byte) in bits.bytes.prefix(2).enumerated() {
            for bit in 0..<8 where byte & (0x80 >> bit) != 0 {
                raw |= 1 << UInt16(byteIndex * 8 + bit)
            }
        }
        return RevocationReasons(rawValue: raw & (RevocationReasons.all.rawValue | 1))
    }
}
