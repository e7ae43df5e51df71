import Foundation
import TrustCore
@testable import TrustDiagnostics
import TrustTestSupport
import TrustX509
import XCTest

/// Issue 43, item 1: an anchor whose nameConstraints otherName lacks its `[0] EXPLICIT` wrapper
/// (``OtherNameConstraintFixtures``) is trusted, and the chain's findings say so: a warning of its
/// own, not the DEFAULT-values finding.
final class ChainFindingsOtherNameTests: XCTestCase {
    func testTheUnwrappedOtherNameIsAWarningOnTheAnchor() throws {
        let host = TestCertificates.host
        let trust = ServerTrust(
            certificates: [try OtherNameConstraintFixtures.certificate("leaf.pem")],
            policies: [.ssl(server: true, hostname: host)])
        trust.setAnchorCertificates([try OtherNameConstraintFixtures.certificate("root.pem")])
        trust.verifyDate = TestCertificates.verifyDate
        let diagnostics = ChainDiagnostics(trust: trust, host: host, verifyDate: TestCertificates.verifyDate)
        XCTAssertTrue(diagnostics.trusted)
        let finding = try XCTUnwrap(diagnostics.findings.first { $0.code == "othername-constraint-unwrapped" }, "\(diagnostics.findings)")
        XCTAssertEqual(finding.severity, "warning")
        XCTAssertEqual(finding.certificateIndex, 1)
        XCTAssertTrue(finding.message.contains("[0] EXPLICIT"), finding.message)
        XCTAssertFalse(diagnostics.findings.contains { $0.code == "der-default-written" })
        XCTAssertTrue(diagnostics.text(style: .plain).contains("lacks its [0] EXPLICIT wrapper"))
    }

    func testAChainWithoutOneHasNoSuchFinding() throws {
        let trust = ServerTrust(
            certificates: [try TestCertificates.certificate("ecdsa/leaf.pem"), try TestCertificates.certificate("ecdsa/intermediate.pem")],
            policies: [.ssl(server: true, hostname: TestCertificates.host)])
        trust.setAnchorCertificates([try TestCertificates.certificate("ecdsa/root.pem")])
        trust.verifyDate = TestCertificates.verifyDate
        let diagnostics = ChainDiagnostics(trust: trust, host: TestCertificates.host, verifyDate: TestCertificates.verifyDate)
        XCTAssertTrue(diagnostics.trusted, "\(diagnostics.failures)")
        XCTAssertFalse(diagnostics.findings.contains { $0.code == "othername-constraint-unwrapped" })
    }
}
