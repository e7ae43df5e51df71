import Foundation
import TrustCore
import TrustX509
import TrustTestSupport
import XCTest

/// Path building under hostile or pathological input: every run must end within its budget.
///
/// No keys are generated: look-alike CAs are derived from real TestCertificates by re-encoding
/// them with a new serial number (and, where needed, another subject). Their signatures then no
/// longer verify, which is exactly what a flood of useless candidates looks like.
final class PathBuilderTests: XCTestCase {
    private func cert(_ path: String) throws -> Certificate { try TestCertificates.certificate(path) }

    /// `count` distinct certificates with intermediate 2's key, each re-labelled with the subject of
    /// intermediate 1 (the leaf's issuer name). The leaf's signature fails under every one of them.
    private func lookAlikesWithTheWrongKey(_ count: Int) throws -> [Certificate] {
        let leafIssuer = EditableCertificate(try cert("ecdsa/leaf.pem")).issuer
        var template = EditableCertificate(try cert("ecdsa/intermediate2.pem"))
        template.subject = leafIssuer
        return try (0..<count).map { index in
            var copy = template
            copy.setSerial(UInt32(index))
            return try copy.parse()
        }
    }

    /// `count` distinct copies of intermediate 1 (same subject and key): the leaf verifies under each,
    /// but none verifies under the root any more.
    private func lookAlikesWithTheRightKey(_ count: Int) throws -> [Certificate] {
        let template = EditableCertificate(try cert("ecdsa/intermediate.pem"))
        return try (0..<count).map { index in
            var copy = template
            copy.setSerial(UInt32(index))
            return try copy.parse()
        }
    }

    private func hasBudgetExhausted(_ evaluation: TrustEvaluation) -> Bool {
        evaluation.failures.contains { if case .budgetExhausted = $0.reason { true } else { false } }
    }

    // MARK: - Pathological pools

    func testTwoHundredLookAlikeIssuersSharingOneWrongKeyCostOneSignatureCheck() throws {
        let pool = try lookAlikesWithTheWrongKey(200)
        let leafIssuer = try cert("ecdsa/leaf.pem").issuer
        XCTAssertEqual(Set(pool).count, 200)
        XCTAssertTrue(pool.allSatisfy { $0.subject == leafIssuer })

        let trust = try TestCertificates.trust(["ecdsa/leaf.pem"])
        trust.additionalIntermediates = pool
        let budget = trust.options.budget
        XCTAssertEqual(budget, .default)
        let evaluation = trust.evaluate()

        XCTAssertFalse(evaluation.isTrusted)
        // The first look-alike's check fails; the other 199 carry the same key, so they fail the same
        // way without another check, and every candidate is decided within the path budget.
        XCTAssertFalse(hasBudgetExhausted(evaluation), "\(evaluation)")
        XCTAssertLessThanOrEqual(evaluation.signatureChecks, 2)
        XCTAssertLessThanOrEqual(evaluation.attempts.count, budget.candidatePaths + 1)
        let rejected = evaluation.attempts.filter { $0.outcome == .rejectedIssuer }
        XCTAssertEqual(rejected.count, 200)
        XCTAssertTrue(rejected.allSatisfy { $0.failures.map(\.reason) == [.signatureInvalid] })
    }

    func testTheRealIssuerIsFoundFirstAmongLookAlikesByItsKeyIdentifier() throws {
        // The same flood, with the genuine intermediate added last: AKI/SKI ranking tries it first.
        let trust = try TestCertificates.trust(["ecdsa/leaf.pem"])
        trust.additionalIntermediates = try lookAlikesWithTheWrongKey(200) + [try cert("ecdsa/intermediate.pem")]
        let evaluation = trust.evaluate()
        assertTrusted(evaluation, chain: [try cert("ecdsa/leaf.pem"), try cert("ecdsa/intermediate.pem"), try cert("ecdsa/root.pem")])
        XCTAssertEqual(evaluation.signatureChecks, 2)
        XCTAssertEqual(evaluation.attempts.map(\.outcome), [.valid])
    }

    func testLookAlikesWithTheRightKeyEachCostTwoChecksAndStopAtTheBudget() throws {
        let trust = try TestCertificates.trust(["ecdsa/leaf.pem"])
        trust.additionalIntermediates = try lookAlikesWithTheRightKey(200)
        let budget = VerificationBudget(signatureChecks: 40, candidatePaths: 1000, maximumPathLength: 16)
        trust.options.budget = budget
        let evaluation = trust.evaluate()
        XCTAssertFalse(evaluation.isTrusted)
        XCTAssertTrue(hasBudgetExhausted(evaluation), "\(evaluation)")
        XCTAssertLessThanOrEqual(evaluation.signatureChecks, budget.signatureChecks)
        // Each look-alike: one check that passes (leaf), one that fails (look-alike under root).
        XCTAssertEqual(evaluation.attempts.filter { $0.outcome == .rejectedIssuer }.count, budget.signatureChecks / 2)
    }

    func testAFewLookAlikesFailCleanlyWithinTheBudget() throws {
        let trust = try TestCertificates.trust(["ecdsa/leaf.pem"])
        trust.additionalIntermediates = try lookAlikesWithTheRightKey(5)
        let evaluation = trust.evaluate()
        // Every path was explored: no budget failure, but a bad signature on the look-alike (index 1).
        XCTAssertFalse(hasBudgetExhausted(evaluation))
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["1:signatureInvalid"])
        XCTAssertEqual(evaluation.signatureChecks, 10)
        XCTAssertEqual(evaluation.attempts.count, 5)
    }

    func testCandidatePathBudgetStopsTheSearch() throws {
        let trust = try TestCertificates.trust(["ecdsa/leaf.pem"])
        trust.additionalIntermediates = try lookAlikesWithTheWrongKey(200)
        let budget = VerificationBudget(signatureChecks: 10_000, candidatePaths: 10, maximumPathLength: 16)
        trust.options.budget = budget
        let evaluation = trust.evaluate()
        XCTAssertTrue(hasBudgetExhausted(evaluation), "\(evaluation)")
        XCTAssertLessThanOrEqual(evaluation.signatureChecks, 11)
        XCTAssertLessThanOrEqual(evaluation.attempts.count, budget.candidatePaths + 1)
    }

    // MARK: - Exact budgets

    func testASignatureBudgetOfExactlyTheNeededChecksSuffices() throws {
        // leaf→intermediate and intermediate→root: two checks. The path is complete after the second.
        let trust = try TestCertificates.trust(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        trust.options.budget = VerificationBudget(signatureChecks: 2)
        let evaluation = trust.evaluate()
        assertTrusted(evaluation)
        XCTAssertEqual(evaluation.signatureChecks, 2)

        trust.options.budget = VerificationBudget(signatureChecks: 1)
        let short = trust.evaluate()
        XCTAssertFalse(short.isTrusted)
        XCTAssertTrue(hasBudgetExhausted(short), "\(short)")
        XCTAssertLessThanOrEqual(short.signatureChecks, 1)
    }

    func testSignatureBudgetOfOneOnTheCrossSignedCaseWithTheExpiredTwinFirst() throws {
        let trust = try TestCertificates.trust(
            [
                "scenarios/cross-leaf.pem", "scenarios/cross-intermediate-expired-by-root2.pem",
                "scenarios/cross-intermediate-by-root2.pem",
            ], anchors: ["scenarios/root2.pem"])
        assertTrusted(trust.evaluate()) // with the default budget
        trust.options.budget = VerificationBudget(signatureChecks: 1, candidatePaths: 200, maximumPathLength: 16)
        let evaluation = trust.evaluate()
        // An exhausted budget is fatal: the evaluation could not decide, so no user override applies.
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["-:budgetExhausted"])
        XCTAssertLessThanOrEqual(evaluation.signatureChecks, 1)
        XCTAssertEqual(evaluation.attempts.last?.outcome, .budgetExhausted)
    }

    func testMaximumPathLengthIsAHardStop() throws {
        // leaf, intermediate, root = 3 certificates; a hard cap of 2 stops before the root.
        let trust = try TestCertificates.trust(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        trust.options.budget = VerificationBudget(signatureChecks: 100, candidatePaths: 200, maximumPathLength: 2)
        let evaluation = trust.evaluate()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["1:maximumDepthExceeded"])
        trust.options.budget = VerificationBudget(signatureChecks: 100, candidatePaths: 200, maximumPathLength: 3)
        assertTrusted(trust.evaluate())
    }

    // MARK: - CertificateStore

    func testStoreDropsDuplicatesAndKeepsInsertionOrder() throws {
        let a = try cert("ecdsa/root.pem"), b = try cert("rsa/root.pem")
        let store = CertificateStore([a, b, a, b])
        XCTAssertEqual(store.count, 2)
        XCTAssertEqual(store.certificates, [a, b])
        XCTAssertTrue(store.contains(a))
        XCTAssertFalse(store.contains(try cert("ed25519/root.pem")))
    }

    func testCandidateIssuersPreferTheAKIMatchThenNoSKIThenContradictingSKI() throws {
        let leaf = try cert("ecdsa/leaf.pem")
        let genuine = try cert("ecdsa/intermediate.pem")
        let wrongKey = try lookAlikesWithTheWrongKey(1)[0] // SKI of intermediate 2: contradicts the leaf's AKI
        // The v1 intermediate has no extensions at all, so no SKI; re-label it with the leaf's issuer name.
        var v1 = EditableCertificate(try cert("scenarios/v1-intermediate.pem"))
        v1.subject = EditableCertificate(leaf).issuer
        let noSKI = try v1.parse()
        XCTAssertNil(noSKI.extensions.subjectKeyIdentifier)

        let store = CertificateStore([wrongKey, noSKI, genuine])
        XCTAssertEqual(store.candidateIssuers(of: leaf), [genuine, noSKI, wrongKey])
        XCTAssertEqual(CertificateStore([noSKI, wrongKey, genuine]).candidateIssuers(of: leaf), [genuine, noSKI, wrongKey])
        // Ties keep insertion order.
        let twins = try lookAlikesWithTheRightKey(3)
        XCTAssertEqual(CertificateStore(twins + [wrongKey]).candidateIssuers(of: leaf), twins + [wrongKey])
        // Only certificates named as the issuer are candidates.
        XCTAssertEqual(CertificateStore([try cert("ecdsa/intermediate2.pem"), try cert("ecdsa/root.pem")]).candidateIssuers(of: leaf), [])
    }

    func testSubjectLookupComparesNamesPerRFC5280() throws {
        let intermediate = try cert("ecdsa/intermediate.pem")
        let store = CertificateStore([intermediate, try cert("ecdsa/root.pem"), try cert("ecdsa/intermediate2.pem")])
        // Same name spelled as PrintableString, in another case, with extra inner and outer spaces.
        let respelled = try DistinguishedName(
            der: TestDER.printableName([
                (TestDER.organizationName, "SWIFTTRUST"),
                (TestDER.commonName, "  swifttrust test   INTERMEDIATE ecdsa "),
            ]))
        XCTAssertNotEqual(Array(respelled.der), Array(intermediate.subject.der))
        XCTAssertEqual(respelled, intermediate.subject)
        XCTAssertEqual(store.certificates(withSubject: respelled), [intermediate])

        // A leaf whose issuer field uses that spelling still finds its issuer (re-encoding changes the
        // signed bytes, so only the lookup is tested here, not the signature).
        var leaf = EditableCertificate(try cert("ecdsa/leaf.pem"))
        leaf.issuer = Array(respelled.der)
        XCTAssertEqual(store.candidateIssuers(of: try leaf.parse()), [intermediate])

        // A different name does not match: one letter, or a different RDN order.
        let other = try DistinguishedName(
            der: TestDER.printableName([
                (TestDER.organizationName, "SwiftTrust"), (TestDER.commonName, "SwiftTrust Test Intermediate ECDSB"),
            ]))
        XCTAssertEqual(store.certificates(withSubject: other), [])
        let reordered = try DistinguishedName(
            der: TestDER.printableName([
                (TestDER.commonName, "SwiftTrust Test Intermediate ECDSA"), (TestDER.organizationName, "SwiftTrust"),
            ]))
        XCTAssertEqual(store.certificates(withSubject: reordered), [])
    }

    func testKeyIdentifierLookup() throws {
        let intermediate = try cert("ecdsa/intermediate.pem")
        let twins = try lookAlikesWithTheRightKey(2)
        let store = CertificateStore([intermediate, try cert("ecdsa/root.pem")] + twins)
        let ski = try XCTUnwrap(intermediate.extensions.subjectKeyIdentifier?.keyIdentifier)
        XCTAssertEqual(store.certificates(withKeyIdentifier: ski), [intermediate] + twins)
        XCTAssertEqual(store.certificates(withKeyIdentifier: [0x00, 0x01]), [])
    }
}
