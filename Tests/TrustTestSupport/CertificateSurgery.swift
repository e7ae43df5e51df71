import Foundation
import TrustDER
import TrustX509

/// Just enough DER to take a certificate apart and put it back together with one field changed.
/// Signatures are not recomputed, so an edited certificate no longer verifies under its issuer.
public enum TestDER {
    /// One TLV inside `bytes`: its whole encoding and its content.
    public struct Element {
        /// The identifier octet.
        public let tag: UInt8
        /// The whole TLV.
        public let encoded: ArraySlice<UInt8>
        /// The content octets.
        public let content: ArraySlice<UInt8>
    }

    /// Reads the TLV starting at `offset` (single-octet tags, definite lengths: enough for certificates).
    public static func element(in bytes: ArraySlice<UInt8>, at offset: Int) -> Element {
        let tag = bytes[offset]
        var cursor = offset + 1
        var length = Int(bytes[cursor])
        cursor += 1
        if length & 0x80 != 0 {
            let octets = length & 0x7F
            length = 0
            for _ in 0..<octets {
                length = length << 8 | Int(bytes[cursor])
                cursor += 1
            }
        }
        return Element(tag: tag, encoded: bytes[offset..<(cursor + length)], content: bytes[cursor..<(cursor + length)])
    }

    /// The TLVs that make up `content`, in order.
    public static func children(_ content: ArraySlice<UInt8>) -> [Element] {
        var result: [Element] = []
        var offset = content.startIndex
        while offset < content.endIndex {
            let next = element(in: content, at: offset)
            result.append(next)
            offset = next.encoded.endIndex
        }
        return result
    }

    /// A TLV with a minimal definite length.
    public static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        DERWriter.tlv(identifier: tag, content: content)
    }

    public static func sequence(_ parts: [[UInt8]]) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }

    /// A Name of single-attribute RDNs written as PrintableString, e.g. `[("2.5.4.10", "SwiftTrust")]`.
    public static func printableName(_ pairs: [(oid: [UInt8], value: String)]) -> [UInt8] {
        sequence(
            pairs.map { pair in
                tlv(0x31, sequence([tlv(0x06, pair.oid), tlv(0x13, Array(pair.value.utf8))]))
            })
    }

    /// DER content octets of the OIDs used in names.
    public static let organizationName: [UInt8] = [0x55, 0x04, 0x0A]
    public static let commonName: [UInt8] = [0x55, 0x04, 0x03]
}

/// A certificate's TBSCertificate fields, editable and re-encodable (the signature is kept as is).
public struct EditableCertificate {
    /// The TBSCertificate's fields, each a whole TLV.
    public var fields: [[UInt8]]
    /// The outer signatureAlgorithm TLV.
    public let signatureAlgorithm: [UInt8]
    /// The signatureValue TLV.
    public var signatureValue: [UInt8]
    /// Index of serialNumber in `fields` (1 when the `[0]` version is present, else 0).
    public let serialIndex: Int

    /// The fields of `certificate`.
    public init(_ certificate: Certificate) {
        let der = ArraySlice(certificate.derEncoded)
        let top = TestDER.children(TestDER.element(in: der, at: der.startIndex).content)
        precondition(top.count == 3, "a certificate is SEQUENCE { tbs, algorithm, signature }")
        fields = TestDER.children(top[0].content).map { Array($0.encoded) }
        signatureAlgorithm = Array(top[1].encoded)
        signatureValue = Array(top[2].encoded)
        serialIndex = fields.first?.first == 0xA0 ? 1 : 0
    }

    /// The serialNumber TLV.
    public var serialNumber: [UInt8] {
        get { fields[serialIndex] }
        set { fields[serialIndex] = newValue }
    }
    /// The issuer Name TLV.
    public var issuer: [UInt8] {
        get { fields[serialIndex + 2] }
        set { fields[serialIndex + 2] = newValue }
    }
    /// The subject Name TLV.
    public var subject: [UInt8] {
        get { fields[serialIndex + 4] }
        set { fields[serialIndex + 4] = newValue }
    }

    /// Sets a positive 16-octet serial number derived from `value`.
    public mutating func setSerial(_ value: UInt32) {
        let content: [UInt8] = [
            0x41, 0x5A, 0x5A, 0x5A, 0, 0, 0, 0, 0, 0, 0, 0,
            UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF),
        ]
        serialNumber = TestDER.tlv(0x02, content)
    }

    /// The re-encoded certificate (the original signature).
    public var der: [UInt8] { TestDER.sequence([TestDER.sequence(fields), signatureAlgorithm, signatureValue]) }

    /// The edited certificate, parsed.
    public func parse() throws -> Certificate { try Certificate(derEncoded: der) }
}

/// `certificate` with the last octet of its signature flipped (still well-formed DER, wrong value).
public func tamperedSignature(_ certificate: Certificate) throws -> Certificate {
    var der = certificate.derEncoded
    der[der.count - 1] ^= 0x01
    return try Certificate(derEncoded: der)
}

/// PEM text for `certificate` (for handing derived certificates to the openssl tool).
public func pem(_ certificate: Certificate) -> String {
    let base64 = Data(certificate.derEncoded).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
    return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
}
