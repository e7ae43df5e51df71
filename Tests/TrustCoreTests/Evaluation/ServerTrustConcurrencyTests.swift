import Dispatch
import Foundation
import TrustCore
import TrustX509
import TrustTestSupport
import XCTest

/// `ServerTrust` shared between threads: every evaluation runs on one snapshot of the configuration,
/// and `lastEvaluation` is never an evaluation of a configuration that has since changed.
final class ServerTrustConcurrencyTests: XCTestCase {
    func testEvaluateWithPoliciesIsAtomicUnderContention() throws {
        let trust = try TestCertificates.trust(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        let right: [TrustPolicy] = [.ssl(server: true, hostname: TestCertificates.host)]
        let wrong: [TrustPolicy] = [.ssl(server: true, hostname: "wrong.example")]
        let wrongVerdicts = Counter()
        DispatchQueue.concurrentPerform(iterations: 400) { iteration in
            // Half the threads ask for the right host, half for a wrong one, on the same trust: each
            // must get the verdict of its own policies (setting and evaluating in two steps could
            // evaluate another thread's policies).
            let expectTrusted = iteration % 2 == 0
            let evaluation = trust.evaluate(policies: expectTrusted ? right : wrong)
            if evaluation.isTrusted != expectTrusted { wrongVerdicts.increment() }
        }
        XCTAssertEqual(wrongVerdicts.value, 0)
    }

    func testCertificatesForPinningComeFromTheEvaluationThatRan() throws {
        // The evaluation returned by evaluate(policies:) is the one a pinning check must use; it is
        // returned, not read back from shared state.
        let trust = try TestCertificates.trust(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
        let evaluation = trust.evaluate(policies: [.ssl(server: true, hostname: TestCertificates.host)])
        XCTAssertEqual(evaluation.chain.count, 3)
        trust.policies = [.ssl(server: true, hostname: "wrong.example")]
        XCTAssertNil(trust.lastEvaluation)
    }
}

/// A thread-safe counter for the tests above.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
