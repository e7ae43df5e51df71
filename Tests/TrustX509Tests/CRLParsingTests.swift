import Foundation
import TrustCrypto
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

// MARK: - A tiny test-local DER tree (parse, edit, re-encode)

/// One DER element as an editable tree: primitive elements keep their content octets, constructed
/// ones their children. Single-octet tags and definite lengths only (enough for CRLs and OCSP).
/// Re-encoding always writes minimal lengths, so an untouched tree re-encodes to the input bytes.
struct RevocationTLV: Equatable {
    var tag: UInt8
    var content: [UInt8]
    var children: [RevocationTLV]

    var isConstructed: Bool { tag & 0x20 != 0 }

    static func primitive(_ tag: UInt8, _ content: [UInt8]) -> RevocationTLV {
        RevocationTLV(tag: tag, content: content, children: [])
    }

    static func constructed(_ tag: UInt8, _ children: [RevocationTLV]) -> RevocationTLV {
        RevocationTLV(tag: tag, content: [], children: children)
    }

    static func sequence(_ children: [RevocationTLV]) -> RevocationTLV { constructed(0x30, children) }
    static func oid(_ dotted: String) -> RevocationTLV {
        primitive(0x06, Array(ASN1ObjectIdentifier(dotted: dotted)!.bytes))
    }
    static func octetString(_ content: [UInt8]) -> RevocationTLV { primitive(0x04, content) }
    static let booleanTrue = primitive(0x01, [0xFF])
    static let null = primitive(0x05, [])

    /// An Extension SEQUENCE { extnID, critical?, extnValue }.
    static func `extension`(_ dotted: String, critical: Bool, value: [UInt8]) -> RevocationTLV {
        sequence([oid(dotted)] + (critical ? [booleanTrue] : []) + [octetString(value)])
    }

    /// Parses exactly one element covering all of `bytes`.
    static func parse(_ bytes: [UInt8]) throws -> RevocationTLV {
        var offset = 0
        let element = try parse(bytes, at: &offset)
        guard offset == bytes.count else { throw CocoaError(.coderReadCorrupt) }
        return element
    }

    private static func parse(_ bytes: [UInt8], at offset: inout Int) throws -> RevocationTLV {
        guard offset + 2 <= bytes.count else { throw CocoaError(.coderReadCorrupt) }
        let tag = bytes[offset]
        guard tag & 0x1F != 0x1F else { throw CocoaError(.coderReadCorrupt) }
        var cursor = offset + 1
        var length = Int(bytes[cursor])
        cursor += 1
        if length & 0x80 != 0 {
            let octets = length & 0x7F
            guard octets > 0, octets <= 4, cursor + octets <= bytes.count else { throw CocoaError(.coderReadCorrupt) }
            length = 0
            for _ in 0..<octets {
                length = length << 8 | Int(bytes[cursor])
                cursor += 1
            }
        }
        let end = cursor + length
        guard end <= bytes.count else { throw CocoaError(.coderReadCorrupt) }
        offset = end
        if tag & 0x20 == 0 { return primitive(tag, Array(bytes[cursor..<end])) }
        var children: [RevocationTLV] = []
        var inner = cursor
        while inner < end { children.append(try parse(bytes, at: &inner)) }
        guard inner == end else { throw CocoaError(.coderReadCorrupt) }
        return constructed(tag, children)
    }

    /// The DER encoding (minimal definite lengths).
    var der: [UInt8] {
        let body = isConstructed ? children.flatMap(\.der) : content
        var out: [UInt8] = [tag]
        if body.count < 0x80 {
            out.append(UInt8(body.count))
        } else {
            var octets: [UInt8] = []
            var rest = body.count
            while rest > 0 {
                octets.insert(UInt8(rest & 0xFF), at: 0)
                rest >>= 8
            }
            out.append(0x80 | UInt8(octets.count))
            out += octets
        }
        return out + body
    }

    subscript(index: Int) -> RevocationTLV {
        get { children[index] }
        set { children[index] = newValue }
    }

    /// For a primitive element whose content is itself DER (an extnValue OCTET STRING).
    func parsedContent() throws -> RevocationTLV { try RevocationTLV.parse(content) }
}

/// Paths under `TestCertificates/revocation/` and the dates of the README's revocation section.
enum RevocationFixtures {
    static let crlNames = [
        "intermediate-current", "intermediate-expired", "intermediate-wrong-signer", "intermediate-with-idp",
        "intermediate-idp-other-dp", "root-current", "root-empty", "revoked-intermediate-empty", "intermediate-delta",
        "intermediate-remove-from-crl", "intermediate-large",
    ]
    static let ocspNames = [
        "good-leaf-good", "revoked-leaf-revoked", "unknown", "good-leaf-expired", "good-leaf-delegated",
        "good-leaf-unauthorised", "good-leaf-sha256-certid",
    ]

    // Serials and key identifiers change with every regeneration: read them from the certificates.
    static func goodLeafSerial() throws -> [UInt8] { try OpenSSLFacts.serialNumber("revocation/good-leaf.pem") }
    static func revokedLeafSerial() throws -> [UInt8] { try OpenSSLFacts.serialNumber("revocation/revoked-leaf.pem") }
    static func revokedIntermediateSerial() throws -> [UInt8] {
        try OpenSSLFacts.serialNumber("revocation/revoked-intermediate.pem")
    }
    static func intermediateKeyID() throws -> [UInt8] { try OpenSSLFacts.subjectKeyIdentifier("ecdsa/intermediate.pem") }

    static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> DERTime {
        DERTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)!
    }

    static let currentThisUpdate = date(2026, 5, 1)
    static let farNextUpdate = date(2099, 12, 31, 23, 59, 59)
    static let revocationDate = date(2026, 4, 1)

    static func crl(_ name: String) throws -> CertificateRevocationList {
        try CertificateRevocationList(derEncoded: TestCertificates.bytes("revocation/\(name).crl"))
    }
}

/// Parses `der` as a CRL and asserts it is rejected with an error whose reason satisfies `matches`
/// and whose description mentions `mentioning`.
func assertCRLRejected(
    _ der: [UInt8], mentioning: String, matches: (X509Error.Reason) -> Bool = { _ in true },
    file: StaticString = #filePath, line: UInt = #line
) {
    do {
        let crl = try CertificateRevocationList(derEncoded: der)
        XCTFail("accepted a CRL that must be rejected (\(crl.entries.count) entries)", file: file, line: line)
    } catch {
        XCTAssertTrue(matches(error.reason), "unexpected error kind: \(error)", file: file, line: line)
        XCTAssertTrue(error.description.contains(mentioning), "error \"\(error)\" does not mention \"\(mentioning)\"", file: file, line: line)
    }
}

// MARK: - Tests

final class CRLParsingTests: XCTestCase {
    // MARK: Every fixture parses

    func testEveryCRLParsesAsDERAndPEMWithTheSameBytes() throws {
        for name in RevocationFixtures.crlNames {
            let der = try TestCertificates.bytes("revocation/\(name).crl")
            let fromDER = try CertificateRevocationList(derEncoded: der)
            XCTAssertEqual(fromDER.derEncoded, der, name)
            XCTAssertEqual(fromDER.version, 2, name)
            let pemText = try TestCertificates.bytes("revocation/\(name).crl.pem")
            let fromPEM = try CertificateRevocationList.loadAll(from: pemText)
            XCTAssertEqual(fromPEM.count, 1, name)
            XCTAssertEqual(fromPEM.first?.derEncoded, der, "\(name): PEM and DER hold the same CRL")
            // loadAll also takes the DER form.
            XCTAssertEqual(try CertificateRevocationList.loadAll(from: der).map(\.derEncoded), [der], name)
            // The re-encoding test helper is faithful (the rejection tests below depend on it).
            if name != "intermediate-large" {
                XCTAssertEqual(try RevocationTLV.parse(der).der, der, name)
                XCTAssertEqual(Array(fromDER.tbsBytes), try RevocationTLV.parse(der)[0].der, "\(name): tbsBytes is the exact tbsCertList")
            }
            // Every CRL is v2 with AKI (keyid) and a CRL number, signed with ecdsa-with-SHA256.
            XCTAssertNotNil(fromDER.crlNumber, name)
            XCTAssertNotNil(fromDER.authorityKeyIdentifier?.keyIdentifier, name)
            XCTAssertEqual(fromDER.signatureAlgorithmIdentifier.oid, ASN1ObjectIdentifier(dotted: "1.2.840.10045.4.3.2"), name)
            XCTAssertEqual(try fromDER.signatureAlgorithm(), .ecdsa(.sha256), name)
        }
    }

    func testPEMBundleOfSeveralCRLsAndWrongBlockLabels() throws {
        let a = try TestCertificates.bytes("revocation/intermediate-current.crl.pem")
        let b = try TestCertificates.bytes("revocation/root-empty.crl.pem")
        let both = try CertificateRevocationList.loadAll(from: a + b)
        XCTAssertEqual(
            both.map(\.derEncoded),
            [
                try TestCertificates.bytes("revocation/intermediate-current.crl"),
                try TestCertificates.bytes("revocation/root-empty.crl"),
            ])
        // A certificate is not a CRL.
        XCTAssertThrowsError(try CertificateRevocationList.loadAll(from: try TestCertificates.bytes("ecdsa/root.pem"))) { error in
            guard case .unexpectedPEMBlock(label: "CERTIFICATE", _)? = (error as? X509Error)?.reason else {
                return XCTFail("\(error)")
            }
        }
    }

    // MARK: Fields

    func testCurrentCRLFields() throws {
        let crl = try RevocationFixtures.crl("intermediate-current")
        let intermediate = try TestCertificates.certificate("ecdsa/intermediate.pem")
        XCTAssertEqual(crl.issuer, intermediate.subject)
        XCTAssertEqual(crl.issuer.description, "CN=SwiftTrust Test Intermediate ECDSA,O=SwiftTrust")
        XCTAssertEqual(crl.thisUpdate, RevocationFixtures.currentThisUpdate)
        XCTAssertEqual(crl.nextUpdate, RevocationFixtures.farNextUpdate)
        XCTAssertEqual(crl.crlNumber.map(Array.init), [0x02])
        XCTAssertNil(crl.deltaCRLIndicator)
        XCTAssertFalse(crl.isDelta)
        XCTAssertNil(crl.issuingDistributionPoint)
        XCTAssertEqual(crl.authorityKeyIdentifier?.keyIdentifier.map(Array.init), try RevocationFixtures.intermediateKeyID())
        XCTAssertEqual(
            crl.authorityKeyIdentifier?.keyIdentifier.map(Array.init),
            intermediate.extensions.subjectKeyIdentifier.map { Array($0.keyIdentifier) })
        XCTAssertEqual(crl.extensions.map(\.oid), [OID.authorityKeyIdentifier, OID.freshestCRL, OID.crlNumber])
        XCTAssertEqual(crl.extensions.map(\.isCritical), [false, false, false])

        XCTAssertEqual(crl.entries.count, 1)
        let entry = try XCTUnwrap(crl.entries.first)
        let revokedLeafSerial = try RevocationFixtures.revokedLeafSerial()
        XCTAssertEqual(Array(entry.serialNumber), revokedLeafSerial)
        XCTAssertEqual(entry.revocationDate, RevocationFixtures.revocationDate)
        XCTAssertEqual(entry.reason, .keyCompromise)
        XCTAssertEqual(entry.reason?.description, "keyCompromise")
        XCTAssertNil(entry.invalidityDate)
        XCTAssertNil(entry.certificateIssuer)

        let revokedLeaf = try TestCertificates.certificate("revocation/revoked-leaf.pem")
        let goodLeaf = try TestCertificates.certificate("revocation/good-leaf.pem")
        XCTAssertEqual(crl.entry(forSerialNumber: revokedLeaf.serialNumber), entry)
        XCTAssertNil(crl.entry(forSerialNumber: goodLeaf.serialNumber))
        // Serial numbers compare as DER INTEGER content octets: an extra leading zero octet is not
        // DER (never parsed from a certificate) and, in front of a high bit, another integer.
        XCTAssertNil(crl.entry(forSerialNumber: ArraySlice([0x00] + revokedLeafSerial)))
    }

    func testExpiredCRLFields() throws {
        let crl = try RevocationFixtures.crl("intermediate-expired")
        XCTAssertEqual(crl.thisUpdate, RevocationFixtures.date(2026, 1, 1))
        XCTAssertEqual(crl.nextUpdate, RevocationFixtures.date(2026, 2, 1))
        XCTAssertEqual(crl.crlNumber.map(Array.init), [0x01])
        XCTAssertEqual(crl.entries, [])
    }

    func testWrongSignerCRLParsesWithTheIntermediatesNameAndKeyID() throws {
        let crl = try RevocationFixtures.crl("intermediate-wrong-signer")
        let current = try RevocationFixtures.crl("intermediate-current")
        XCTAssertEqual(crl.issuer, current.issuer)
        XCTAssertEqual(crl.authorityKeyIdentifier?.keyIdentifier.map(Array.init), try RevocationFixtures.intermediateKeyID())
        XCTAssertEqual(crl.entries.map { Array($0.serialNumber) }, [try RevocationFixtures.revokedLeafSerial()])
        XCTAssertEqual(crl.entries.first?.reason, .keyCompromise)
    }

    func testIssuingDistributionPointFields() throws {
        let crl = try RevocationFixtures.crl("intermediate-with-idp")
        let idp = try XCTUnwrap(crl.issuingDistributionPoint)
        XCTAssertEqual(idp.distributionPoint, .fullName([.uniformResourceIdentifier("http://crl.swifttrust.test/ecdsa-intermediate.crl")]))
        XCTAssertTrue(idp.onlyContainsUserCerts)
        XCTAssertFalse(idp.onlyContainsCACerts)
        XCTAssertNil(idp.onlySomeReasons)
        XCTAssertFalse(idp.indirectCRL)
        XCTAssertFalse(idp.onlyContainsAttributeCerts)
        XCTAssertEqual(crl.extensions.first { $0.oid == OID.issuingDistributionPoint }?.isCritical, true)
        XCTAssertEqual(crl.entries.map { Array($0.serialNumber) }, [try RevocationFixtures.revokedLeafSerial()])

        let other = try XCTUnwrap(RevocationFixtures.crl("intermediate-idp-other-dp").issuingDistributionPoint)
        XCTAssertEqual(other.distributionPoint, .fullName([.uniformResourceIdentifier("http://crl.swifttrust.test/other.crl")]))
        XCTAssertTrue(other.onlyContainsUserCerts)
        XCTAssertFalse(other.onlyContainsCACerts)
    }

    func testRootCRLs() throws {
        let root = try TestCertificates.certificate("ecdsa/root.pem")
        let current = try RevocationFixtures.crl("root-current")
        XCTAssertEqual(current.issuer, root.subject)
        XCTAssertEqual(current.crlNumber.map(Array.init), [0x02])
        XCTAssertEqual(current.entries.count, 1)
        XCTAssertEqual(current.entries.first.map { Array($0.serialNumber) }, try RevocationFixtures.revokedIntermediateSerial())
        XCTAssertEqual(current.entries.first?.reason, .caCompromise)
        XCTAssertEqual(current.entries.first?.reason?.description, "cACompromise")
        XCTAssertEqual(current.entries.first?.revocationDate, RevocationFixtures.revocationDate)
        XCTAssertEqual(
            current.authorityKeyIdentifier?.keyIdentifier.map(Array.init),
            root.extensions.subjectKeyIdentifier.map { Array($0.keyIdentifier) })

        let empty = try RevocationFixtures.crl("root-empty")
        XCTAssertEqual(empty.issuer, root.subject)
        XCTAssertEqual(empty.crlNumber.map(Array.init), [0x01])
        XCTAssertEqual(empty.entries, [])
        XCTAssertEqual(empty.thisUpdate, RevocationFixtures.currentThisUpdate)
        XCTAssertEqual(empty.nextUpdate, RevocationFixtures.farNextUpdate)

        let revokedIntermediate = try TestCertificates.certificate("revocation/revoked-intermediate.pem")
        let other = try RevocationFixtures.crl("revoked-intermediate-empty")
        XCTAssertEqual(other.issuer, revokedIntermediate.subject)
        XCTAssertEqual(other.entries, [])
    }

    func testDeltaCRLFields() throws {
        let delta = try RevocationFixtures.crl("intermediate-delta")
        XCTAssertTrue(delta.isDelta)
        XCTAssertEqual(delta.deltaCRLIndicator.map(Array.init), [0x02])
        XCTAssertEqual(delta.crlNumber.map(Array.init), [0x03])
        XCTAssertEqual(delta.extensions.first { $0.oid == OID.deltaCRLIndicator }?.isCritical, true)
        XCTAssertEqual(delta.thisUpdate, RevocationFixtures.date(2026, 5, 15))
        XCTAssertEqual(delta.entries.count, 1)
        XCTAssertEqual(delta.entries.first.map { Array($0.serialNumber) }, try RevocationFixtures.goodLeafSerial())
        XCTAssertEqual(delta.entries.first?.reason, .certificateHold)
        XCTAssertEqual(delta.entries.first?.revocationDate, RevocationFixtures.date(2026, 5, 10))

        let remove = try RevocationFixtures.crl("intermediate-remove-from-crl")
        XCTAssertTrue(remove.isDelta)
        XCTAssertEqual(remove.deltaCRLIndicator.map(Array.init), [0x02])
        XCTAssertEqual(remove.crlNumber.map(Array.init), [0x04])
        XCTAssertEqual(remove.entries.first.map { Array($0.serialNumber) }, try RevocationFixtures.revokedLeafSerial())
        XCTAssertEqual(remove.entries.first?.reason, .removeFromCRL)
        XCTAssertEqual(remove.entries.first?.revocationDate, RevocationFixtures.date(2026, 5, 20))
    }

    func testLargeCRLParsesAndLooksUpBySerial() throws {
        let der = try TestCertificates.bytes("revocation/intermediate-large.crl")
        let started = Date()
        let crl = try CertificateRevocationList(derEncoded: der)
        let parseSeconds = Date().timeIntervalSince(started)
        XCTAssertEqual(crl.entries.count, 100_001)
        XCTAssertEqual(crl.crlNumber.map(Array.init), [0x05])
        let revokedLeaf = try TestCertificates.certificate("revocation/revoked-leaf.pem")
        let goodLeaf = try TestCertificates.certificate("revocation/good-leaf.pem")
        let entry = try XCTUnwrap(crl.entry(forSerialNumber: revokedLeaf.serialNumber))
        XCTAssertEqual(Array(entry.serialNumber), try RevocationFixtures.revokedLeafSerial())
        XCTAssertEqual(entry.reason, .keyCompromise)
        XCTAssertEqual(entry.revocationDate, RevocationFixtures.revocationDate)
        XCTAssertNil(crl.entry(forSerialNumber: goodLeaf.serialNumber))
        // Every listed entry is found by its own serial, and each lookup is a hash lookup: 100,000
        // lookups must take far less time than a linear scan per lookup would.
        let lookups = Date()
        var found = 0
        for listed in crl.entries where crl.entry(forSerialNumber: listed.serialNumber) != nil { found += 1 }
        XCTAssertEqual(found, crl.entries.count)
        XCTAssertLessThan(Date().timeIntervalSince(lookups), 10, "entry(forSerialNumber:) must not scan")
        XCTAssertLessThan(parseSeconds, 30, "parsing 100,000 entries took \(parseSeconds) s")
    }

    // MARK: Hand-modified DER that must be rejected

    /// The tbsCertList children of intermediate-current: version, signature, issuer, thisUpdate,
    /// nextUpdate, revokedCertificates, [0] crlExtensions.
    private func currentTree() throws -> RevocationTLV { try RevocationTLV.parse(TestCertificates.bytes("revocation/intermediate-current.crl")) }
    /// root-empty: version, signature, issuer, thisUpdate, nextUpdate, [0] crlExtensions.
    private func emptyTree() throws -> RevocationTLV { try RevocationTLV.parse(TestCertificates.bytes("revocation/root-empty.crl")) }

    func testFixtureLayoutAssumedByTheEdits() throws {
        let current = try currentTree()
        XCTAssertEqual(current[0].children.map(\.tag), [0x02, 0x30, 0x30, 0x17, 0x18, 0x30, 0xA0])
        let empty = try emptyTree()
        XCTAssertEqual(empty[0].children.map(\.tag), [0x02, 0x30, 0x30, 0x17, 0x18, 0xA0])
    }

    func testDuplicateCRLExtensionIsRejected() throws {
        var tree = try currentTree()
        let crlNumber = tree[0][6][0].children.last!
        XCTAssertEqual(crlNumber[0], .oid("2.5.29.20"))
        tree[0][6][0].children.append(crlNumber)
        assertCRLRejected(tree.der, mentioning: "duplicate extension cRLNumber") {
            if case .duplicateExtension = $0 { true } else { false }
        }
    }

    func testDuplicateEntryExtensionIsRejected() throws {
        var tree = try currentTree()
        // revokedCertificates[0] = SEQUENCE { serial, date, SEQUENCE { reasonCode } }
        let reason = tree[0][5][0][2][0]
        tree[0][5][0][2].children.append(reason)
        assertCRLRejected(tree.der, mentioning: "duplicate extension reasonCode") {
            if case .duplicateExtension = $0 { true } else { false }
        }
    }

    func testEmptyRevokedCertificatesIsRejected() throws {
        var tree = try emptyTree()
        tree[0].children.insert(.sequence([]), at: 5)
        assertCRLRejected(tree.der, mentioning: "empty revokedCertificates must be omitted")
        // Control: the same CRL without the empty list parses.
        XCTAssertEqual(try CertificateRevocationList(derEncoded: try emptyTree().der).entries, [])
    }

    func testVersion1WithExtensionsIsRejected() throws {
        // Drop the version INTEGER: the CRL becomes v1 but still carries crlExtensions.
        var tree = try emptyTree()
        tree[0].children.remove(at: 0)
        assertCRLRejected(tree.der, mentioning: "CRL extensions require v2")

        // v1 with entry extensions is rejected too.
        var withEntries = try currentTree()
        withEntries[0].children.remove(at: 0)
        assertCRLRejected(withEntries.der, mentioning: "require v2")

        // Control: a v1 CRL without any extensions parses, as version 1.
        var plain = try emptyTree()
        plain[0].children.remove(at: 5)
        plain[0].children.remove(at: 0)
        let v1 = try CertificateRevocationList(derEncoded: plain.der)
        XCTAssertEqual(v1.version, 1)
        XCTAssertEqual(v1.extensions, [])
        XCTAssertNil(v1.crlNumber)
    }

    func testVersionOtherThanV2IsRejected() throws {
        for value: UInt8 in [0, 2] {
            var tree = try emptyTree()
            tree[0][0] = .primitive(0x02, [value])
            assertCRLRejected(tree.der, mentioning: "CRL version must be v2")
        }
    }

    func testOuterAndInnerSignatureAlgorithmMismatchIsADefect() throws {
        let sha384 = RevocationTLV.sequence([.oid("1.2.840.10045.4.3.3")])
        var tree = try currentTree()
        tree[1] = sha384
        // The CRL parses (a person can inspect it; an evaluation says why it is not used) and the
        // defect names the outer signatureAlgorithm's offset (not byte 0).
        var top = try DERReader.parseSingle(tree.der).children()
        _ = try top.read(.sequence)
        let outerOffset = try top.read(.sequence).offset
        XCTAssertGreaterThan(outerOffset, 0)
        let outer = try CertificateRevocationList(derEncoded: tree.der)
        XCTAssertEqual(outer.semanticDefects.map(\.offset), [outerOffset])
        XCTAssertTrue(outer.semanticDefects.first?.description.contains("differs from tbsCertList.signature") == true)
        var inner = try currentTree()
        inner[0][1] = sha384
        XCTAssertEqual(try CertificateRevocationList(derEncoded: inner.der).semanticDefects.count, 1)

        // Control: changing both consistently is no defect (the signature is then wrong, which is
        // the checker's business, not the parser's).
        var both = try currentTree()
        both[1] = sha384
        both[0][1] = sha384
        let parsed = try CertificateRevocationList(derEncoded: both.der)
        XCTAssertEqual(parsed.semanticDefects, [])
        XCTAssertEqual(try parsed.signatureAlgorithm(), .ecdsa(.sha384))
    }

    func testUnknownCriticalEntryExtensionIsADefect() throws {
        let unknown = "1.3.6.1.4.1.55555.1"
        var tree = try currentTree()
        tree[0][5][0][2].children.append(.extension(unknown, critical: true, value: RevocationTLV.null.der))
        // RFC 5280 §5.3: the CRL must not be used; it still parses so the evaluation can say so.
        let crl = try CertificateRevocationList(derEncoded: tree.der)
        XCTAssertEqual(crl.semanticDefects.count, 1)
        XCTAssertTrue(crl.semanticDefects.first?.description.contains("unhandled critical CRL entry extension \(unknown)") == true)

        // Control: the same extension, not critical, is ignored.
        var relaxed = try currentTree()
        relaxed[0][5][0][2].children.append(.extension(unknown, critical: false, value: RevocationTLV.null.der))
        let parsed = try CertificateRevocationList(derEncoded: relaxed.der)
        XCTAssertEqual(parsed.semanticDefects, [])
        XCTAssertEqual(parsed.entries.first?.reason, .keyCompromise)
    }

    func testExplicitCriticalFalseStaysRefusedInACRL() throws {
        // A certificate's explicit critical FALSE is read as FALSE (an encoding finding, as Apple's
        // SecCertificateParse reads it); CRLs are still held to DER (X.690 §11.5).
        var tree = try currentTree()
        tree[0][5][0][2].children.append(.sequence([.oid("1.3.6.1.4.1.55555.1"), .primitive(0x01, [0x00]), .octetString(RevocationTLV.null.der)]))
        assertCRLRejected(tree.der, mentioning: "critical FALSE must be omitted")
    }

    func testEntryExtensionsAreDecoded() throws {
        // invalidityDate (GeneralizedTime) and certificateIssuer (GeneralNames) entry extensions.
        var tree = try currentTree()
        let invalidity = RevocationTLV.primitive(0x18, Array("20260315000000Z".utf8))
        let issuerNames = RevocationTLV.sequence([.primitive(0x86, Array("http://issuer.test".utf8))])
        tree[0][5][0][2].children += [
            .extension("2.5.29.24", critical: false, value: invalidity.der),
            .extension("2.5.29.29", critical: true, value: issuerNames.der),
        ]
        let entry = try XCTUnwrap(CertificateRevocationList(derEncoded: tree.der).entries.first)
        XCTAssertEqual(entry.invalidityDate, RevocationFixtures.date(2026, 3, 15))
        XCTAssertEqual(entry.certificateIssuer, [.uniformResourceIdentifier("http://issuer.test")])

        // A reasonCode of 7 (unused) is invalid.
        var badReason = try currentTree()
        badReason[0][5][0][2][0][1] = .octetString([0x0A, 0x01, 0x07])
        assertCRLRejected(badReason.der, mentioning: "invalid CRLReason 7")
    }

    func testIssuingDistributionPointWithTwoOnlyFlagsIsRejected() throws {
        var tree = try RevocationTLV.parse(TestCertificates.bytes("revocation/intermediate-with-idp.crl"))
        let extensions = tree[0][6][0]
        let idpIndex = try XCTUnwrap(extensions.children.firstIndex { $0[0] == .oid("2.5.29.28") })
        let valueIndex = extensions[idpIndex].children.count - 1
        var idp = try extensions[idpIndex][valueIndex].parsedContent()
        XCTAssertEqual(idp.children.map(\.tag), [0xA0, 0x81], "fullName + onlyContainsUserCerts")

        // onlyContainsUserCerts and onlyContainsCACerts together.
        var twoFlags = idp
        twoFlags.children.append(.primitive(0x82, [0xFF]))
        tree[0][6][0][idpIndex][valueIndex] = .octetString(twoFlags.der)
        assertCRLRejected(tree.der, mentioning: "more than one only-contains flag") {
            if case .malformedExtension(name: "issuingDistributionPoint", _, _) = $0 { true } else { false }
        }

        // onlyContainsUserCerts and onlyContainsAttributeCerts together.
        var userAndAttribute = idp
        userAndAttribute.children.append(.primitive(0x85, [0xFF]))
        tree[0][6][0][idpIndex][valueIndex] = .octetString(userAndAttribute.der)
        assertCRLRejected(tree.der, mentioning: "more than one only-contains flag")

        // Control: one flag (CA certificates only, instead of user certificates) parses.
        idp[1] = .primitive(0x82, [0xFF])
        tree[0][6][0][idpIndex][valueIndex] = .octetString(idp.der)
        let parsed = try XCTUnwrap(CertificateRevocationList(derEncoded: tree.der).issuingDistributionPoint)
        XCTAssertTrue(parsed.onlyContainsCACerts)
        XCTAssertFalse(parsed.onlyContainsUserCerts)

        // A flag explicitly FALSE is not DER (DEFAULT FALSE is omitted).
        idp[1] = .primitive(0x81, [0x00])
        tree[0][6][0][idpIndex][valueIndex] = .octetString(idp.der)
        assertCRLRejected(tree.der, mentioning: "flag must be TRUE")
    }

    func testStructuralDamageIsRejected() throws {
        let der = try TestCertificates.bytes("revocation/intermediate-current.crl")
        // Truncation and trailing garbage.
        XCTAssertThrowsError(try CertificateRevocationList(derEncoded: Array(der.dropLast())))
        XCTAssertThrowsError(try CertificateRevocationList(derEncoded: der + [0x00]))
        // A signature BIT STRING with unused bits is sound DER but no signature: a semantic defect.
        var tree = try currentTree()
        tree[2].content[0] = 0x01
        let partial = try CertificateRevocationList(derEncoded: tree.der)
        XCTAssertTrue(partial.semanticDefects.contains { if case .signatureNotWholeOctets = $0 { true } else { false } })
    }
}
