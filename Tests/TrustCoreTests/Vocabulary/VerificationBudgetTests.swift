import Foundation
import TrustCore
import TrustX509
import TrustTestSupport
import XCTest

/// One budget bounds all the work of an evaluation: path building, name constraints, policy
/// processing and revocation draw from it, and running out is a rejection with its own reason.
final class VerificationBudgetTests: XCTestCase {
    private func exhausted(_ evaluation: TrustEvaluation) -> [BudgetResource] {
        evaluation.failures.compactMap { if case let .budgetExhausted(resource, _) = $0.reason { resource } else { nil } }
    }

    func testNameConstraintComparisonsAreBudgeted() throws {
        let trust = try TestCertificates.trust(["scenarios/nc-leaf-ok.pem", "scenarios/nc-intermediate.pem"])
        XCTAssertTrue(trust.evaluate().isTrusted, "\(trust.evaluate())")
        trust.options.budget = VerificationBudget(nameConstraintComparisons: 1)
        let evaluation = trust.evaluate()
        XCTAssertFalse(evaluation.isTrusted)
        XCTAssertEqual(exhausted(evaluation), [.nameConstraintComparisons])
        XCTAssertEqual(evaluation.result, .fatalTrustFailure)
    }

    func testTheNameConstraintAllowanceDoesNotResetForEachPath() throws {
        // The same constrained chain offered twice (a duplicate intermediate): however many paths the
        // builder tries, all of them together stay within one allowance.
        let trust = try TestCertificates.trust(["scenarios/nc-leaf-ok.pem", "scenarios/nc-intermediate.pem"])
        let once = trust.evaluate()
        XCTAssertTrue(once.isTrusted)
        trust.additionalIntermediates = try TestCertificates.certificates("scenarios/nc-intermediate.pem")
        trust.options.budget = VerificationBudget(nameConstraintComparisons: 3)
        let evaluation = trust.evaluate()
        XCTAssertTrue(evaluation.isTrusted || exhausted(evaluation) == [.nameConstraintComparisons], "\(evaluation)")
    }

    func testRevocationChecksAreBudgeted() throws {
        let trust = try RevocationKit.trust(
            "revocation/good-leaf.pem", options: [.crl, .networkAccessDisabled],
            crls: ["intermediate-current"])
        XCTAssertTrue(trust.evaluate().isTrusted, "\(trust.evaluate())")
        // Without allowance for the CRL's signature, soft fail must not turn "could not check" into a pass.
        trust.options.budget = VerificationBudget(revocationChecks: 0)
        let evaluation = trust.evaluate()
        XCTAssertFalse(evaluation.isTrusted)
        XCTAssertEqual(exhausted(evaluation).first, .revocationChecks)
    }

    /// A fetching evaluation verifies what it fetched within the same budget, and running out there
    /// rejects it: "could not verify the CRL" must not become "no information", which soft fail accepts.
    func testFetchedDocumentsAreVerifiedWithinTheEvaluationsBudget() async throws {
        let fetcher = RecordingFetcher(crls: [RevocationKit.crlURL: try TestCertificates.bytes("revocation/intermediate-current.crl")])
        let control = try RevocationKit.trust(RevocationKit.goodLeaf, options: [.crl])
        let fetched = await control.evaluate(fetchingWith: fetcher, cache: nil)
        XCTAssertTrue(fetched.isTrusted, "\(fetched)")
        XCTAssertEqual(RevocationKit.status(fetched, 0), .good(source: .fetchedCRL(url: RevocationKit.crlURL)))

        let trust = try RevocationKit.trust(RevocationKit.goodLeaf, options: [.crl])
        trust.options.budget = VerificationBudget(revocationChecks: 0)
        XCTAssertTrue(trust.evaluate().isTrusted, "soft fail without information, nothing verified yet")
        let evaluation = await trust.evaluate(fetchingWith: fetcher, cache: nil)
        XCTAssertFalse(evaluation.isTrusted, "\(evaluation)")
        XCTAssertEqual(evaluation.result, .fatalTrustFailure)
        XCTAssertEqual(exhausted(evaluation), [.revocationChecks])
        XCTAssertEqual(fetcher.calls.map(\.url), [RevocationKit.crlURL, RevocationKit.crlURL])
        // Recorded as the trust's last evaluation: asking again gives the same rejection.
        XCTAssertEqual(trust.lastEvaluation, evaluation)
    }

    func testSignatureChecksAreBudgeted() throws {
        let trust = try TestCertificates.trust(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        trust.options.budget = VerificationBudget(signatureChecks: 1)
        XCTAssertEqual(exhausted(trust.evaluate()), [.signatureChecks])
        trust.options.budget = VerificationBudget(signatureChecks: 2)
        XCTAssertTrue(trust.evaluate().isTrusted)
    }

    func testTheReasonNamesTheResourceAndTheLimit() {
        let reason = TrustFailureReason.budgetExhausted(resource: .policyGraphOperations, limit: 7)
        XCTAssertEqual(reason.summary, "verification budget exhausted: more than 7 policy graph operations")
        XCTAssertEqual(reason.severity, .fatal)
    }
}
