import OpenSSLServerSupport
import Foundation
import TrustDER
import TrustX509
import XCTest

/// Builds CRLs with any RFC 5280 scope, entries and extensions, signed with a committed ECDSA key by
/// the openssl CLI (`openssl dgst -sha256 -sign`): for the §6.3.3 cases the committed fixtures do
/// not have (issuingDistributionPoint names and reasons, indirect entries, other signing keys).
/// Current from an hour ago for a week: evaluate at the current time.
struct TestCRLBuilder {
    /// One revoked certificate.
    struct Entry {
        var serial: [UInt8]
        var reason: UInt8?
        /// The certificateIssuer entry extension (indirect CRLs).
        var certificateIssuer: DistinguishedName?
        /// Adds a critical entry extension nobody understands (RFC 5280 §5.3).
        var unknownCriticalExtension = false
    }

    /// An issuingDistributionPoint (RFC 5280 §5.2.5).
    struct IssuingDistributionPoint {
        /// `[0] fullName` names (already encoded GeneralNames) …
        var fullName: [[UInt8]]?
        /// … or `[1] nameRelativeToCRLIssuer` (the encoded AttributeTypeAndValue SEQUENCEs).
        var relativeName: [UInt8]?
        var onlyUserCertificates = false
        var onlyCACertificates = false
        /// ReasonFlags as the BIT STRING's content octets (unused-bits octet first).
        var onlySomeReasons: [UInt8]?
        var indirect = false
    }

    var issuer: DistinguishedName
    var authorityKeyIdentifier: [UInt8]?
    var number: UInt8 = 1
    var entries: [Entry] = []
    var issuingDistributionPoint: IssuingDistributionPoint?

    /// A URI GeneralName.
    static func uri(_ text: String) -> [UInt8] { DERWriter.tlv(identifier: 0x86, content: Array(text.utf8)) }

    /// A directoryName GeneralName.
    static func directoryName(_ name: DistinguishedName) -> [UInt8] { DERWriter.tlv(identifier: 0xA4, content: Array(name.der)) }

    /// An AttributeTypeAndValue commonName = `text` (UTF8String), for relative names.
    static func commonName(_ text: String) -> [UInt8] {
        var writer = DERWriter()
        writer.sequence { attribute in
            attribute.write(ASN1ObjectIdentifier(stringLiteral: "2.5.4.3"))
            attribute.write(.utf8String, content: Array(text.utf8))
        }
        return writer.bytes
    }

    /// The DER of the CRL signed with the ECDSA key at `keyPath` (ecdsa-with-SHA256).
    func signed(withKey keyPath: String) throws -> CertificateRevocationList {
        let tbs = tbsCertList()
        let signature = try TestCRLBuilder.sign(tbs, keyPath: keyPath)
        var writer = DERWriter()
        writer.sequence { list in
            list.writeEncoded(tbs)
            list.sequence { $0.write(ASN1ObjectIdentifier(stringLiteral: "1.2.840.10045.4.3.2")) }
            list.write(.bitString, content: [0] + signature)
        }
        return try CertificateRevocationList(derEncoded: writer.bytes)
    }

    private func tbsCertList() -> [UInt8] {
        let now = Date()
        var writer = DERWriter()
        writer.sequence { tbs in
            tbs.writeIntegerBytes([1])
            tbs.sequence { $0.write(ASN1ObjectIdentifier(stringLiteral: "1.2.840.10045.4.3.2")) }
            tbs.writeEncoded(issuer.der)
            tbs.writeEncoded(TestCRLBuilder.utcTime(now.addingTimeInterval(-3600)))
            tbs.writeEncoded(TestCRLBuilder.utcTime(now.addingTimeInterval(7 * 24 * 3600)))
            if !entries.isEmpty {
                tbs.sequence { list in
                    for entry in entries { list.writeEncoded(TestCRLBuilder.encode(entry, at: now.addingTimeInterval(-7200))) }
                }
            }
            tbs.write(DERTag(.contextSpecific, number: 0, constructed: true), content: extensions())
        }
        return writer.bytes
    }

    private func extensions() -> [UInt8] {
        var writer = DERWriter()
        writer.sequence { list in
            if let authorityKeyIdentifier {
                list.writeEncoded(
                    TestCRLBuilder.extensionDER(
                        "2.5.29.35", critical: false,
                        value: DERWriter.tlv(identifier: 0x30, content: DERWriter.tlv(identifier: 0x80, content: authorityKeyIdentifier))))
            }
            list.writeEncoded(TestCRLBuilder.extensionDER("2.5.29.20", critical: false, value: DERWriter.tlv(identifier: 0x02, content: [number])))
            if let idp = issuingDistributionPoint {
                list.writeEncoded(TestCRLBuilder.extensionDER("2.5.29.28", critical: true, value: TestCRLBuilder.encode(idp)))
            }
        }
        return writer.bytes
    }

    private static func encode(_ idp: IssuingDistributionPoint) -> [UInt8] {
        var content: [UInt8] = []
        if let fullName = idp.fullName {
            content += DERWriter.tlv(identifier: 0xA0, content: DERWriter.tlv(identifier: 0xA0, content: fullName.flatMap { $0 }))
        } else if let relativeName = idp.relativeName {
            content += DERWriter.tlv(identifier: 0xA0, content: DERWriter.tlv(identifier: 0xA1, content: relativeName))
        }
        if idp.onlyUserCertificates { content += [0x81, 0x01, 0xFF] }
        if idp.onlyCACertificates { content += [0x82, 0x01, 0xFF] }
        if let reasons = idp.onlySomeReasons { content += DERWriter.tlv(identifier: 0x83, content: reasons) }
        if idp.indirect { content += [0x84, 0x01, 0xFF] }
        return DERWriter.tlv(identifier: 0x30, content: content)
    }

    private static func encode(_ entry: Entry, at date: Date) -> [UInt8] {
        var extensions: [UInt8] = []
        if let reason = entry.reason { extensions += extensionDER("2.5.29.21", critical: false, value: [0x0A, 0x01, reason]) }
        if let issuer = entry.certificateIssuer {
            extensions += extensionDER("2.5.29.29", critical: true, value: DERWriter.tlv(identifier: 0x30, content: directoryName(issuer)))
        }
        if entry.unknownCriticalExtension { extensions += extensionDER("1.3.6.1.4.1.55555.7", critical: true, value: [0x05, 0x00]) }
        var content = DERWriter.tlv(identifier: 0x02, content: entry.serial) + utcTime(date)
        if !extensions.isEmpty { content += DERWriter.tlv(identifier: 0x30, content: extensions) }
        return DERWriter.tlv(identifier: 0x30, content: content)
    }

    private static func extensionDER(_ oid: String, critical: Bool, value: [UInt8]) -> [UInt8] {
        var writer = DERWriter()
        writer.sequence { ext in
            ext.write(ASN1ObjectIdentifier(stringLiteral: oid))
            if critical { ext.writeEncoded([0x01, 0x01, 0xFF]) }
            ext.writeOctetString(value)
        }
        return writer.bytes
    }

    private static func utcTime(_ date: Date) -> [UInt8] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyMMddHHmmss'Z'"
        return DERWriter.tlv(identifier: 0x17, content: Array(formatter.string(from: date).utf8))
    }

    private static func sign(_ bytes: [UInt8], keyPath: String) throws -> [UInt8] {
        guard let openssl = OpenSSLVerifyDifferentialTests.opensslPath else { throw XCTSkip("openssl is not installed") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-crl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("tbs.der")
        let output = directory.appendingPathComponent("signature.der")
        try Data(bytes).write(to: input)
        let run = try OpenSSLVerifyDifferentialTests.run(openssl, ["dgst", "-sha256", "-sign", keyPath, "-out", output.path, input.path])
        guard run.status == 0 else { throw OpenSSLIssuer.IssueError(output: run.output) }
        return [UInt8](try Data(contentsOf: output))
    }
}
