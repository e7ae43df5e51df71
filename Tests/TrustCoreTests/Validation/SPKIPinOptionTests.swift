import Foundation
import TrustCore
import TrustDER
import TrustTestSupport
import TrustX509
import XCTest

/// Issue 43 item 5: Apple's SSL policy options for SPKI pins as options of the trust, as trustd
/// checks them (SecPolicyServer.c): `kSecPolicyCheckLeafSPKISHA256`, the leaf's SPKI SHA-256 in a
/// list; `kSecPolicyCheckCAspkiSHA256`, that of some certificate above the leaf, the anchor
/// included (indices 1 to count - 1), a chain of the leaf alone failing; an empty list matches
/// nothing. The committed ECDSA hierarchy: leaf, intermediate, root (the anchor).
final class SPKIPinOptionTests: XCTestCase {
    private func spki(_ name: String) throws -> [UInt8] { try TestCertificates.certificate(name).spkiSHA256 }

    private func evaluate(leafPins: [[UInt8]]? = nil, caPins: [[UInt8]]? = nil) throws -> TrustEvaluation {
        let trust = try TestCertificates.trust(["ecdsa/chain.pem"])
        trust.options.leafSPKISHA256 = leafPins
        trust.options.caSPKISHA256 = caPins
        return trust.evaluate()
    }

    func testTheLeafPinMatches() throws {
        assertTrusted(try evaluate(leafPins: [try spki("rsa/leaf.pem"), try spki("ecdsa/leaf.pem")]))
    }

    func testALeafPinThatDoesNotMatchIsATypedFailureOnTheLeaf() throws {
        let pinned = [try spki("rsa/leaf.pem"), try spki("ecdsa/intermediate.pem")] // the intermediate is no leaf pin
        let evaluation = try evaluate(leafPins: pinned)
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:leafSPKISHA256NotPinned"])
        let failure = try XCTUnwrap(evaluation.failures.first)
        XCTAssertEqual(failure.reason, .leafSPKISHA256NotPinned(spkiSHA256: try spki("ecdsa/leaf.pem"), pinned: pinned))
        XCTAssertEqual(failure.subject, evaluation.chain.first?.subject.description)
        XCTAssertTrue(
            failure.reason.summary.hasPrefix("leaf SPKI SHA-256 \(Base64.encode(try spki("ecdsa/leaf.pem"))) is not among"),
            failure.reason.summary)
    }

    func testAnEmptyListMatchesNothing() throws {
        let leaf = try evaluate(leafPins: [])
        XCTAssertEqual(leaf.failures.map(\.reason), [.leafSPKISHA256NotPinned(spkiSHA256: try spki("ecdsa/leaf.pem"), pinned: [])])
        XCTAssertTrue(leaf.failures.first?.reason.summary.contains("[] (an empty list matches nothing)") ?? false)
        let ca = try evaluate(caPins: [])
        XCTAssertEqual(ca.failures.map(\.reason), [.caSPKISHA256NotPinned(pinned: [], examined: 2)])
        XCTAssertFalse(ca.isTrusted)
    }

    func testACAPinMatchesTheIntermediate() throws {
        assertTrusted(try evaluate(caPins: [try spki("rsa/root.pem"), try spki("ecdsa/intermediate.pem")]))
    }

    func testACAPinMatchesTheAnchorAsApplesCountsIt() throws {
        // SecPolicyCheckCAspkiSHA256 runs i from 1 to count - 1: the anchor is the last certificate.
        assertTrusted(try evaluate(caPins: [try spki("ecdsa/root.pem")]))
    }

    func testTheLeafIsNoCAForTheCAPin() throws {
        let pinned = [try spki("ecdsa/leaf.pem")]
        let evaluation = try evaluate(caPins: pinned)
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["-:caSPKISHA256NotPinned"])
        XCTAssertEqual(evaluation.failures.first?.reason, .caSPKISHA256NotPinned(pinned: pinned, examined: 2))
        XCTAssertNil(evaluation.failures.first?.subject, "about the chain, not one certificate")
    }

    func testAChainOfTheLeafAloneFailsTheCAPin() throws {
        // count < 2: Apple sets the failure at once. A self-signed leaf trusted directly.
        let trust = try TestCertificates.trust(["ecdsa/self-signed-leaf.pem"], anchors: ["ecdsa/self-signed-leaf.pem"])
        let pinned = [try spki("ecdsa/self-signed-leaf.pem")]
        assertTrusted(trust.evaluate())
        trust.options.caSPKISHA256 = pinned
        let evaluation = trust.evaluate()
        XCTAssertEqual(evaluation.chain.count, 1)
        XCTAssertEqual(evaluation.failures.map(\.reason), [.caSPKISHA256NotPinned(pinned: pinned, examined: 0)])
        XCTAssertTrue(evaluation.failures.first?.reason.summary.hasPrefix("the chain has no CA certificate among the pinned") ?? false)
    }

    func testThePinsSurviveAJudgeThatReplacesThePolicies() throws {
        let trust = try TestCertificates.trust(["ecdsa/chain.pem"])
        trust.options.caSPKISHA256 = [try spki("rsa/root.pem")]
        let evaluation = trust.evaluate(policies: [.basicX509])
        XCTAssertEqual(failureSummary(evaluation), ["-:caSPKISHA256NotPinned"])
        XCTAssertTrue(trust.options.requiresEvaluation)
    }
}
