import Foundation
import OpenSSLServerSupport
import TrustCore
import TrustX509
import XCTest

/// The SPIFFE PKI of these tests, made once per test process by the openssl CLI (SPIFFEPKI) in a
/// directory of its own under the temporary directory.
enum SPIFFEFixtures {
    static let made: Result<SPIFFEPKI, any Error> = Result { try SPIFFEPKI.inTemporaryDirectory(named: "spiffe") }

    /// The PKI, or the reason it could not be made (openssl missing fails the test, it does not skip it).
    static func pki() throws -> SPIFFEPKI { try made.get() }

    /// `credential`'s chain evaluated under `policy` (default: the spiffe profile for serverAuth),
    /// anchored at `anchors` alone.
    static func evaluate(
        _ credential: SPIFFEPKI.Credential, anchors: [Certificate],
        policy: TrustPolicy = .profile(.spiffe, purpose: .serverAuth, hostname: nil)
    ) -> TrustEvaluation {
        evaluate(chain: credential.chain, anchors: anchors, policy: policy)
    }

    /// `chain` (leaf first) evaluated under `policy`, anchored at `anchors` alone.
    static func evaluate(
        chain: [Certificate], anchors: [Certificate],
        policy: TrustPolicy = .profile(.spiffe, purpose: .serverAuth, hostname: nil)
    ) -> TrustEvaluation {
        let trust = ServerTrust(certificates: chain, policies: [policy])
        trust.setAnchorCertificates(anchors)
        return trust.evaluate()
    }

    /// The details of the violations of `rule` in `evaluation`.
    static func details(of rule: ProfileRule, in evaluation: TrustEvaluation) -> [ProfileViolationDetail] {
        evaluation.failures.compactMap { failure in
            guard case let .profileViolation(violation) = failure.reason, violation.rule == rule else { return nil }
            return violation.detail
        }
    }
}
