import TrustDER
@testable import TrustX509
import XCTest

private typealias B = DERBuilder

/// Bounded parsing work (issue 13 items 8 and 10): a size cap, duplicate detection that is linear
/// in the number of extensions and policies, and hashing that attackers cannot collide.
final class ParsingBoundsTests: XCTestCase {
    /// `count` distinct unknown, non-critical, empty extensions under a private arc.
    private func unknownExtensions(_ count: Int) -> [[UInt8]] {
        (0..<count).map { B.extension("1.3.6.1.4.1.55555.\($0)", value: []) }
    }

    func testTwentyThousandUnknownExtensionsAreRejectedByTheSizeCap() throws {
        var template = try CertificateTemplate.load()
        template.extensions = (template.extensions ?? []) + unknownExtensions(20_000)
        XCTAssertGreaterThan(template.der.count, Certificate.maximumEncodedSize)
        assertX509Error(try template.parse()) { error in
            XCTAssertEqual(error.reason, .certificateTooLarge(size: template.der.count, limit: Certificate.maximumEncodedSize))
            XCTAssertEqual(error.description, "certificate is \(template.der.count) bytes, more than the 65536 accepted")
        }
        // Through the loader too, naming the certificate's position.
        XCTAssertThrowsError(try Certificate.loadAll(pem: PEM.encode(template.der, label: "CERTIFICATE"))) { error in
            XCTAssertEqual((error as? CertificateLoadingError)?.index, 0)
        }
    }

    func testACertificateJustUnderTheCapWithThousandsOfExtensionsParses() throws {
        var template = try CertificateTemplate.load()
        let known = template.extensions ?? []
        // As many as fit under the cap (an estimate, then trimmed).
        let perExtension = unknownExtensions(1)[0].count + 1
        var count = (Certificate.maximumEncodedSize - template.der.count) / perExtension
        template.extensions = known + unknownExtensions(count)
        while template.der.count <= Certificate.maximumEncodedSize {
            count += 1
            template.extensions = known + unknownExtensions(count)
        }
        while template.der.count > Certificate.maximumEncodedSize {
            count -= 1
            template.extensions = known + unknownExtensions(count)
        }
        XCTAssertGreaterThan(count, 3_000)
        XCTAssertGreaterThan(template.der.count, Certificate.maximumEncodedSize - 64)
        let certificate = try template.parse()
        XCTAssertEqual(certificate.extensions.all.count, known.count + count)
        XCTAssertEqual(certificate.extensions.all.last?.oid.dotted, "1.3.6.1.4.1.55555.\(count - 1)")
    }

    func testDuplicateUnknownExtensionIsStillRejectedAmongThousands() throws {
        var template = try CertificateTemplate.load()
        let many = unknownExtensions(3_000)
        // The last one repeats the first unknown one (RFC 5280 §4.2).
        template.extensions = (template.extensions ?? []) + many + [many[0]]
        assertX509Error(try template.parse()) { error in
            XCTAssertEqual(
                error.reason,
                .duplicateExtension(
                    oid: "1.3.6.1.4.1.55555.0",
                    offset: template.der.count
                        - template.signatureValue.count - template.outerSignatureAlgorithm.count - many[0].count))
        }
        // A repeated known extension among them as well.
        var known = try CertificateTemplate.load()
        let index = try XCTUnwrap(known.extensionOIDs.firstIndex(of: TestOID.basicConstraints))
        let basicConstraints = try XCTUnwrap(known.extensions?[index])
        known.extensions = (known.extensions ?? []) + many + [basicConstraints]
        assertX509Error(try known.parse()) { error in
            guard case let .duplicateExtension(oid, _) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(oid, "basicConstraints")
        }
    }

    func testThousandsOfPoliciesParseAndADuplicateIsRejected() throws {
        let policies = (0..<3_000).map { B.sequence(B.oid("1.3.6.1.4.1.55555.7.\($0)")) }
        var template = try CertificateTemplate.load()
        template.setExtension(TestOID.certificatePolicies, value: B.sequence(policies))
        XCTAssertEqual(try template.parse().extensions.certificatePolicies?.policies.count, 3_000)
        // RFC 5280 §4.2.1.4: the same policy twice, far apart.
        template.setExtension(TestOID.certificatePolicies, value: B.sequence(policies + [policies[1]]))
        assertX509Error(try template.parse()) { error in
            guard case let .malformedExtension(name, underlying, _) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "certificatePolicies")
            XCTAssertTrue(underlying.contains("1.3.6.1.4.1.55555.7.1 twice"), underlying)
        }
    }

    /// Short lists are checked by direct comparison, longer ones through a set: a duplicate is
    /// found on both sides of the switch, and at it.
    func testADuplicatePolicyIsRejectedInShortAndLongLists() throws {
        let policies = (0..<20).map { B.sequence(B.oid("1.3.6.1.4.1.55555.7.\($0)")) }
        var template = try CertificateTemplate.load()
        for count in 1...(CertificatePolicies.linearLimit + 3) {
            template.setExtension(TestOID.certificatePolicies, value: B.sequence(Array(policies.prefix(count))))
            XCTAssertEqual(try template.parse().extensions.certificatePolicies?.policies.count, count)
            for repeated in [0, count - 1] {
                template.setExtension(TestOID.certificatePolicies, value: B.sequence(Array(policies.prefix(count)) + [policies[repeated]]))
                assertX509Error(try template.parse()) { error in
                    guard case let .malformedExtension(_, underlying, _) = error.reason else { return XCTFail("\(error)") }
                    XCTAssertTrue(underlying.contains("1.3.6.1.4.1.55555.7.\(repeated) twice"), "\(count): \(underlying)")
                }
            }
        }
    }

    /// Attackers choose the signature bytes: certificates that share them (here: all of them)
    /// must still hash apart, so sets and stores stay hash lookups.
    func testCertificatesSharingTheirSignatureHashApart() throws {
        var template = try CertificateTemplate.load()
        var certificates: [Certificate] = []
        for serial in 1...2_000 {
            template.serialNumber = B.integer(UInt64(0x0100_0000 + serial))
            certificates.append(try template.parse())
        }
        XCTAssertEqual(Set(certificates.map(\.signature)).count, 1, "every certificate has the same signature")
        XCTAssertEqual(Set(certificates.map(\.derEncoded.count)).count, 1, "and the same length")
        let hashes = Set(certificates.map(\.hashValue))
        XCTAssertGreaterThan(hashes.count, 1_990, "hash values collide")
        XCTAssertEqual(Set(certificates).count, 2_000)
        // The same certificate parsed twice hashes the same (Hashable's contract).
        XCTAssertEqual(try template.parse().hashValue, try template.parse().hashValue)
    }
}
