import TrustCrypto
import TrustDER
@testable import TrustX509
import XCTest

private typealias B = DERBuilder

/// Inner/outer signature algorithms compared as algorithms; semantic defects recorded, not thrown.
final class SemanticDefectTests: XCTestCase {
    private static let sha256WithRSA = "1.2.840.113549.1.1.11"
    private static let sha384WithRSA = "1.2.840.113549.1.1.12"
    private static let rsassaPSS = "1.2.840.113549.1.1.10"

    /// The offset of the outer signatureAlgorithm in `der`.
    private func outerAlgorithmOffset(_ der: [UInt8]) throws -> Int {
        var top = try DERReader.parseSingle(der).children()
        _ = try top.read(.sequence)
        return try top.read(.sequence).offset
    }

    func testAbsentAndNullRSAParametersAreTheSameAlgorithm() throws {
        var template = try CertificateTemplate.load("rsa/leaf.pem")
        // Inner absent, outer NULL (the Alamofire test certificates), and the reverse.
        template.innerSignatureAlgorithm = B.sequence(B.oid(Self.sha256WithRSA))
        template.outerSignatureAlgorithm = B.sequence(B.oid(Self.sha256WithRSA), B.null)
        XCTAssertEqual(try template.parse().semanticDefects, [])
        swap(&template.innerSignatureAlgorithm, &template.outerSignatureAlgorithm)
        let reversed = try template.parse()
        XCTAssertEqual(reversed.semanticDefects, [])
        // Absent parameters verify like NULL ones (RFC 4055 §5).
        XCTAssertEqual(try reversed.signatureAlgorithm(), .rsaPKCS1v15(.sha256))
    }

    func testDifferentAlgorithmsAreAMismatchDefectAtTheOuterField() throws {
        var template = try CertificateTemplate.load("rsa/leaf.pem")
        template.outerSignatureAlgorithm = B.sequence(B.oid(Self.sha384WithRSA), B.null)
        let certificate = try template.parse()
        let offset = try outerAlgorithmOffset(template.der)
        XCTAssertGreaterThan(offset, 0)
        guard case let .signatureAlgorithmMismatch(inner, outer, at)? = certificate.semanticDefects.first else {
            return XCTFail("\(certificate.semanticDefects)")
        }
        XCTAssertEqual(certificate.semanticDefects.count, 1)
        XCTAssertEqual(inner.description, "sha256WithRSAEncryption")
        XCTAssertEqual(outer.description, "sha384WithRSAEncryption")
        XCTAssertEqual(at, offset)
        XCTAssertTrue(certificate.semanticDefects[0].description.hasSuffix("at byte \(offset)"))
        XCTAssertEqual(certificate.tbsSignatureAlgorithmIdentifier, inner)
        XCTAssertEqual(certificate.signatureAlgorithmIdentifier, outer)
    }

    func testOnlyRSAPKCS1TreatsNullAsAbsent() throws {
        // ECDSA: NULL parameters added to one copy is a mismatch (RFC 5758 §3.2: absent).
        var template = try CertificateTemplate.load()
        template.outerSignatureAlgorithm = B.sequence(B.oid(TestOID.ecdsaWithSHA256), B.null)
        XCTAssertEqual(try template.parse().semanticDefects.count, 1)
        // Both changed together: no defect.
        template.innerSignatureAlgorithm = B.sequence(B.oid(TestOID.ecdsaWithSHA384))
        template.outerSignatureAlgorithm = B.sequence(B.oid(TestOID.ecdsaWithSHA384))
        XCTAssertEqual(try template.parse().semanticDefects, [])
        // RSA with parameters other than NULL is compared byte for byte.
        var rsa = try CertificateTemplate.load("rsa/leaf.pem")
        rsa.innerSignatureAlgorithm = B.sequence(B.oid(Self.sha256WithRSA))
        rsa.outerSignatureAlgorithm = B.sequence(B.oid(Self.sha256WithRSA), B.integer(0))
        XCTAssertEqual(try rsa.parse().semanticDefects.count, 1)
    }

    func testRSAPSSParametersMustMatchExactly() throws {
        var template = try CertificateTemplate.load("scenarios/leaf-pss.pem")
        XCTAssertEqual(try template.parse().semanticDefects, [])
        // The same PSS parameters with another salt length in the outer copy only.
        template.outerSignatureAlgorithm = pss(saltLength: 0x40)
        let certificate = try template.parse()
        guard case .signatureAlgorithmMismatch? = certificate.semanticDefects.first else {
            return XCTFail("\(certificate.semanticDefects)")
        }
        XCTAssertEqual(certificate.semanticDefects.count, 1)
    }

    func testInvalidOrUnsupportedRSAPSSParametersAreADefect() throws {
        var template = try CertificateTemplate.load("scenarios/leaf-pss.pem")
        // MGF 1.2.3.4 (unsupported) in both copies: no mismatch, but a PSS defect.
        template.innerSignatureAlgorithm = pss(saltLength: 0x20, mgf: "1.2.3.4")
        template.outerSignatureAlgorithm = template.innerSignatureAlgorithm
        let unsupported = try template.parse()
        let offset = try outerAlgorithmOffset(template.der)
        XCTAssertEqual(unsupported.semanticDefects, [.invalidRSAPSSParameters(.unsupportedAlgorithm("1.2.3.4"), offset: offset)])
        // Parameters missing altogether (RFC 4055 §3.1: required in a signature).
        template.innerSignatureAlgorithm = B.sequence(B.oid(Self.rsassaPSS))
        template.outerSignatureAlgorithm = template.innerSignatureAlgorithm
        let missing = try template.parse()
        guard case .invalidRSAPSSParameters(.malformedAlgorithmParameters, _)? = missing.semanticDefects.first else {
            return XCTFail("\(missing.semanticDefects)")
        }
        XCTAssertThrowsError(try missing.signatureAlgorithm())
    }

    func testUniqueIdentifiersInV1NameTheirOwnOffset() throws {
        // Unique identifiers in a v1 certificate: the offset is the identifier's, not the TBS's.
        var template = try CertificateTemplate.load()
        template.version = nil
        template.extensions = nil
        let uniqueID = B.context(1, constructed: false, [0x00, 0xAB])
        template.subjectPublicKeyInfo += uniqueID
        assertX509Error(try template.parse()) { error in
            XCTAssertEqual(error.offset, lastOffset(of: uniqueID, in: template.der))
        }
    }

    /// RSASSA-PSS AlgorithmIdentifier with SHA-256, MGF `mgf` (default MGF1) over SHA-256 and `saltLength`.
    private func pss(saltLength: UInt64, mgf: String = "1.2.840.113549.1.1.8") -> [UInt8] {
        let sha256 = B.sequence(B.oid("2.16.840.1.101.3.4.2.1"), B.null)
        return B.sequence(
            B.oid(Self.rsassaPSS),
            B.sequence(
                B.explicit(0, sha256),
                B.explicit(1, B.sequence(B.oid(mgf), sha256)),
                B.explicit(2, B.integer(saltLength))
            ))
    }
}

extension SemanticDefectTests {
    /// Whoever verifies a defective certificate's signature (not only PathValidator: also the
    /// OCSP responder check) gets an error, never a usable algorithm.
    func testSignatureDefectsMakeTheSignatureUncheckable() throws {
        var mismatch = try CertificateTemplate.load("rsa/leaf.pem")
        mismatch.outerSignatureAlgorithm = DERBuilder.sequence(DERBuilder.oid("1.2.840.113549.1.1.12"), DERBuilder.null)
        XCTAssertThrowsError(try mismatch.parse().signatureAlgorithm()) { error in
            guard case .malformedAlgorithmParameters? = error as? SignatureError else { return XCTFail("\(error)") }
        }
        var partial = try CertificateTemplate.load()
        var octets = Array(try DERReader.parseSingle(partial.signatureValue).bitString().bytes)
        octets[octets.count - 1] &= 0xFE
        partial.signatureValue = DERBuilder.bitString(octets, unusedBits: 1)
        XCTAssertThrowsError(try partial.parse().signatureAlgorithm()) { error in
            XCTAssertEqual(error as? SignatureError, .invalidSignature)
        }
    }
}
