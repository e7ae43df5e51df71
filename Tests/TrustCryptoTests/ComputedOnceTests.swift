import Dispatch
import Synchronization
import TrustCrypto
import XCTest

/// `ComputedOnce` is what certificates and names memoise derived values in (digests, keys, a name's
/// comparison key): one object per slot, whoever asks first and however they ask.
final class ComputedOnceTests: XCTestCase {
    private final class Box: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    private enum Failure: Error { case once }

    func testTheFirstObjectIsKeptAndComputeRunsOnce() {
        let slot = ComputedOnce<Box>()
        var computed = 0
        let first = slot.value {
            computed += 1; return Box(1)
        }
        let second = slot.value {
            computed += 1; return Box(2)
        }
        XCTAssertTrue(first === second)
        XCTAssertEqual(computed, 1)
        XCTAssertTrue(slot.storedValue === first)
    }

    func testWithValueComputesStoresAndLendsTheSameObject() {
        let slot = ComputedOnce<Box>()
        XCTAssertNil(slot.storedValue)
        let lent = slot.withValue(orCompute: { Box(7) }) { ObjectIdentifier($0) }
        guard let stored = slot.storedValue else { return XCTFail("withValue must store what it computed") }
        XCTAssertEqual(lent, ObjectIdentifier(stored))
        XCTAssertEqual(slot.withValue(orCompute: { Box(8) }) { $0.value }, 7, "a stored object is lent, not recomputed")
        XCTAssertTrue(slot.value { Box(9) } === stored)
    }

    func testAnErrorIsNotStored() {
        let slot = ComputedOnce<Box>()
        XCTAssertThrowsError(try slot.value { () throws(Failure) -> Box in throw .once })
        XCTAssertNil(slot.storedValue)
        XCTAssertEqual(slot.value { Box(3) }.value, 3)
    }

    func testRacingFirstReadsAllSeeOneObject() {
        for _ in 0..<50 {
            let slot = ComputedOnce<Box>()
            let seen = Mutex<Set<ObjectIdentifier>>([])
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                let identity =
                    index.isMultiple(of: 2)
                    ? slot.withValue(orCompute: { Box(index) }) { ObjectIdentifier($0) }
                    : ObjectIdentifier(slot.value { Box(index) })
                seen.withLock { _ = $0.insert(identity) }
            }
            XCTAssertEqual(seen.withLock { $0.count }, 1)
        }
    }
}
