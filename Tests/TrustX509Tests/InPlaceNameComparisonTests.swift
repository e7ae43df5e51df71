@testable import TrustX509
import TrustTestSupport
import XCTest

/// Chain building compares names where the certificates store them (`hasSameSubject(as:)`,
/// `hasSubjectNamingIssuer(of:)`) instead of copying them out, which retained name storage that
/// concurrent evaluations share (issue 17, sixth pass). They must answer exactly what RFC 5280 §7.1
/// equality of the copied names answers.
final class InPlaceNameComparisonTests: XCTestCase {
    func testInPlaceComparisonsAgreeWithNameEqualityOnEveryPairOfTestCertificates() throws {
        var certificates: [Certificate] = []
        for path in try TestCertificates.certificateFiles() { certificates += try TestCertificates.certificates(path) }
        XCTAssertGreaterThan(certificates.count, 50)
        var sameSubjects = 0, issuerMatches = 0
        for first in certificates {
            for second in certificates {
                let sameSubject = first.subject == second.subject
                XCTAssertEqual(first.hasSameSubject(as: second), sameSubject, "\(first) / \(second)")
                let namesIssuer = first.subject == second.issuer
                XCTAssertEqual(first.hasSubjectNamingIssuer(of: second), namesIssuer, "\(first) / \(second)")
                if sameSubject, first != second { sameSubjects += 1 }
                if namesIssuer, first != second { issuerMatches += 1 }
            }
        }
        // Both answers occur between distinct certificates, not only a certificate and itself.
        XCTAssertGreaterThan(sameSubjects, 0)
        XCTAssertGreaterThan(issuerMatches, 0)
    }
}

extension InPlaceNameComparisonTests {
    /// The leaf's names rewritten in place with their string values in upper case: equal under RFC
    /// 5280 §7.1 (caseIgnoreMatch) to the originals, its issuer to the intermediate's subject, but not
    /// byte for byte. The in-place comparisons must match them as name equality does, not as byte
    /// equality would.
    func testInPlaceComparisonsFoldCaseLikeNameEquality() throws {
        let leaf = try TestCertificates.certificate("ecdsa/leaf.pem")
        let intermediate = try TestCertificates.certificate("ecdsa/intermediate.pem")
        var der = leaf.derEncoded
        var changed = 0
        for attribute in (leaf.issuer.rdns + leaf.subject.rdns).joined() where attribute.stringValue != nil {
            // The value's content octets, where the parse found them in the certificate's DER (a
            // one-octet tag and a short-form length before them); a parse does not check the signature.
            XCTAssertLessThan(attribute.valueDER.count, 130)
            for index in attribute.valueDER.indices.dropFirst(2) where (0x61...0x7A).contains(der[index]) {
                der[index] -= 0x20
                changed += 1
            }
        }
        XCTAssertGreaterThan(changed, 0)
        let shouted = try Certificate(derEncoded: der)
        XCTAssertNotEqual(Array(shouted.issuer.der), Array(intermediate.subject.der))
        XCTAssertEqual(shouted.issuer, intermediate.subject)
        XCTAssertTrue(intermediate.hasSubjectNamingIssuer(of: shouted))
        XCTAssertNotEqual(Array(shouted.subject.der), Array(leaf.subject.der))
        XCTAssertEqual(shouted.subject, leaf.subject)
        XCTAssertTrue(shouted.hasSameSubject(as: leaf))
        XCTAssertTrue(leaf.hasSameSubject(as: shouted))
    }
}
