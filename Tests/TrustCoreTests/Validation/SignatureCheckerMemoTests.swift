@testable import TrustCore
import TrustX509
import TrustTestSupport
import XCTest

/// An evaluation's `SignatureChecker` remembers every pair it checked, keyed by the SHA-256 of the
/// two certificates' DER (issue 17, sixth pass: the memo no longer holds the certificates). A pair is
/// the same pair whichever parsed copies of the two certificates ask, and only then.
final class SignatureCheckerMemoTests: XCTestCase {
    private func copies(_ path: String) throws -> (Certificate, Certificate) {
        (try TestCertificates.certificate(path), try TestCertificates.certificate(path))
    }

    func testAPairIsRememberedForEveryCopyOfItsCertificates() throws {
        let (leaf, leafCopy) = try copies("ecdsa/leaf.pem")
        let (intermediate, intermediateCopy) = try copies("ecdsa/intermediate.pem")
        let checker = SignatureChecker(policy: .default)
        XCTAssertFalse(checker.knows(child: leafCopy, issuer: intermediateCopy))
        XCTAssertNil(checker.failure(child: leaf, issuer: intermediate))
        XCTAssertEqual(checker.verificationCount, 1)
        // Other objects with the same DER: known, answered from the memo, not checked again.
        XCTAssertTrue(checker.knows(child: leafCopy, issuer: intermediateCopy))
        XCTAssertNil(checker.failure(child: leafCopy, issuer: intermediateCopy))
        XCTAssertEqual(checker.verificationCount, 1)
        // The pair is ordered: the other direction is another pair.
        XCTAssertFalse(checker.knows(child: intermediate, issuer: leaf))
    }

    func testAFailedPairKeepsItsReasonForEveryCopy() throws {
        let (leaf, leafCopy) = try copies("ecdsa/leaf.pem")
        let (root, rootCopy) = try copies("ecdsa/root.pem")
        let checker = SignatureChecker(policy: .default)
        // The root did not sign the leaf (the intermediate did).
        let reason = try XCTUnwrap(checker.failure(child: leaf, issuer: root))
        guard case .signatureInvalid = reason else { return XCTFail("\(reason)") }
        XCTAssertTrue(checker.knows(child: leafCopy, issuer: rootCopy))
        let again = try XCTUnwrap(checker.failure(child: leafCopy, issuer: rootCopy))
        guard case .signatureInvalid = again else { return XCTFail("\(again)") }
        XCTAssertEqual(checker.verificationCount, 1)
    }

    /// Past the short list (eight pairs) the memo moves to a dictionary: the answers carry over.
    func testAnswersSurviveTheMoveToADictionary() throws {
        let paths = ["ecdsa/leaf.pem", "ecdsa/intermediate.pem", "ecdsa/root.pem", "rsa/leaf.pem", "rsa/intermediate.pem", "rsa/root.pem"]
        let certificates = try paths.map { try TestCertificates.certificate($0) }
        let checker = SignatureChecker(policy: .default)
        var expected: [(child: Int, issuer: Int, valid: Bool)] = []
        for child in certificates.indices {
            for issuer in certificates.indices {
                expected.append((child, issuer, checker.failure(child: certificates[child], issuer: certificates[issuer]) == nil))
            }
        }
        XCTAssertEqual(checker.verificationCount, certificates.count * certificates.count)
        XCTAssertEqual(expected.filter(\.valid).count, 6) // four chain links and two self-signed roots
        let copies = try paths.map { try TestCertificates.certificate($0) }
        for pair in expected {
            XCTAssertTrue(checker.knows(child: copies[pair.child], issuer: copies[pair.issuer]))
            XCTAssertEqual(checker.failure(child: copies[pair.child], issuer: copies[pair.issuer]) == nil, pair.valid, "\(pair)")
        }
        XCTAssertEqual(checker.verificationCount, certificates.count * certificates.count)
    }
}
