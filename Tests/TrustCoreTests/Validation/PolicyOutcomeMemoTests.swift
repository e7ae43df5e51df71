import Foundation
@testable import TrustCore
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

/// The policy outcomes remembered per complete chain within one evaluation (``PolicyOutcomeMemo``):
/// each chain gets back its own outcome, whichever was recorded last, and an equal chain in another
/// array finds it too. With an explicit policy required, the ECDSA and RSA chains (no
/// certificatePolicies) each fail at their own intermediate, so a mix-up shows in the failure.
final class PolicyOutcomeMemoTests: XCTestCase {
    private func chain(_ directory: String) throws -> [Certificate] {
        try ["leaf", "intermediate", "root"].map { try TestCertificates.certificate("\(directory)/\($0).pem") }
    }

    private func explicitPolicyOptions() throws -> ValidationRequest {
        let time = try XCTUnwrap(DERTime(timeIntervalSince1970: 1_780_272_000)) // 2026-06-01
        var options = TrustOptions()
        options.initialExplicitPolicy = true
        return .testing(verifyTime: time, purposes: [.serverAuth], options: options)
    }

    private func processed(_ chain: [Certificate], _ options: ValidationRequest) throws -> PolicyProcessing.Outcome {
        try PolicyProcessing.process(chain, inputs: options, budget: BudgetMeter(.default))
    }

    func testEachChainGetsItsOwnOutcomeWhicheverWasRecordedLast() throws {
        let (ecdsa, rsa) = (try chain("ecdsa"), try chain("rsa"))
        let options = try explicitPolicyOptions()
        let (ecdsaOutcome, rsaOutcome) = (try processed(ecdsa, options), try processed(rsa, options))
        XCTAssertNotEqual(ecdsaOutcome, rsaOutcome)
        let memo = PolicyOutcomeMemo()
        XCTAssertNil(memo.entry(for: ecdsa))
        _ = memo.record(ecdsaOutcome, for: ecdsa)
        XCTAssertEqual(memo.entry(for: ecdsa)?.outcome, ecdsaOutcome)
        XCTAssertNil(memo.entry(for: rsa))
        _ = memo.record(rsaOutcome, for: rsa)
        XCTAssertEqual(memo.entry(for: rsa)?.outcome, rsaOutcome)
        XCTAssertEqual(memo.entry(for: ecdsa)?.outcome, ecdsaOutcome)
        // The same certificates in a new array (no shared buffer) are the same chain.
        XCTAssertEqual(memo.entry(for: Array(ecdsa.reversed().reversed()))?.outcome, ecdsaOutcome)
        // A chain that differs in one certificate, or is shorter, is another chain.
        XCTAssertNil(memo.entry(for: [ecdsa[0], ecdsa[1], rsa[2]]))
        XCTAssertNil(memo.entry(for: Array(ecdsa.dropLast())))
    }

    /// The validator asked again about an earlier chain answers for that chain, not the last one.
    func testValidatorAnswersForTheChainAskedAbout() throws {
        let (ecdsa, rsa) = (try chain("ecdsa"), try chain("rsa"))
        let options = try explicitPolicyOptions()
        let validator = PathValidator(
            options: options, signatures: SignatureChecker(policy: .default),
            budget: BudgetMeter(.default))
        for chain in [ecdsa, rsa, ecdsa, rsa] {
            guard case let .invalid(expected) = try processed(chain, options) else { return XCTFail("no explicit policy failure") }
            XCTAssertEqual(try validator.policyFailure(of: chain), expected)
            XCTAssertNil(try validator.validPolicies(of: chain))
        }
    }
}
