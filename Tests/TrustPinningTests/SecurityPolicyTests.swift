import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

final class SecurityPolicyTests: XCTestCase {
    private func certificates(_ files: [String]) throws -> [Certificate] { try files.flatMap(TestCertificates.certificates) }

    private func failure(_ policy: SecurityPolicy, _ trust: ServerTrust, domain: String? = TestCertificates.host) -> SecurityPolicyFailure? {
        do {
            try policy.evaluateWithError(trust, forDomain: domain)
            return nil
        } catch {
            return error
        }
    }

    func testDefaultPolicy() throws {
        let policy = SecurityPolicy.default
        XCTAssertEqual(policy.pinningMode, .none)
        XCTAssertFalse(policy.allowInvalidCertificates)
        XCTAssertTrue(policy.validatesDomainName)
        XCTAssertFalse(policy.requiresEntireChainPinned)
        XCTAssertTrue(policy.evaluate(try TestCertificates.trust(TestCertificates.validChain), forDomain: TestCertificates.host))
        XCTAssertTrue(policy.evaluate(try TestCertificates.trust(TestCertificates.validChain), forDomain: nil))
    }

    func testDomainValidation() throws {
        let trust = try TestCertificates.trust(TestCertificates.validChain)
        guard case let .evaluationFailed(failures)? = failure(.default, trust, domain: TestCertificates.otherHost),
            case .hostnameMismatch? = failures.first?.reason
        else { return XCTFail() }
        XCTAssertEqual(trust.policies, [.ssl(server: true, hostname: TestCertificates.otherHost)])

        var lenient = SecurityPolicy.default
        lenient.validatesDomainName = false
        XCTAssertNil(failure(lenient, trust, domain: TestCertificates.otherHost))
        XCTAssertEqual(trust.policies, [.basicX509])
    }

    func testGuardNeedsADomain() throws {
        var policy = SecurityPolicy.default
        policy.allowInvalidCertificates = true
        XCTAssertEqual(
            failure(policy, try TestCertificates.trust(TestCertificates.selfSigned)), .domainValidationRequiresPinning(domain: TestCertificates.host))
        XCTAssertNil(failure(policy, try TestCertificates.trust(TestCertificates.selfSigned), domain: nil), "no domain: the guard does not apply")
    }

    func testCertificateModeMakesPinnedCertificatesTheAnchors() throws {
        let pinned = try certificates(TestCertificates.selfSigned)
        var policy = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: pinned + pinned)
        XCTAssertEqual(policy.pinnedCertificates, pinned, "pinned certificates form a set")
        policy.allowInvalidCertificates = true
        let trust = try TestCertificates.trust(TestCertificates.selfSigned)
        trust.anchorsOnly = false
        XCTAssertTrue(policy.evaluate(trust, forDomain: TestCertificates.host))
        XCTAssertEqual(trust.anchorCertificates, pinned)
        XCTAssertTrue(trust.anchorsOnly)
        XCTAssertFalse(policy.evaluate(try TestCertificates.trust(TestCertificates.selfSigned), forDomain: TestCertificates.otherHost))

        policy.allowInvalidCertificates = false
        XCTAssertFalse(
            policy.evaluate(try TestCertificates.trust(TestCertificates.selfSigned), forDomain: TestCertificates.host),
            "without allowInvalidCertificates the chain must first be valid under the trust's own anchors")
    }

    func testPinnedRootInCertificateMode() throws {
        let policy = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: try certificates(["ecdsa/root.pem"]))
        XCTAssertTrue(policy.evaluate(try TestCertificates.trust(TestCertificates.validChain), forDomain: TestCertificates.host))
        let leafPinned = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: try certificates(["ecdsa/leaf.pem"]))
        XCTAssertTrue(leafPinned.evaluate(try TestCertificates.trust(TestCertificates.validChain), forDomain: TestCertificates.host))
    }

    func testPublicKeyModeUsesTheEvaluatedChain() throws {
        let policy = SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: try certificates(["ecdsa/root.pem"]))
        XCTAssertTrue(
            policy.evaluate(try TestCertificates.trust(TestCertificates.validChain), forDomain: TestCertificates.host),
            "the root is not presented but is in the evaluated chain")
        var lenient = policy
        lenient.allowInvalidCertificates = true
        XCTAssertNil(
            failure(lenient, try TestCertificates.trust(TestCertificates.validChain)),
            "with invalid certificates allowed the chain is still built (SecTrustGetCertificateCount evaluates)")
        guard
            case let .publicKeyNotPinned(pinned, presented)? = failure(
                lenient, try TestCertificates.trust(TestCertificates.validChain, anchors: ["rsa/root.pem"]))
        else {
            return XCTFail("a root that is no anchor is not in the built chain")
        }
        XCTAssertEqual(pinned.map(\.value), [try TestCertificates.certificate("ecdsa/root.pem").spkiPin])
        XCTAssertEqual(presented.count, 2)
    }

    /// AFNetworking 2.x `validatesCertificateChain`: every certificate of the chain must be pinned.
    func testEntireChainOption() throws {
        var certificateMode = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: try certificates(["ecdsa/intermediate.pem"]))
        XCTAssertTrue(certificateMode.evaluate(try TestCertificates.trust(TestCertificates.validChain), forDomain: TestCertificates.host))
        certificateMode.requiresEntireChainPinned = true
        XCTAssertEqual(
            failure(certificateMode, try TestCertificates.trust(TestCertificates.validChain)),
            .chainNotEntirelyPinned(unpinned: [PinDescription.certificate(try TestCertificates.certificate("ecdsa/leaf.pem"))]))
        certificateMode.pinnedCertificates = try certificates(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        XCTAssertNil(failure(certificateMode, try TestCertificates.trust(TestCertificates.validChain)))

        var keyMode = SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: try certificates(["ecdsa/leaf.pem"]))
        XCTAssertNil(failure(keyMode, try TestCertificates.trust(TestCertificates.validChain)))
        keyMode.requiresEntireChainPinned = true
        guard case let .chainNotEntirelyPinned(unpinned)? = failure(keyMode, try TestCertificates.trust(TestCertificates.validChain)) else {
            return XCTFail()
        }
        XCTAssertEqual(unpinned.map(\.subject), ["CN=SwiftTrust Test Intermediate ECDSA,O=SwiftTrust", "CN=SwiftTrust Test Root ECDSA,O=SwiftTrust"])
        keyMode.pinnedCertificates = try certificates(["ecdsa/leaf.pem", "ecdsa/intermediate.pem", "ecdsa/root.pem"])
        XCTAssertNil(failure(keyMode, try TestCertificates.trust(TestCertificates.validChain)))
        XCTAssertEqual(keyMode.pinnedPublicKeys.count, 3)
    }

    func testFailureDescriptions() throws {
        let guardText = SecurityPolicyFailure.domainValidationRequiresPinning(domain: "a.test").description
        XCTAssertTrue(guardText.contains("a.test") && guardText.contains("requires pinned certificates"), guardText)
        let failure = failure(
            SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: try certificates(["rsa/root.pem"])),
            try TestCertificates.trust(TestCertificates.validChain))
        let text = failure?.description ?? ""
        XCTAssertTrue(text.contains(try TestCertificates.certificate("rsa/root.pem").spkiPin + " (CN=SwiftTrust Test Root RSA,O=SwiftTrust)"), text)
    }
}
