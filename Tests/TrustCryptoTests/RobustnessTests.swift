import TrustCrypto
import TrustDER
import XCTest

/// Mutated inputs must never crash, and a mutated key must never verify the original signature.
final class RobustnessTests: XCTestCase {
    func testMutatedSPKIsNeverCrashOrVerify() {
        let message = Fixtures.message
        for testCase in SignatureCase.all where testCase.policy == .default {
            var accepted = 0
            for mutated in mutations(of: testCase.spki) {
                _ = try? PublicKeyDescription(spki: mutated[...])
                guard let key = try? VerificationKey(spki: mutated[...]) else { continue }
                if (try? SignatureVerifier.verify(
                    signature: testCase.signature[...], over: message[...],
                    algorithm: testCase.algorithm, key: key)) != nil
                {
                    accepted += 1
                }
            }
            XCTAssertEqual(accepted, 0, "\(testCase.name): a mutated key verified the original signature")
        }
        for mutated in mutations(of: Fixtures.p256ExplicitSPKI) {
            _ = try? VerificationKey(spki: mutated[...])
        }
    }

    func testMutatedAlgorithmIdentifiersNeverCrash() {
        for testCase in SignatureCase.all {
            for mutated in mutations(of: testCase.algorithmIdentifier) {
                guard let element = try? DERReader.parseSingle(mutated) else { continue }
                _ = try? SignatureAlgorithm(algorithmIdentifier: element)
            }
        }
    }

    func testMutatedSignaturesNeverCrashOrVerify() throws {
        for testCase in SignatureCase.all {
            let key = try verificationKey(testCase.spki)
            for mutated in mutations(of: testCase.signature, truncations: true) where mutated != testCase.signature {
                XCTAssertThrowsError(try verify(mutated, Fixtures.message, testCase.algorithm, key, policy: testCase.policy), testCase.name)
            }
        }
    }

    /// Every truncation, one flipped bit per byte position (rotating which bit), and a few
    /// length-octet rewrites.
    private func mutations(of bytes: [UInt8], truncations: Bool = true) -> [[UInt8]] {
        var out: [[UInt8]] = []
        if truncations {
            for length in 0..<bytes.count { out.append(Array(bytes.prefix(length))) }
        }
        for index in bytes.indices {
            out.append(flippingBit(bytes, index * 8 + index % 8))
            var set = bytes
            set[index] = 0xFF
            out.append(set)
        }
        out.append(bytes + [0x00])
        return out
    }
}
