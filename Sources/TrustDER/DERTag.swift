/// An ASN.1 identifier: class, primitive/constructed form and tag number.
public struct DERTag: Hashable, Sendable, CustomStringConvertible {
    /// The four ASN.1 tag classes.
    public enum TagClass: UInt8, Hashable, Sendable {
        /// Types defined by X.680 (INTEGER, SEQUENCE …).
        case universal = 0
        /// Application-specific tags.
        case application = 1
        /// Context-specific tags (`[0]`, `[1]` … in X.509).
        case contextSpecific = 2
        /// Private tags.
        case `private` = 3
    }

    /// The tag's class.
    public let tagClass: TagClass
    /// Whether the element is constructed (contains elements) rather than primitive.
    public let isConstructed: Bool
    /// The tag number.
    public let number: UInt32

    /// Creates a tag.
    @inlinable public init(_ tagClass: TagClass, number: UInt32, constructed: Bool) {
        self.tagClass = tagClass
        self.number = number
        self.isConstructed = constructed
    }

    /// BOOLEAN.
    @inlinable public static var boolean: DERTag { DERTag(.universal, number: 1, constructed: false) }
    /// INTEGER.
    @inlinable public static var integer: DERTag { DERTag(.universal, number: 2, constructed: false) }
    /// BIT STRING.
    @inlinable public static var bitString: DERTag { DERTag(.universal, number: 3, constructed: false) }
    /// OCTET STRING.
    @inlinable public static var octetString: DERTag { DERTag(.universal, number: 4, constructed: false) }
    /// NULL.
    @inlinable public static var null: DERTag { DERTag(.universal, number: 5, constructed: false) }
    /// OBJECT IDENTIFIER.
    @inlinable public static var objectIdentifier: DERTag { DERTag(.universal, number: 6, constructed: false) }
    /// ENUMERATED.
    @inlinable public static var enumerated: DERTag { DERTag(.universal, number: 10, constructed: false) }
    /// UTF8String.
    @inlinable public static var utf8String: DERTag { DERTag(.universal, number: 12, constructed: false) }
    /// SEQUENCE / SEQUENCE OF.
    @inlinable public static var sequence: DERTag { DERTag(.universal, number: 16, constructed: true) }
    /// SET / SET OF.
    @inlinable public static var set: DERTag { DERTag(.universal, number: 17, constructed: true) }
    /// NumericString.
    @inlinable public static var numericString: DERTag { DERTag(.universal, number: 18, constructed: false) }
    /// PrintableString.
    @inlinable public static var printableString: DERTag { DERTag(.universal, number: 19, constructed: false) }
    /// TeletexString (T61String).
    @inlinable public static var teletexString: DERTag { DERTag(.universal, number: 20, constructed: false) }
    /// IA5String.
    @inlinable public static var ia5String: DERTag { DERTag(.universal, number: 22, constructed: false) }
    /// UTCTime.
    @inlinable public static var utcTime: DERTag { DERTag(.universal, number: 23, constructed: false) }
    /// GeneralizedTime.
    @inlinable public static var generalizedTime: DERTag { DERTag(.universal, number: 24, constructed: false) }
    /// VisibleString.
    @inlinable public static var visibleString: DERTag { DERTag(.universal, number: 26, constructed: false) }
    /// UniversalString.
    @inlinable public static var universalString: DERTag { DERTag(.universal, number: 28, constructed: false) }
    /// BMPString.
    @inlinable public static var bmpString: DERTag { DERTag(.universal, number: 30, constructed: false) }

    /// A context-specific tag `[number]`, explicit (constructed) or implicit primitive.
    public static func context(_ number: UInt32, constructed: Bool) -> DERTag {
        DERTag(.contextSpecific, number: number, constructed: constructed)
    }

    /// The tag of a low-tag-number identifier octet (X.690 §8.1.2.2: number below 31).
    @inlinable @inline(__always) init(identifierOctet octet: UInt8) {
        self.init(TagClass(rawValue: octet >> 6) ?? .universal, number: UInt32(octet & 0x1F), constructed: octet & 0x20 != 0)
    }

    /// Bit n set: universal type n is always primitive in DER (BOOLEAN, INTEGER, BIT STRING, OCTET
    /// STRING, NULL, OBJECT IDENTIFIER, ENUMERATED and the string and time types: X.690 §8, §10.2).
    @inlinable static var universalPrimitiveNumbers: UInt32 { 0x55DC_147E }
    /// Bit n set: universal type n is always constructed (SEQUENCE, SET).
    @inlinable static var universalConstructedNumbers: UInt32 { 1 << 16 | 1 << 17 }

    /// Universal types whose DER encoding is always primitive.
    @inlinable var universalMustBePrimitive: Bool {
        tagClass == .universal && number < 32 && (DERTag.universalPrimitiveNumbers >> number) & 1 == 1
    }

    /// Universal types whose encoding is always constructed.
    @inlinable var universalMustBeConstructed: Bool {
        tagClass == .universal && number < 32 && (DERTag.universalConstructedNumbers >> number) & 1 == 1
    }

    /// A readable name such as `SEQUENCE`, `INTEGER` or `[0] constructed`.
    public var description: String {
        if tagClass == .universal {
            switch number {
            case 1: return "BOOLEAN"
            case 2: return "INTEGER"
            case 3: return "BIT STRING"
            case 4: return "OCTET STRING"
            case 5: return "NULL"
            case 6: return "OBJECT IDENTIFIER"
            case 10: return "ENUMERATED"
            case 12: return "UTF8String"
            case 16: return "SEQUENCE"
            case 17: return "SET"
            case 18: return "NumericString"
            case 19: return "PrintableString"
            case 20: return "TeletexString"
            case 22: return "IA5String"
            case 23: return "UTCTime"
            case 24: return "GeneralizedTime"
            case 26: return "VisibleString"
            case 28: return "UniversalString"
            case 30: return "BMPString"
            default: return "UNIVERSAL \(number)"
            }
        }
        let cls: String
        switch tagClass {
        case .universal: cls = "UNIVERSAL "
        case .application: cls = "APPLICATION "
        case .contextSpecific: cls = ""
        case .private: cls = "PRIVATE "
        }
        return "[\(cls)\(number)]\(isConstructed ? " constructed" : "")"
    }
}
