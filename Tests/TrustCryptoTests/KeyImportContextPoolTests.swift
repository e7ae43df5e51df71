import Dispatch
@testable import TrustCrypto
import XCTest

/// RSA keys are built on libcrypto contexts reused from key to key (``KeyImportContextPool``).
final class KeyImportContextPoolTests: XCTestCase {
    func testRSAKeysBuiltConcurrentlyOnPooledContextsAreEachTheirOwn() {
        // More threads at once than the pool keeps idle: contexts are taken, returned, created and
        // freed concurrently; every key must still be exactly the key of its own SPKI.
        let spkis = [Fixtures.rsa2048SPKI, Fixtures.rsa1024SPKI]
        let iterations = 400
        let outcomes = ResultBox<Bool>(count: iterations)
        DispatchQueue.concurrentPerform(iterations: iterations) { index in
            let spki = spkis[index % spkis.count]
            guard let key = try? verificationKey(spki) else { return outcomes.set(index, false) }
            let verifies =
                index % spkis.count != 0
                || (try? verify(Fixtures.rsa2048SHA256Signature, Fixtures.message, .rsaPKCS1v15(.sha256), key)) != nil
            outcomes.set(index, key.libcryptoSubjectPublicKeyInfo() == spki && verifies)
        }
        let failed = outcomes.values.enumerated().filter { $0.element != true }.map(\.offset)
        XCTAssertEqual(failed, [])
    }
}
