import Synchronization

/// A value computed on first use and then read without taking a lock.
///
/// Certificates and names shared between concurrent evaluations memoise derived values (digests,
/// the libcrypto key, a name's comparison key). Behind a `Mutex`, every read of such a value by two
/// threads bounced the lock's cache line between the cores; here a read is one atomic load, and only
/// the first computation publishes (with `storeIfNil`: when two threads compute at once, the first
/// value stored wins and both return it).
public struct ComputedOnce<Value: Sendable>: ~Copyable, Sendable {
    private final class Box: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private let reference = AtomicLazyReference<Box>()

    /// An empty slot.
    public init() {}

    /// The value, computed by `compute` if no value was stored yet. Errors are not stored: the next
    /// call computes again.
    public func value<Failure: Error>(orCompute compute: () throws(Failure) -> Value) throws(Failure) -> Value {
        if let box = reference.load() { return box.value }
        return reference.storeIfNil(Box(try compute())).value
    }

    /// The value if it was computed already.
    public var storedValue: Value? { reference.load()?.value }
}
