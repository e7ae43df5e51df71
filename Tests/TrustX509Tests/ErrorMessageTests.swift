import TrustDER
@testable import TrustX509
import XCTest

/// What certificate parse errors quote and where they point (issue 18, error messages).
final class ErrorMessageTests: XCTestCase {
    private typealias B = DERBuilder

    func testLongObjectIdentifierIsCappedInAParseError() throws {
        // A policy OID of 20,000 arcs listed twice: about 40 KB of dotted text, inside the 64 KiB size cap.
        let longOID = "1.2." + Array(repeating: "1", count: 20_000).joined(separator: ".")
        var template = try CertificateTemplate.load()
        template.setExtension(TestOID.certificatePolicies, value: B.sequence(B.sequence(B.oid(longOID)), B.sequence(B.oid(longOID))))
        XCTAssertThrowsError(try Certificate(derEncoded: template.der)) { error in
            let text = String(describing: error)
            XCTAssertLessThan(text.count, 1_000, String(text.prefix(200)))
            XCTAssertTrue(text.contains("… (20002 arcs)"), text)
            XCTAssertTrue(text.contains("certificatePolicies"), text)
        }
    }
}
