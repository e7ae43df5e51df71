import Foundation
@testable import TrustCore
import TrustDER
import TrustX509
import XCTest

/// The policy outcomes remembered per complete chain within one evaluation (``PolicyOutcomeMemo``):
/// each chain gets back its own outcome, whichever was recorded last, and an equal chain in another
/// array finds it too. With an explicit policy required, the ECDSA and RSA chains (no
/// certificatePolicies) each fail at their own intermediate, so a mix-up shows in the failure.
final class PolicyOutcomeMemoTests: XCTestCase {
    private func chain(_ directory: String) throws -> [Certificate] {
        try ["leaf", "intermediate", "root"].map { try Fixtures.certificate("\(directory)/\($0).pem") }
    }

    private func explicitPolicyOptions() throws -> ValidationOptions {
        let time = try XCTUnwrap(DERTime(timeIntervalSince1970: 1_780_272_000))  // 2026-06-01
        var options = ValidationOptions(verifyTime: time, purposes: [.serverAuth])
        options.initialExplicitPolicy = true
        return options
    }

    private func processed(_ chain: [Certificate], _ options: ValidationOptions) -> PolicyProcessing.Outcome {
        var budget = VerificationBudget.default.policyGraphOperations
        return PolicyProcessing.process(chain, inputs: options, budget: &budget)
    }

    func testEachChainGetsItsOwnOutcomeWhicheverWasRecordedLast() throws {
        let (ecdsa, rsa) = (try chain("ecdsa"), try chain("rsa"))
        let options = try explicitPolicyOptions()
        let (ecdsaOutcome, rsaOutcome) = (processed(ecdsa, options), processed(rsa, options))
        XCTAssertNotEqual(ecdsaOutcome, rsaOutcome)
        var memo = PolicyOutcomeMemo()
        XCTAssertNil(memo.outcome(of: ecdsa))
        memo.record(ecdsaOutcome, for: ecdsa)
        XCTAssertEqual(memo.outcome(of: ecdsa), ecdsaOutcome)
        XCTAssertNil(memo.outcome(of: rsa))
        memo.record(rsaOutcome, for: rsa)
        XCTAssertEqual(memo.outcome(of: rsa), rsaOutcome)
        XCTAssertEqual(memo.outcome(of: ecdsa), ecdsaOutcome)
        // The same certificates in a new array (no shared buffer) are the same chain.
        XCTAssertEqual(memo.outcome(of: Array(ecdsa.reversed().reversed())), ecdsaOutcome)
        // A chain that differs in one certificate, or is shorter, is another chain.
        XCTAssertNil(memo.outcome(of: [ecdsa[0], ecdsa[1], rsa[2]]))
        XCTAssertNil(memo.outcome(of: Array(ecdsa.dropLast())))
    }

    /// The validator asked again about an earlier chain answers for that chain, not the last one.
    func testValidatorAnswersForTheChainAskedAbout() throws {
        let (ecdsa, rsa) = (try chain("ecdsa"), try chain("rsa"))
        let options = try explicitPolicyOptions()
        let validator = PathValidator(options: options, signatures: SignatureChecker(policy: .default),
                                      budget: BudgetMeter(.default))
        for chain in [ecdsa, rsa, ecdsa, rsa] {
            XCTAssertEqual(validator.policyOutcome(of: chain), processed(chain, options))
        }
    }
}
