import TrustCore
import TrustPinning
import TrustX509
import XCTest

final class SecurityPolicyTests: XCTestCase {
    private func certificates(_ files: [String]) throws -> [Certificate] { try files.flatMap(TestPKI.certificates) }

    private func failure(_ policy: SecurityPolicy, _ trust: ServerTrust, domain: String? = TestPKI.host) -> SecurityPolicyFailure? {
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
        XCTAssertTrue(policy.evaluate(try TestPKI.trust(TestPKI.validChain), forDomain: TestPKI.host))
        XCTAssertTrue(policy.evaluate(try TestPKI.trust(TestPKI.validChain), forDomain: nil))
    }

    func testDomainValidation() throws {
        let trust = try TestPKI.trust(TestPKI.validChain)
        guard case let .evaluationFailed(failures)? = failure(.default, trust, domain: TestPKI.otherHost),
              case .hostnameMismatch? = failures.first?.reason else { return XCTFail() }
        XCTAssertEqual(trust.policies, [.ssl(server: true, hostname: TestPKI.otherHost)])

        var lenient = SecurityPolicy.default
        lenient.validatesDomainName = false
        XCTAssertNil(failure(lenient, trust, domain: TestPKI.otherHost))
        XCTAssertEqual(trust.policies, [.basicX509])
    }

    func testGuardNeedsADomain() throws {
        var policy = SecurityPolicy.default
        policy.allowInvalidCertificates = true
        XCTAssertEqual(failure(policy, try TestPKI.trust(TestPKI.selfSigned)), .domainValidationRequiresPinning(domain: TestPKI.host))
        XCTAssertNil(failure(policy, try TestPKI.trust(TestPKI.selfSigned), domain: nil), "no domain: the guard does not apply")
    }

    func testCertificateModeMakesPinnedCertificatesTheAnchors() throws {
        let pinned = try certificates(TestPKI.selfSigned)
        var policy = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: pinned + pinned)
        XCTAssertEqual(policy.pinnedCertificates, pinned, "pinned certificates form a set")
        policy.allowInvalidCertificates = true
        let trust = try TestPKI.trust(TestPKI.selfSigned)
        trust.anchorsOnly = false
        XCTAssertTrue(policy.evaluate(trust, forDomain: TestPKI.host))
        XCTAssertEqual(trust.anchorCertificates, pinned)
        XCTAssertTrue(trust.anchorsOnly)
        XCTAssertFalse(policy.evaluate(try TestPKI.trust(TestPKI.selfSigned), forDomain: TestPKI.otherHost))

        policy.allowInvalidCertificates = false
        XCTAssertFalse(policy.evaluate(try TestPKI.trust(TestPKI.selfSigned), forDomain: TestPKI.host),
                       "without allowInvalidCertificates the chain must first be valid under the trust's own anchors")
    }

    func testPinnedRootInCertificateMode() throws {
        let policy = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: try certificates(["ecdsa/root.pem"]))
        XCTAssertTrue(policy.evaluate(try TestPKI.trust(TestPKI.validChain), forDomain: TestPKI.host))
        let leafPinned = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: try certificates(["ecdsa/leaf.pem"]))
        XCTAssertTrue(leafPinned.evaluate(try TestPKI.trust(TestPKI.validChain), forDomain: TestPKI.host))
    }

    func testPublicKeyModeUsesTheEvaluatedChain() throws {
        let policy = SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: try certificates(["ecdsa/root.pem"]))
        XCTAssertTrue(policy.evaluate(try TestPKI.trust(TestPKI.validChain), forDomain: TestPKI.host),
                      "the root is not presented but is in the evaluated chain")
        var lenient = policy
        lenient.allowInvalidCertificates = true
        XCTAssertNil(failure(lenient, try TestPKI.trust(TestPKI.validChain)),
                     "with invalid certificates allowed the chain is still built (SecTrustGetCertificateCount evaluates)")
        guard case let .publicKeyNotPinned(pinned, presented)? = failure(lenient, try TestPKI.trust(TestPKI.validChain, anchors: ["rsa/root.pem"])) else {
            return XCTFail("a root that is no anchor is not in the built chain")
        }
        XCTAssertEqual(pinned.map(\.value), [try TestPKI.certificate("ecdsa/root.pem").spkiPin])
        XCTAssertEqual(presented.count, 2)
    }

    /// AFNetworking 2.x `validatesCertificateChain`: every certificate of the chain must be pinned.
    func testEntireChainOption() throws {
        var certificateMode = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: try certificates(["ecdsa/intermediate.pem"]))
        XCTAssertTrue(certificateMode.evaluate(try TestPKI.trust(TestPKI.validChain), forDomain: TestPKI.host))
        certificateMode.requiresEntireChainPinned = true
        XCTAssertEqual(failure(certificateMode, try TestPKI.trust(TestPKI.validChain)),
                       .chainNotEntirelyPinned(unpinned: [PinDescription.certificate(try TestPKI.certificate("ecdsa/leaf.pem"))]))
        certificateMode.pinnedCertificates = try certificates(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        XCTAssertNil(failure(certificateMode, try TestPKI.trust(TestPKI.validChain)))

        var keyMode = SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: try certificates(["ecdsa/leaf.pem"]))
        XCTAssertNil(failure(keyMode, try TestPKI.trust(TestPKI.validChain)))
        keyMode.requiresEntireChainPinned = true
        guard case let .chainNotEntirelyPinned(unpinned)? = failure(keyMode, try TestPKI.trust(TestPKI.validChain)) else { return XCTFail() }
        XCTAssertEqual(unpinned.map(\.subject), ["CN=SwiftTrust Test Intermediate ECDSA,O=SwiftTrust", "CN=SwiftTrust Test Root ECDSA,O=SwiftTrust"])
        keyMode.pinnedCertificates = try certificates(["ecdsa/leaf.pem", "ecdsa/intermediate.pem", "ecdsa/root.pem"])
        XCTAssertNil(failure(keyMode, try TestPKI.trust(TestPKI.validChain)))
        XCTAssertEqual(keyMode.pinnedPublicKeys.count, 3)
    }

    func testFailureDescriptions() throws {
        let guardText = SecurityPolicyFailure.domainValidationRequiresPinning(domain: "a.test").description
        XCTAssertTrue(guardText.contains("a.test") && guardText.contains("requires pinned certificates"), guardText)
        let failure = failure(SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: try certificates(["rsa/root.pem"])),
                              try TestPKI.trust(TestPKI.validChain))
        let text = failure?.description ?? ""
        XCTAssertTrue(text.contains(try TestPKI.certificate("rsa/root.pem").spkiPin + " (CN=SwiftTrust Test Root RSA,O=SwiftTrust)"), text)
    }
}
