import Foundation
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

/// RFC 4514 rendering and RFC 5280 §7.1 comparison of X.501 names.
final class DistinguishedNameTests: XCTestCase {
    typealias B = DERBuilder

    private func name(_ rdns: [[[UInt8]]]) throws -> DistinguishedName { try DistinguishedName(der: B.name(rdns)) }

    /// A name of single-valued RDNs with UTF8String values, most significant first.
    private func name(_ pairs: [(String, String)]) throws -> DistinguishedName { try DistinguishedName(der: B.name(pairs)) }

    private func cn(_ value: String) throws -> DistinguishedName { try name([(TestOID.commonName, value)]) }

    // MARK: - RFC 4514 strings

    func testReverseOrder() throws {
        let dn = try name([(TestOID.countryName, "US"), (TestOID.organizationName, "Example"), (TestOID.commonName, "leaf")])
        XCTAssertEqual(dn.description, "CN=leaf,O=Example,C=US")
        XCTAssertEqual(dn.rdns.count, 3)
        XCTAssertEqual(dn.rdns.first?.first?.stringValue, "US")
        XCTAssertEqual(dn.commonNames, ["leaf"])
        XCTAssertEqual(try TestCertificates.certificate("ecdsa/leaf.pem").subject.description, "CN=www.swifttrust.test,O=SwiftTrust")
        XCTAssertEqual(try DistinguishedName(der: B.sequence()).description, "")
        XCTAssertTrue(try DistinguishedName(der: B.sequence()).isEmpty)
    }

    func testSpecialCharactersAreEscaped() throws {
        XCTAssertEqual(try cn("a,b").description, "CN=a\\,b")
        XCTAssertEqual(try cn("a+b").description, "CN=a\\+b")
        XCTAssertEqual(try cn("say \"hi\"").description, "CN=say \\\"hi\\\"")
        XCTAssertEqual(try cn("back\\slash").description, "CN=back\\\\slash")
        XCTAssertEqual(try cn("<a>;b").description, "CN=\\<a\\>\\;b")
        XCTAssertEqual(try cn("a=b").description, "CN=a=b", "= needs no escape in a value (RFC 4514 §2.4)")
        XCTAssertEqual(try cn("nul\u{0}").description, "CN=nul\\00")
    }

    func testLeadingHashAndLeadingOrTrailingSpacesAreEscaped() throws {
        XCTAssertEqual(try cn("#hash").description, "CN=\\#hash")
        XCTAssertEqual(try cn("in#side#").description, "CN=in#side#", "only a leading # is escaped")
        XCTAssertEqual(try cn(" lead").description, "CN=\\ lead")
        XCTAssertEqual(try cn("trail ").description, "CN=trail\\ ")
        XCTAssertEqual(try cn(" both ").description, "CN=\\ both\\ ")
        XCTAssertEqual(try cn("in  side").description, "CN=in  side", "inner spaces are kept as is")
        XCTAssertEqual(try cn(" ").description, "CN=\\ ")
        XCTAssertEqual(try cn("café").description, "CN=café", "UTF-8 is written as is (RFC 4514 §2.4)")
    }

    func testMultiValuedRDNIsJoinedWithPlus() throws {
        let dn = try name([
            [B.attribute(TestOID.organizationName, B.utf8String("Org"))],
            [B.attribute(TestOID.commonName, B.utf8String("x")), B.attribute(TestOID.userID, B.utf8String("y"))],
        ])
        XCTAssertEqual(dn.rdns.count, 2)
        XCTAssertEqual(dn.rdns[1].count, 2)
        XCTAssertEqual(dn.description, "CN=x+UID=y,O=Org")
        XCTAssertEqual(dn.commonNames, ["x"])
        XCTAssertEqual(dn.values(of: ASN1ObjectIdentifier(dotted: TestOID.userID)!), ["y"])
    }

    func testNonStringValuesUseTheHexForm() throws {
        // An OCTET STRING value has no string form: `#` + hex of the whole BER encoding (RFC 4514 §2.4).
        let dn = try name([[B.attribute(TestOID.commonName, B.octetString([0xDE, 0xAD]))]])
        XCTAssertNil(dn.rdns[0][0].stringValue)
        XCTAssertEqual(dn.description, "CN=#0402dead")
    }

    func testDottedTypesUseTheHexForm() throws {
        // RFC 4514 §2.4: "If the AttributeType is of the dotted-decimal form, the AttributeValue is
        // represented by an number sign ('#') character followed by the hexadecimal encoding".
        let dn = try name([[B.attribute("1.2.3.4", B.utf8String("abc"))], [B.attribute(TestOID.commonName, B.utf8String("n"))]])
        XCTAssertEqual(dn.description, "CN=n,1.2.3.4=#0c03616263")
        XCTAssertEqual(dn.values(of: ASN1ObjectIdentifier(dotted: "1.2.3.4")!), ["abc"])
    }

    // MARK: - RFC 5280 §7.1 equality

    func testPrintableStringAndUTF8StringWithTheSameTextAreEqual() throws {
        let printable = try name([[B.attribute(TestOID.commonName, B.printableString("Example CA"))]])
        let utf8 = try name([[B.attribute(TestOID.commonName, B.utf8String("Example CA"))]])
        XCTAssertNotEqual(printable.der, utf8.der)
        XCTAssertEqual(printable, utf8)
        XCTAssertEqual(printable.hashValue, utf8.hashValue)
        XCTAssertEqual(printable.rdns[0][0].valueTag, .printableString)
        XCTAssertEqual(utf8.rdns[0][0].valueTag, .utf8String)
    }

    func testComparisonIsCaseInsensitive() throws {
        XCTAssertEqual(try cn("Example CA"), try cn("EXAMPLE ca"))
        XCTAssertEqual(try cn("ÉCOLE"), try cn("école"))
        XCTAssertNotEqual(try cn("Example CA"), try cn("Example CB"))
    }

    func testWhitespaceIsFolded() throws {
        XCTAssertEqual(try cn("Example   CA"), try cn("Example CA"), "internal runs fold to one space")
        XCTAssertEqual(try cn("Example\tCA"), try cn("Example CA"))
        XCTAssertEqual(try cn("  Example CA  "), try cn("Example CA"), "leading and trailing spaces are ignored")
        XCTAssertNotEqual(try cn("ExampleCA"), try cn("Example CA"), "a space is not removed entirely")
    }

    func testAttributeOrderInsideAMultiValuedRDNDoesNotMatter() throws {
        // DER sorts a SET OF by encoding, so these two RDNs hold the same attributes (after whitespace
        // folding) in different encoded orders: the long CN sorts after O, the short one before it.
        let shortCN = B.attribute(TestOID.commonName, B.utf8String("a"))
        let longCN = B.attribute(TestOID.commonName, B.utf8String("     a     "))
        let org = B.attribute(TestOID.organizationName, B.utf8String("xyz"))
        let first = try name([[shortCN, org]])
        let second = try name([[longCN, org]])
        XCTAssertEqual(first.rdns[0].map(\.type.dotted), [TestOID.commonName, TestOID.organizationName])
        XCTAssertEqual(second.rdns[0].map(\.type.dotted), [TestOID.organizationName, TestOID.commonName])
        XCTAssertEqual(first, second)
        XCTAssertEqual(first.hashValue, second.hashValue)
    }

    func testDifferentRDNStructureIsNotEqual() throws {
        let org = B.attribute(TestOID.organizationName, B.utf8String("Org"))
        let common = B.attribute(TestOID.commonName, B.utf8String("leaf"))
        let twoRDNs = try name([[org], [common]])
        let oneRDN = try name([[org, common]])
        XCTAssertNotEqual(twoRDNs, oneRDN)
        XCTAssertNotEqual(twoRDNs, try name([[org]]))
        XCTAssertNotEqual(twoRDNs, try name([[org], [common], [common]]))
        XCTAssertNotEqual(twoRDNs, try name([[common], [org]]), "RDN order matters")
        XCTAssertNotEqual(try cn("x"), try name([(TestOID.organizationName, "x")]), "attribute type matters")
    }

    func testHashIsConsistentWithEquality() throws {
        let variants = try [
            cn("Example CA"), cn("example ca"), cn("  EXAMPLE   CA "),
            name([[B.attribute(TestOID.commonName, B.printableString("Example CA"))]]),
        ]
        for a in variants {
            for b in variants {
                XCTAssertEqual(a, b)
                XCTAssertEqual(a.hashValue, b.hashValue)
            }
        }
        let set = Set(variants + [try cn("Other")])
        XCTAssertEqual(set.count, 2)
        XCTAssertTrue(set.contains(try cn("EXAMPLE CA")))
    }

    func testCertificateIssuerEqualsIssuingSubject() throws {
        let leaf = try TestCertificates.certificate("ecdsa/leaf.pem")
        let intermediate = try TestCertificates.certificate("ecdsa/intermediate.pem")
        XCTAssertEqual(leaf.issuer, intermediate.subject)
        XCTAssertNotEqual(leaf.subject, intermediate.subject)
        XCTAssertTrue(try TestCertificates.certificate("ecdsa/root.pem").isSelfIssued)
        XCTAssertTrue(try TestCertificates.certificate("ecdsa/self-signed-leaf.pem").isSelfIssued)
        XCTAssertFalse(leaf.isSelfIssued)
    }

    // MARK: - hasPrefix

    func testHasPrefix() throws {
        let full = try name([(TestOID.countryName, "US"), (TestOID.organizationName, "Example"), (TestOID.commonName, "leaf")])
        XCTAssertTrue(full.hasPrefix(full))
        XCTAssertTrue(full.hasPrefix(try name([(TestOID.countryName, "US")])))
        XCTAssertTrue(
            full.hasPrefix(try name([(TestOID.countryName, "us"), (TestOID.organizationName, "  EXAMPLE ")])),
            "prefix RDNs compare per RFC 5280 §7.1")
        XCTAssertTrue(full.hasPrefix(try DistinguishedName(der: B.sequence())), "the empty name is a prefix of every name")
        XCTAssertFalse(full.hasPrefix(try name([(TestOID.organizationName, "Example")])), "must match from the first RDN")
        XCTAssertFalse(full.hasPrefix(try name([(TestOID.countryName, "US"), (TestOID.organizationName, "Other")])))
        XCTAssertFalse(try name([(TestOID.countryName, "US")]).hasPrefix(full), "a longer name is not a prefix")
        XCTAssertFalse(full.hasPrefix(try name([(TestOID.countryName, "USA")])), "whole values, not string prefixes")

        // A multi-valued RDN must match as a whole.
        let multi = try name([
            [B.attribute(TestOID.countryName, B.printableString("US"))],
            [B.attribute(TestOID.organizationName, B.utf8String("Example")), B.attribute(TestOID.organizationalUnitName, B.utf8String("Unit"))],
            [B.attribute(TestOID.commonName, B.utf8String("leaf"))],
        ])
        XCTAssertFalse(multi.hasPrefix(try name([(TestOID.countryName, "US"), (TestOID.organizationName, "Example")])))
        XCTAssertTrue(
            multi.hasPrefix(
                try name([
                    [B.attribute(TestOID.countryName, B.utf8String("us"))],
                    [
                        B.attribute(TestOID.organizationalUnitName, B.utf8String("unit")),
                        B.attribute(TestOID.organizationName, B.utf8String("example")),
                    ],
                ])))

        let intermediate = try TestCertificates.certificate("ecdsa/intermediate.pem").subject
        XCTAssertTrue(try TestCertificates.certificate("ecdsa/leaf.pem").subject.hasPrefix(try name([(TestOID.organizationName, "SwiftTrust")])))
        XCTAssertTrue(intermediate.hasPrefix(try name([[B.attribute(TestOID.organizationName, B.printableString("SWIFTTRUST"))]])))
    }

    // MARK: - DER rules

    func testUnsortedSetOfIsRejected() throws {
        let common = B.attribute(TestOID.commonName, B.utf8String("x"))
        let org = B.attribute(TestOID.organizationName, B.utf8String("y"))
        let sorted = [common, org].sorted { $0.lexicographicallyPrecedes($1) }
        XCTAssertNoThrow(try DistinguishedName(der: B.sequence(B.set(sorted))))
        let unsorted = B.sequence(B.set(sorted.reversed()))
        assertX509Error(try DistinguishedName(der: unsorted)) { error in
            guard case let .der(derError) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(derError.rule, .unsortedSet)
            XCTAssertEqual(derError.offset, 4 + sorted[1].count, "at the second attribute")
        }
    }

    func testMalformedNamesAreRejected() throws {
        // Empty RDN.
        assertX509Error(try DistinguishedName(der: B.sequence(B.set([])))) { error in
            guard case .invalidStructure = error.reason else { return XCTFail("\(error)") }
        }
        // Not a SEQUENCE.
        XCTAssertThrowsError(try DistinguishedName(der: B.set([])))
        // Invalid PrintableString character.
        XCTAssertThrowsError(try DistinguishedName(der: B.name([[B.attribute(TestOID.commonName, B.printableString("a@b"))]])))
        // Invalid UTF-8.
        XCTAssertThrowsError(try DistinguishedName(der: B.name([[B.attribute(TestOID.commonName, B.tlv(0x0C, [0xC3]))]])))
        // Trailing bytes after the Name.
        XCTAssertThrowsError(try DistinguishedName(der: B.name([(TestOID.commonName, "x")]) + [0x00]))
    }
}
