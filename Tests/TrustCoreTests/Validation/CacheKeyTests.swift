@_spi(Testing) import TrustCore
import TrustCrypto
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 13 items 6 and 7: what a cache remembers may never let a later evaluation, under other
/// options, reach another verdict or another reason than it would with every cache empty.
final class CacheKeyTests: CachesOnTestCase {
    /// The RSA-2048 chain (root → intermediate → leaf, every signature RSA-2048 PKCS #1 v1.5) under
    /// RFC 5280 rules only, so that the signature policy is the only thing that differs.
    private func rsaChain() throws -> ServerTrust {
        try TestCertificates.trust(["rsa/leaf.pem", "rsa/intermediate.pem"], anchors: ["rsa/root.pem"], policies: [.basicX509])
    }

    func testSignatureVerifiedUnderALenientPolicyIsStillCheckedAgainstAStricterOne() throws {
        SignatureCache.shared.removeAll()
        let trust = try rsaChain()
        trust.options.signaturePolicy = SignaturePolicy(legacyAlgorithms: .refused, minimumRSAModulusBits: 2048)
        assertTrusted(trust.evaluate())
        // Both signatures (leaf ← intermediate, intermediate ← root) are now remembered as verified.
        XCTAssertEqual(SignatureCache.shared.count, 2)

        // A 3072-bit minimum rejects the RSA-2048 intermediate as the leaf's signer, remembered or not:
        // the path builder finds no acceptable issuer for the leaf and reports why.
        trust.options.signaturePolicy = SignaturePolicy(legacyAlgorithms: .refused, minimumRSAModulusBits: 3072)
        let strict = trust.evaluate()
        assertNotTrusted(strict, .fatalTrustFailure, failures: ["0:signatureUnverifiable"])
        XCTAssertEqual(strict.failures.map(\.reason), [.signatureUnverifiable(.weakKey(bits: 2048))])

        // The same answer as with no cache at all.
        TrustCaches.isEnabled = false
        let uncached = trust.evaluate()
        XCTAssertEqual(uncached.failures, strict.failures)
        XCTAssertEqual(uncached.result, strict.result)
    }

    func testSHA1SignatureVerifiedUnderTheLegacyPolicyIsRejectedWithoutIt() throws {
        SignatureCache.shared.removeAll()
        let trust = try TestCertificates.trust(["scenarios/leaf-sha1.pem", "ecdsa/intermediate.pem"])
        trust.options.signaturePolicy = .legacy
        assertTrusted(trust.evaluate())
        trust.options.signaturePolicy = .modern
        let strict = trust.evaluate()
        XCTAssertEqual(strict.failures.first?.reason, .signatureUnverifiable(.legacyAlgorithm("ecdsa-with-SHA1")))
    }

    func testProfileVerdictIsKeyedOnTheExactMinimumRSASize() throws {
        // Minimums beyond 32 bits used to be clamped into one key word, so the second evaluation was
        // told the first one's minimum. The profile's key-size rule must name the minimum in force.
        ProfileVerdictCache.shared.removeAll()
        let trust = try TestCertificates.trust(["rsa/leaf.pem", "rsa/intermediate.pem"], anchors: ["rsa/root.pem"])
        for minimum in [5_000_000_000, 6_000_000_000] {
            trust.options.signaturePolicy = SignaturePolicy(minimumRSAModulusBits: minimum)
            let evaluation = trust.evaluate()
            let profile = evaluation.failures.compactMap { failure -> ProfileViolationDetail? in
                if case let .profileViolation(violation) = failure.reason { return violation.detail } else { return nil }
            }
            XCTAssertFalse(profile.isEmpty, "\(evaluation)")
            for detail in profile {
                guard case let .rsaKeyTooSmall(_, minimumBits) = detail else { return XCTFail("\(detail)") }
                XCTAssertEqual(minimumBits, minimum)
            }
        }
    }

    /// The web-PKI profile verdicts of a chain are remembered per chain, keyed on every certificate and
    /// the flags of its position. The same certificates in other positions (the intermediate as the
    /// anchor, the leaf trusted directly), under other rules (SSL, web PKI, RFC 5280) and in other
    /// chains meet the entries the earlier configurations left, and must reach the verdict and reasons
    /// they reach with caches off and emptied.
    func testChainVerdictsAreKeyedOnEveryPositionAndTheRules() throws {
        ProfileVerdictCache.shared.removeAll()
        let host = TestCertificates.host
        let configurations: [(presented: [String], anchors: [String], policies: [TrustPolicy])] = [
            (["ecdsa/leaf.pem", "ecdsa/intermediate.pem"], ["ecdsa/root.pem"], [.webPKI(server: true, hostname: host)]),
            (["ecdsa/leaf.pem", "ecdsa/intermediate.pem"], ["ecdsa/root.pem"], [.ssl(server: true, hostname: host)]),
            (["ecdsa/leaf.pem", "ecdsa/intermediate.pem"], ["ecdsa/intermediate.pem"], [.webPKI(server: true, hostname: host)]),
            (["ecdsa/leaf.pem"], ["ecdsa/leaf.pem"], [.webPKI(server: true, hostname: host)]),
            (["ecdsa/leaf.pem"], ["ecdsa/leaf.pem"], [.basicX509]),
            (["ecdsa/leaf-no-san.pem", "ecdsa/intermediate.pem"], ["ecdsa/root.pem"], [.webPKI(server: true, hostname: nil)]),
            (["ecdsa/leaf-no-san.pem", "ecdsa/intermediate.pem"], ["ecdsa/root.pem"], [.basicX509]),
            (["scenarios/leaf-900-days.pem", "ecdsa/intermediate.pem"], ["ecdsa/root.pem"], [.webPKI(server: true, hostname: nil)]),
            (["scenarios/leaf-900-days.pem", "ecdsa/intermediate.pem"], ["ecdsa/intermediate.pem"], [.webPKI(server: true, hostname: nil)]),
            (["scenarios/unknown-critical-ext-leaf.pem", "ecdsa/intermediate.pem"], ["ecdsa/root.pem"], [.webPKI(server: true, hostname: nil)]),
            (["scenarios/self-signed-server.pem"], ["scenarios/self-signed-server.pem"], [.webPKI(server: true, hostname: nil)]),
            (["scenarios/self-signed-server.pem"], ["scenarios/self-signed-server.pem"], [.ssl(server: true, hostname: nil)]),
        ]
        var reasons: Set<String> = []
        for configuration in configurations {
            let trust = try TestCertificates.trust(configuration.presented, anchors: configuration.anchors, policies: configuration.policies)
            reasons.insert("\(trust.evaluateInEveryCacheMode().failures)")
        }
        // The configurations do differ in their reasons, so one answered from another's entry would show.
        XCTAssertGreaterThanOrEqual(reasons.count, 3, "\(reasons)")
    }
}
