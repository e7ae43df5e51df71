import TrustDER

/// One extension as encoded: OID, criticality and the raw extnValue octets.
///
/// Kept compact (a CRL or OCSP response keeps its list, and a certificate's ``Extensions/all`` a
/// dozen once read): the element's bytes once, and where the OID and the value lie in them.
public struct Extension: Hashable, Sendable {
    /// The whole Extension element, in the certificate's (or CRL's) buffer.
    private let encoded: ArraySlice<UInt8>
    /// Where the OID's content octets start and how many there are, relative to `encoded`.
    private let oidStart: UInt32, oidLength: UInt32
    /// Where the extnValue contents start, relative to `encoded`; they run to the element's end
    /// (extnValue is the element's last field).
    private let valueStart: UInt32
    /// Whether it is marked critical.
    public let isCritical: Bool
    /// Which known extension this is, decided once from the OID bytes when parsed (or nil).
    public let kind: ExtensionKind?

    /// An extension read from `element` of `bytes`, its OID's and value's contents at `oid` and `value`.
    init(
        element: DERIndexedElement, oid: Range<Int>, value: Range<Int>, in bytes: ArraySlice<UInt8>,
        kind: ExtensionKind?, isCritical: Bool
    ) {
        encoded = bytes[element.encodedRange]
        // Offsets inside the element, which Extension.forEach checked to be smaller than 4 GiB.
        oidStart = UInt32(truncatingIfNeeded: oid.lowerBound - element.offset)
        oidLength = UInt32(truncatingIfNeeded: oid.count)
        valueStart = UInt32(truncatingIfNeeded: value.lowerBound - element.offset)
        self.kind = kind
        self.isCritical = isCritical
    }

    /// The extension's OID.
    public var oid: ASN1ObjectIdentifier {
        let start = encoded.startIndex + Int(oidStart)
        return ASN1ObjectIdentifier(trusted: encoded[start..<(start + Int(oidLength))])
    }
    /// The extnValue contents (the DER of the extension's own structure).
    public var value: ArraySlice<UInt8> { encoded[(encoded.startIndex + Int(valueStart))...] }
    /// The absolute offset of the Extension element.
    public var offset: Int { encoded.startIndex }

    /// The extension's readable name, e.g. `basicConstraints`.
    public var name: String { OID.name(of: oid) }

    /// Equal when OID, criticality, value and offset are.
    public static func == (lhs: Extension, rhs: Extension) -> Bool {
        lhs.offset == rhs.offset && lhs.isCritical == rhs.isCritical && lhs.oid == rhs.oid && ByteComparison.equal(lhs.value, rhs.value)
    }

    /// Hashes the OID, criticality and offset (consistent with `==`).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(oid)
        hasher.combine(isCritical)
        hasher.combine(offset)
    }
}
