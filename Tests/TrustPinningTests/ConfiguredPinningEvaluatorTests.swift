import Foundation
import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// ``ConfiguredPinningTrustEvaluator`` and ``ServerTrustManager/init(configuration:reporter:allHostsMustBeEvaluated:)``
/// on the real ECDSA and RSA test PKIs (TestCertificates/), at the pinned verify date.
final class ConfiguredPinningEvaluatorTests: XCTestCase {
    /// The SPKI pin of the first certificate of a file.
    private func pin(_ file: String) throws -> SPKIPin { SPKIPin(certificate: try TestCertificates.certificate(file)) }

    /// A pin no test certificate has (the SHA-256 of an empty string).
    private let backupPin = (try? SPKIPin("sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="))

    private func policy(
        _ requirements: [(PinScope, [String])], domain: String = TestCertificates.host,
        subdomains: SubdomainCoverage = .none, expires: Date? = nil,
        enforcement: PinEnforcement = .enforce, anchors: PinningTrustAnchors? = nil
    ) throws -> DomainPinningPolicy {
        let backup = try XCTUnwrap(backupPin)
        let built = try requirements.map { scope, files in
            try PinRequirement(scope: scope, pins: try files.map(pin) + [backup])
        }
        return try DomainPinningPolicy(
            domain: domain, subdomains: subdomains, requirements: built, expirationDate: expires,
            enforcement: enforcement, trustAnchors: anchors)
    }

    private func ecdsaTrust() throws -> ServerTrust { try TestCertificates.trust(TestCertificates.validChain) }
    private func rsaTrust() throws -> ServerTrust { try TestCertificates.trust(["rsa/chain.pem"], anchors: ["rsa/root.pem"]) }

    func testChainPinOnTheIntermediateAcceptsItsChainAndRejectsAnotherPKI() throws {
        let evaluator = ConfiguredPinningTrustEvaluator(policy: try policy([(.anyCertificate, ["ecdsa/intermediate.pem"])]))
        XCTAssertEqual(outcome(of: evaluator, try ecdsaTrust()), "pass")
        let reason = try XCTUnwrap(failureReason(of: evaluator, try rsaTrust()))
        guard case let .pinSetMismatch(host, domain, unsatisfied, presented) = reason else {
            return XCTFail("expected pinSetMismatch, got \(reason)")
        }
        XCTAssertEqual(host, TestCertificates.host)
        XCTAssertEqual(domain, TestCertificates.host)
        XCTAssertEqual(unsatisfied.map(\.scope), [.anyCertificate])
        // The presented keys are the validated RSA chain's, leaf to root.
        XCTAssertEqual(presented.map(\.value), try ["rsa/leaf.pem", "rsa/intermediate.pem", "rsa/root.pem"].map { try pin($0).description })
    }

    func testAnchorPinMatchesEvenWhenTheServerDoesNotSendTheRoot() throws {
        // chain.pem is leaf + intermediate; the root is the anchor: pins compare with the validated chain.
        let evaluator = ConfiguredPinningTrustEvaluator(policy: try policy([(.certificateAuthority, ["ecdsa/root.pem"])]))
        XCTAssertEqual(try TestCertificates.certificates("ecdsa/chain.pem").count, 2)
        XCTAssertEqual(outcome(of: evaluator, try ecdsaTrust()), "pass")
    }

    func testScopesDecideWhichCertificatesAPinMayMatch() throws {
        let leafScopedIntermediate = ConfiguredPinningTrustEvaluator(policy: try policy([(.leaf, ["ecdsa/intermediate.pem"])]))
        XCTAssertEqual(outcome(of: leafScopedIntermediate, try ecdsaTrust()), "pinSetMismatch")
        let caScopedLeaf = ConfiguredPinningTrustEvaluator(policy: try policy([(.certificateAuthority, ["ecdsa/leaf.pem"])]))
        XCTAssertEqual(outcome(of: caScopedLeaf, try ecdsaTrust()), "pinSetMismatch")
        let leafScopedLeaf = ConfiguredPinningTrustEvaluator(policy: try policy([(.leaf, ["ecdsa/leaf.pem"])]))
        XCTAssertEqual(outcome(of: leafScopedLeaf, try ecdsaTrust()), "pass")
    }

    func testEveryRequirementMustHoldAsATSRequiresOfLeafAndCAIdentities() throws {
        let both = ConfiguredPinningTrustEvaluator(
            policy: try policy([(.leaf, ["ecdsa/leaf.pem"]), (.certificateAuthority, ["ecdsa/intermediate.pem"])]))
        XCTAssertEqual(outcome(of: both, try ecdsaTrust()), "pass")
        let wrongCA = ConfiguredPinningTrustEvaluator(
            policy: try policy([(.leaf, ["ecdsa/leaf.pem"]), (.certificateAuthority, ["rsa/intermediate.pem"])]))
        let reason = try XCTUnwrap(failureReason(of: wrongCA, try ecdsaTrust()))
        guard case let .pinSetMismatch(_, _, unsatisfied, _) = reason else { return XCTFail("\(reason)") }
        XCTAssertEqual(unsatisfied.map(\.scope), [.certificateAuthority])
        XCTAssertTrue(reason.description.contains(try pin("rsa/intermediate.pem").description), reason.description)
    }

    func testExpiredPinsAreNotEnforcedButValidationStillIs() throws {
        let dayBefore = TestCertificates.verifyDate.addingTimeInterval(-86_400)
        let expired = ConfiguredPinningTrustEvaluator(policy: try policy([(.anyCertificate, ["rsa/intermediate.pem"])], expires: dayBefore))
        XCTAssertEqual(outcome(of: expired, try ecdsaTrust()), "pass")
        XCTAssertEqual(outcome(of: expired, try TestCertificates.trust(TestCertificates.expiredChain)), "trustEvaluationFailed/default")
        // Expiry is exclusive of the instant itself: at the expiration date pins no longer apply.
        let atVerifyDate = ConfiguredPinningTrustEvaluator(
            policy: try policy([(.anyCertificate, ["rsa/intermediate.pem"])], expires: TestCertificates.verifyDate))
        XCTAssertEqual(outcome(of: atVerifyDate, try ecdsaTrust()), "pass")
        let dayAfter = ConfiguredPinningTrustEvaluator(
            policy: try policy(
                [(.anyCertificate, ["rsa/intermediate.pem"])],
                expires: TestCertificates.verifyDate.addingTimeInterval(86_400)))
        XCTAssertEqual(outcome(of: dayAfter, try ecdsaTrust()), "pinSetMismatch")
    }

    func testReportOnlyLetsAPinMismatchThroughButNotAnInvalidChainOrHost() throws {
        let reportOnly = ConfiguredPinningTrustEvaluator(policy: try policy([(.anyCertificate, ["rsa/intermediate.pem"])], enforcement: .reportOnly))
        XCTAssertEqual(outcome(of: reportOnly, try ecdsaTrust()), "pass")
        XCTAssertEqual(outcome(of: reportOnly, try TestCertificates.trust(TestCertificates.expiredChain)), "trustEvaluationFailed/default")
        XCTAssertEqual(outcome(of: reportOnly, try ecdsaTrust(), host: TestCertificates.otherHost), "trustEvaluationFailed/host")
    }

    func testDomainAnchorsReplaceTheTrustsAnchors() throws {
        let rsaRootOnly = PinningTrustAnchors(includesSystemStore: false, certificates: [try TestCertificates.certificate("rsa/root.pem")])
        let evaluator = ConfiguredPinningTrustEvaluator(
            policy: try policy(
                [(.anyCertificate, ["ecdsa/intermediate.pem", "rsa/intermediate.pem"])],
                anchors: rsaRootOnly))
        // The ECDSA chain was anchored at the ECDSA root, but the domain trusts only the RSA root.
        XCTAssertEqual(outcome(of: evaluator, try ecdsaTrust()), "trustEvaluationFailed/default")
        XCTAssertEqual(outcome(of: evaluator, try TestCertificates.trust(["rsa/chain.pem"], anchors: ["ecdsa/root.pem"])), "pass")
    }

    func testAnchorThatOverridesPinsSkipsOnlyThePinCheck() throws {
        let overriding = PinningTrustAnchors(
            includesSystemStore: false, pinOverridingCertificates: [try TestCertificates.certificate("ecdsa/root.pem")])
        let evaluator = ConfiguredPinningTrustEvaluator(policy: try policy([(.anyCertificate, ["rsa/intermediate.pem"])], anchors: overriding))
        XCTAssertEqual(outcome(of: evaluator, try ecdsaTrust()), "pass")
        XCTAssertEqual(outcome(of: evaluator, try TestCertificates.trust(TestCertificates.expiredChain)), "trustEvaluationFailed/default")
        // The same root as a pin-checked anchor: the mismatch counts.
        let checked = PinningTrustAnchors(includesSystemStore: false, certificates: [try TestCertificates.certificate("ecdsa/root.pem")])
        let strict = ConfiguredPinningTrustEvaluator(policy: try policy([(.anyCertificate, ["rsa/intermediate.pem"])], anchors: checked))
        XCTAssertEqual(outcome(of: strict, try ecdsaTrust()), "pinSetMismatch")
    }

    func testPinSetCheckNamesWhichCertificateMatchedWhichPinAndTheDeadOnes() throws {
        let policy = try policy([(.anyCertificate, ["ecdsa/intermediate.pem", "ecdsa/leaf.pem"])])
        let chain = try TestCertificates.certificates("ecdsa/chain.pem") + [try TestCertificates.certificate("ecdsa/root.pem")]
        let check = PinSetCheck(policy: policy, chain: chain, at: TestCertificates.verifyDate)
        XCTAssertEqual(check.outcome, .satisfied)
        let matches = try XCTUnwrap(check.requirements.first).matches
        XCTAssertEqual(matches.map(\.chainIndices), [[1], [0], []])
        XCTAssertEqual(check.unmatchedPins, [try XCTUnwrap(backupPin)])
    }

    func testManagerPicksTheMostSpecificCoveringDomain() throws {
        let parent = try policy([(.anyCertificate, ["rsa/intermediate.pem"])], domain: "swifttrust.test", subdomains: .anyDepth)
        let exact = try policy([(.anyCertificate, ["ecdsa/intermediate.pem"])], domain: "WWW.SwiftTrust.test.")
        let configuration = try PinningConfiguration(domains: [parent, exact])
        XCTAssertEqual(configuration.policy(forHost: "www.swifttrust.test")?.domain, "www.swifttrust.test")
        XCTAssertEqual(configuration.policy(forHost: "a.b.swifttrust.test")?.domain, "swifttrust.test")
        XCTAssertNil(configuration.policy(forHost: "swifttrust.example"))
        let manager = try ServerTrustManager(configuration: configuration)
        XCTAssertEqual(outcome(of: manager, try ecdsaTrust()), "pass")
        XCTAssertEqual(outcome(of: manager, try rsaTrust()), "pinSetMismatch")
        // A host no domain covers gets default evaluation (no pins), as under ATS, Android and TrustKit.
        XCTAssertEqual(outcome(of: manager, try ecdsaTrust(), host: "www.swifttrust.test.example"), "trustEvaluationFailed/host")
        let strictManager = try ServerTrustManager(configuration: configuration, allHostsMustBeEvaluated: true)
        XCTAssertEqual(outcome(of: strictManager, try ecdsaTrust(), host: "unlisted.example"), "noRequiredEvaluator")
    }

    func testSubdomainCoveragesFollowTheirFormats() throws {
        let oneLevel = try policy([(.anyCertificate, ["ecdsa/intermediate.pem"])], domain: "swifttrust.test", subdomains: .oneLevel)
        let anyDepth = try policy([(.anyCertificate, ["ecdsa/intermediate.pem"])], domain: "example.test", subdomains: .anyDepth)
        let none = try policy([(.anyCertificate, ["ecdsa/intermediate.pem"])], domain: "only.test")
        let configuration = try PinningConfiguration(domains: [oneLevel, anyDepth, none])
        let covered = ["swifttrust.test", "www.swifttrust.test", "example.test", "a.example.test", "a.b.example.test", "only.test"]
        let uncovered = ["a.www.swifttrust.test", "www.only.test", "test"]
        for host in covered { XCTAssertNotNil(configuration.policy(forHost: host), host) }
        for host in uncovered { XCTAssertNil(configuration.policy(forHost: host), host) }
    }

    func testConfigurationErrorsAreRaisedWhenBuildingNotWhenEvaluating() throws {
        XCTAssertThrowsError(try PinRequirement(scope: .leaf, pins: [])) { error in
            XCTAssertEqual(error as? PinningConfigurationError, .tooFewPins(count: 0))
        }
        XCTAssertThrowsError(try DomainPinningPolicy(domain: "192.0.2.1", subdomains: .anyDepth, requirements: []))
        XCTAssertThrowsError(try DomainPinningPolicy(domain: "bad..name", requirements: []))
        let first = try policy([(.leaf, ["ecdsa/leaf.pem"])], domain: "Example.test")
        let second = try policy([(.leaf, ["ecdsa/leaf.pem"])], domain: "example.test.")
        XCTAssertThrowsError(try PinningConfiguration(domains: [first, second])) { error in
            guard case .duplicateHostPattern = error as? PinningConfigurationError else { return XCTFail("\(error)") }
        }
    }
}
