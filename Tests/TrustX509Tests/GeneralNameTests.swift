import Foundation
import TrustDER
import TrustX509
import XCTest

/// GeneralName display forms and the IA5 rules for the string choices.
final class GeneralNameTests: XCTestCase {
    typealias B = DERBuilder

    private func ipv6(_ hex: String) -> String { GeneralName.formatIP(ArraySlice(bytes(hex: hex))) }

    // MARK: - RFC 5952 IPv6 text

    func testIPv6CompressesTheLongestZeroRun() {
        XCTAssertEqual(ipv6("20010db8000000000000000000000001"), "2001:db8::1")
        XCTAssertEqual(ipv6("20010db8000000000000000000000010"), "2001:db8::10")
        XCTAssertEqual(ipv6("00000000000000000000000000000000"), "::")
        XCTAssertEqual(ipv6("00000000000000000000000000000001"), "::1")
        XCTAssertEqual(ipv6("20010db8000000000000000000000000"), "2001:db8::")
        XCTAssertEqual(ipv6("fe800000000000000000000000000000"), "fe80::")
        XCTAssertEqual(ipv6("000000000000000000000000c0000201"), "::c000:201")
    }

    func testIPv6DoesNotCompressASingleZeroGroup() {
        // RFC 5952 §4.2.2: "::" MUST NOT be used to shorten just one 16-bit 0 field.
        XCTAssertEqual(ipv6("20010db8000000010001000100010001"), "2001:db8:0:1:1:1:1:1")
        XCTAssertEqual(ipv6("00010002000300040005000600070000"), "1:2:3:4:5:6:7:0")
        XCTAssertEqual(ipv6("00000001000200030004000500060007"), "0:1:2:3:4:5:6:7")
    }

    func testIPv6PicksTheLongestRunThenTheFirst() {
        // RFC 5952 §4.2.3: the longest run is shortened; on a tie, the first one.
        XCTAssertEqual(ipv6("20010000000000010000000000000001"), "2001:0:0:1::1")
        XCTAssertEqual(ipv6("20010db8000000000001000000000001"), "2001:db8::1:0:0:1")
        XCTAssertEqual(ipv6("00000000000100000000000000000000"), "0:0:1::")
    }

    func testIPv6IsLowerCaseWithoutLeadingZeros() {
        // RFC 5952 §4.1 (leading zeros suppressed) and §4.3 (lower case).
        XCTAssertEqual(ipv6("20010DB8ABCD00EF000A000000000001"), "2001:db8:abcd:ef:a::1")
        XCTAssertEqual(ipv6("ffffffffffffffffffffffffffffffff"), "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")
    }

    // MARK: - IPv4 and address/mask pairs

    func testIPv4() {
        XCTAssertEqual(GeneralName.formatIP([192, 0, 2, 10]), "192.0.2.10")
        XCTAssertEqual(GeneralName.formatIP([0, 0, 0, 0]), "0.0.0.0")
        XCTAssertEqual(GeneralName.formatIP([255, 255, 255, 255]), "255.255.255.255")
        XCTAssertEqual(GeneralName.ipAddress([198, 51, 100, 1]).description, "IP:198.51.100.1")
    }

    func testAddressAndMask() {
        XCTAssertEqual(GeneralName.formatIP([192, 0, 2, 0, 255, 255, 255, 0]), "192.0.2.0/255.255.255.0")
        XCTAssertEqual(
            GeneralName.formatIP(ArraySlice(bytes(hex: "20010db8000000000000000000000000 ffffffff000000000000000000000000"))),
            "2001:db8::/ffff:ffff::")
        XCTAssertEqual(
            GeneralName.formatIP(ArraySlice(bytes(hex: "00000000000000000000000000000000 00000000000000000000000000000000"))),
            "::/::")
        XCTAssertEqual(GeneralName.ipAddress([10, 0, 0, 0, 255, 0, 0, 0]).description, "IP:10.0.0.0/255.0.0.0")
    }

    func testSlicesWithNonZeroStartIndexFormatCorrectly() {
        // formatIP takes an ArraySlice: a slice of a larger buffer keeps its absolute indices.
        let buffer: [UInt8] = [0xAA, 0xBB, 192, 0, 2, 1, 0xCC]
        XCTAssertEqual(GeneralName.formatIP(buffer[2..<6]), "192.0.2.1")
        let v6 = [0xEE] + bytes(hex: "20010db8000000000000000000000001")
        XCTAssertEqual(GeneralName.formatIP(v6[1...]), "2001:db8::1")
    }

    func testOtherLengthsAreNotAddresses() {
        XCTAssertEqual(GeneralName.formatIP([]), "<0 octets>")
        XCTAssertEqual(GeneralName.formatIP([1, 2, 3]), "<3 octets>")
        XCTAssertEqual(GeneralName.formatIP([1, 2, 3, 4, 5]), "<5 octets>")
    }

    // MARK: - Descriptions

    func testDescriptions() throws {
        XCTAssertEqual(GeneralName.dnsName("www.swifttrust.test").description, "DNS:www.swifttrust.test")
        XCTAssertEqual(GeneralName.rfc822Name("a@swifttrust.test").description, "email:a@swifttrust.test")
        XCTAssertEqual(GeneralName.uniformResourceIdentifier("http://x.test/").description, "URI:http://x.test/")
        XCTAssertEqual(GeneralName.registeredID(ASN1ObjectIdentifier(dotted: "1.2.3")!).description, "RID:1.2.3")
        let name = try DistinguishedName(der: B.name([(TestOID.organizationName, "O"), (TestOID.commonName, "C")]))
        XCTAssertEqual(GeneralName.directoryName(name).description, "DirName:CN=C,O=O")
    }

    // MARK: - IA5String choices (through a certificate's subjectAltName)

    private func certificate(withSAN names: [UInt8]...) throws -> CertificateTemplate {
        var template = try CertificateTemplate.load()
        template.setExtension(TestOID.subjectAltName, value: B.sequence(names))
        return template
    }

    private func assertSANRejected(_ template: CertificateTemplate, file: StaticString = #filePath, line: UInt = #line) {
        assertX509Error(try template.parse(), file: file, line: line) { error in
            guard case let .malformedExtension(name, underlying, _) = error.reason else {
                return XCTFail("expected a malformed subjectAltName, got \(error)", file: file, line: line)
            }
            XCTAssertEqual(name, "subjectAltName", file: file, line: line)
            XCTAssertFalse(underlying.isEmpty, file: file, line: line)
        }
    }

    /// A dNSName with non-ASCII bytes parses (as OpenSSL, pyca and Chromium read it) and is
    /// recorded as a defect at the name's offset, for validation to reject.
    func testNonIA5DNSNameIsADefectNotAParseError() throws {
        // "bücher.test" in UTF-8: IA5String allows only 0x00–0x7F (IDNs must be A-labels).
        for bad in [Array("bücher.test".utf8), [0x61, 0x80], [0xFF]] {
            let name = B.context(2, constructed: false, bad)
            let template = try certificate(withSAN: B.dnsName("ok.swifttrust.test"), name)
            let certificate = try template.parse()
            let offset = try XCTUnwrap(lastOffset(of: name, in: template.der))
            XCTAssertEqual(certificate.semanticDefects, [.nonASCIIDNSName(offset: offset)])
            XCTAssertEqual(certificate.dnsNames.first, "ok.swifttrust.test")
        }
        // The A-label form is fine.
        let good = try certificate(withSAN: B.dnsName("xn--bcher-kva.test")).parse()
        XCTAssertEqual(good.dnsNames, ["xn--bcher-kva.test"])
        XCTAssertEqual(good.semanticDefects, [])
    }

    func testNonIA5EmailAndURIAreRejected() throws {
        assertSANRejected(try certificate(withSAN: B.context(1, constructed: false, Array("ü@swifttrust.test".utf8))))
        assertSANRejected(try certificate(withSAN: B.context(6, constructed: false, Array("http://ü.test/".utf8))))
    }

    func testConstructedStringChoicesAreRejected() throws {
        // A dNSName must be primitive.
        assertSANRejected(try certificate(withSAN: B.context(2, constructed: true, B.ia5String("www.swifttrust.test"))))
        // An iPAddress must be primitive.
        assertSANRejected(try certificate(withSAN: B.context(7, constructed: true, [0x04, 0x04, 192, 0, 2, 1])))
        // Unknown GeneralName choice [9].
        assertSANRejected(try certificate(withSAN: B.context(9, constructed: false, [0x01])))
        // A universal tag is not a GeneralName.
        assertSANRejected(try certificate(withSAN: B.ia5String("www.swifttrust.test")))
    }
}
