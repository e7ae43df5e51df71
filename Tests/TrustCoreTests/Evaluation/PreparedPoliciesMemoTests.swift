import TrustCore
import TrustCrypto
import TrustX509
import TrustTestSupport
import XCTest

/// The policy lists a ``ServerTrust`` is created with are prepared once per distinct list and
/// remembered (a ``BoundedCache``): a trust object created after another one with the same list, or
/// after one with another list, must reach exactly the verdict it reaches with caches off.
final class PreparedPoliciesMemoTests: XCTestCase {
    private var cachingWasEnabled = true

    override func setUp() {
        super.setUp()
        cachingWasEnabled = TrustCaches.isEnabled
    }

    override func tearDown() {
        TrustCaches.isEnabled = cachingWasEnabled
        super.tearDown()
    }

    /// Policy lists that differ in one part each: host name, purpose, profile, mailbox, order, an
    /// invalid host name, and a second policy.
    private let policyLists: [[TrustPolicy]] = [
        [.ssl(server: true, hostname: TestCertificates.host)],
        [.ssl(server: true, hostname: "other.swifttrust.test")],
        [.ssl(server: false, hostname: TestCertificates.host)],
        [.ssl(server: true, hostname: nil)],
        [.webPKI(server: true, hostname: TestCertificates.host)],
        [.basicX509],
        [.profile(.rfc5280, purpose: .clientAuth, hostname: TestCertificates.host)],
        [.profile(.rfc5280, purpose: .serverAuth, hostname: TestCertificates.host)],
        [.ssl(server: true, hostname: "not..a.host")],
        [.ssl(server: true, hostname: TestCertificates.host), .email("someone@swifttrust.test")],
        [.email("someone@swifttrust.test"), .ssl(server: true, hostname: TestCertificates.host)],
        [.ssl(server: true, hostname: TestCertificates.host), .basicX509],
    ]

    /// A new trust object over the ECDSA chain for `policies`, created while caching is `enabled`.
    private func evaluation(_ policies: [TrustPolicy], cachesEnabled enabled: Bool) throws -> TrustEvaluation {
        TrustCaches.isEnabled = enabled
        return try TestCertificates.trust(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"], policies: policies).evaluate()
    }

    func testNewTrustObjectsReachTheVerdictOfAnUncachedOneForEveryPolicyList() throws {
        var uncached: [TrustEvaluation] = []
        for policies in policyLists { uncached.append(try evaluation(policies, cachesEnabled: false)) }
        // Twice through the lists with caches on: the first pass may prepare each list, the second
        // finds every one remembered, right after a trust object with another list.
        for pass in 1...2 {
            for (policies, expected) in zip(policyLists, uncached) {
                let cached = try evaluation(policies, cachesEnabled: true)
                let context = "pass \(pass), \(policies)"
                XCTAssertEqual(cached.result, expected.result, context)
                XCTAssertEqual(cached.chain, expected.chain, context)
                XCTAssertEqual(cached.failures, expected.failures, context)
                XCTAssertEqual(cached.attempts, expected.attempts, context)
            }
        }
        // The lists do lead to different verdicts, so a list answered with another's would show.
        XCTAssertTrue(uncached.contains { $0.isTrusted })
        XCTAssertGreaterThan(Set(uncached.map(failureSummary)).count, 3)
    }

    /// `String` equality is Unicode canonical equivalence: "é" precomposed (U+00E9) equals "e" and a
    /// combining acute accent (U+0065 U+0301). A remembered list must be matched byte for byte, so an
    /// invalid host name is reported exactly as this trust object's caller wrote it.
    func testHostNamesDifferingOnlyInNormalisationAreReportedAsWritten() throws {
        let composed = "not..caf\u{E9}.swifttrust.test"
        let decomposed = "not..cafe\u{301}.swifttrust.test"
        XCTAssertEqual(composed, decomposed)
        XCTAssertNotEqual(Array(composed.utf8), Array(decomposed.utf8))
        for hostname in [composed, decomposed, composed] {
            let evaluation = try evaluation([.ssl(server: true, hostname: hostname)], cachesEnabled: true)
            let reported = evaluation.failures.compactMap { failure -> String? in
                if case let .invalidReferenceIdentity(name) = failure.reason { return name } else { return nil }
            }
            XCTAssertEqual(reported.map { Array($0.utf8) }, [Array(hostname.utf8)], "\(evaluation)")
        }
    }
}
