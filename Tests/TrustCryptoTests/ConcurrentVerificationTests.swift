import Dispatch
import TrustCrypto
import XCTest

final class ConcurrentVerificationTests: XCTestCase {
    /// Many threads verify with one shared key per algorithm; every valid signature must pass
    /// and every tampered one must fail, with no cross-talk through libcrypto state.
    func testConcurrentVerificationWithSharedKeys() throws {
        let cases = SignatureCase.all
        let keys = try cases.map { try verificationKey($0.spki) }
        let message = Fixtures.message
        let tampered = flippingBit(message, 5)
        let iterations = 400
        let outcomes = ResultBox<Bool>(count: iterations)
        DispatchQueue.concurrentPerform(iterations: iterations) { index in
            let testCase = cases[index % cases.count]
            let key = keys[index % cases.count]
            let validPasses =
                (try? SignatureVerifier.verify(
                    signature: testCase.signature[...], over: message[...],
                    algorithm: testCase.algorithm, key: key, policy: testCase.policy
                )) != nil
            var tamperedFails = false
            do {
                try SignatureVerifier.verify(
                    signature: testCase.signature[...], over: tampered[...],
                    algorithm: testCase.algorithm, key: key, policy: testCase.policy
                )
            } catch {
                tamperedFails = (error as? SignatureError) == .invalidSignature
            }
            outcomes.set(index, validPasses && tamperedFails)
        }
        let failures = outcomes.values.enumerated().filter { $0.element != true }.map { cases[$0.offset % cases.count].name }
        XCTAssertEqual(failures, [], "failed under concurrency")
    }
}
