import TrustDER
import TrustX509

/// A subject attribute type an ``IdentityRule/subject(_:equals:)`` rule compares.
public struct SubjectAttribute: Hashable, Sendable, CustomStringConvertible {
    /// The attribute type's object identifier.
    public let type: ASN1ObjectIdentifier

    /// The attribute of type `type`.
    public init(type: ASN1ObjectIdentifier) {
        self.type = type
    }

    /// commonName (CN, 2.5.4.3).
    public static let commonName = SubjectAttribute(type: "2.5.4.3")
    /// organizationName (O, 2.5.4.10).
    public static let organization = SubjectAttribute(type: "2.5.4.10")
    /// organizationalUnitName (OU, 2.5.4.11).
    public static let organizationalUnit = SubjectAttribute(type: "2.5.4.11")
    /// countryName (C, 2.5.4.6).
    public static let country = SubjectAttribute(type: "2.5.4.6")
    /// serialNumber (2.5.4.5), a device or person identifier, not the certificate's serial.
    public static let serialNumber = SubjectAttribute(type: "2.5.4.5")
    /// userId (UID, 0.9.2342.19200300.100.1.1).
    public static let userID = SubjectAttribute(type: "0.9.2342.19200300.100.1.1")

    /// The attribute an RFC 4514 short name (`CN`, `O`, `OU`, `C`, `serialNumber`, `UID`; any case)
    /// or a dotted object identifier (`2.5.4.97`) names; nil for anything else.
    public init?(name: String) {
        if let known = Self.byShortName[name.uppercased()] {
            self = known
        } else if name.first?.isNumber == true, let oid = ASN1ObjectIdentifier(dotted: name) {
            self.init(type: oid)
        } else {
            return nil
        }
    }

    /// The short name (`CN`) when the type has one, else the dotted identifier.
    public var description: String { Self.shortName(of: type) }

    /// `type`'s short name when it has one, else its dotted identifier.
    static func shortName(of type: ASN1ObjectIdentifier) -> String {
        byShortName.first { $0.value.type == type }?.key.replacingSerialCase() ?? type.dotted
    }

    private static let byShortName: [String: SubjectAttribute] = [
        "CN": .commonName, "O": .organization, "OU": .organizationalUnit, "C": .country,
        "SERIALNUMBER": .serialNumber, "UID": .userID,
    ]
}

private extension String {
    /// `SERIALNUMBER` is written `serialNumber` (RFC 4519).
    func replacingSerialCase() -> String { self == "SERIALNUMBER" ? "serialNumber" : self }
}
