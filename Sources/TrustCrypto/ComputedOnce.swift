import Synchronization

/// An object computed on first use and then read without taking a lock.
///
/// Certificates and names shared between concurrent evaluations memoise derived values (digests,
/// the libcrypto key, a name's comparison key). Behind a `Mutex`, every read of such a value by two
/// threads bounced the lock's cache line between the cores; here a read is one atomic load, and only
/// the first computation publishes (with `storeIfNil`: when two threads compute at once, the first
/// object stored wins and both return it).
///
/// The stored type is a class of the caller's (value types go into a small non-generic final class
/// next to their use): a generic box class here would have its metadata instantiated at run time on
/// every first use, which cost more than the memo saved in a certificate parse.
public struct ComputedOnce<Instance: AnyObject & Sendable>: ~Copyable, Sendable {
    private let reference = AtomicLazyReference<Instance>()

    /// An empty slot.
    public init() {}

    /// The object, computed by `compute` if none was stored yet. Errors are not stored: the next call
    /// computes again.
    public func value<Failure: Error>(orCompute compute: () throws(Failure) -> Instance) throws(Failure) -> Instance {
        if let stored = reference.load() { return stored }
        return reference.storeIfNil(try compute())
    }

    /// The object if it was computed already.
    public var storedValue: Instance? { reference.load() }
}

/// An immutable byte string as an object, for ``ComputedOnce`` (a digest, say).
public final class ComputedBytes: Sendable {
    /// The bytes.
    public let bytes: [UInt8]

    /// Wraps `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
}
