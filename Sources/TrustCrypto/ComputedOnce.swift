import Synchronization

/// An object computed on first use and then read without taking a lock.
///
/// Certificates and names shared between concurrent evaluations memoise derived values (digests,
/// the libcrypto key, a name's comparison key). Behind a `Mutex`, every read of such a value by two
/// threads bounced the lock's cache line between the cores; here a read is one atomic load, and only
/// the first computation publishes (compare-and-exchange: when two threads compute at once, the
/// first object stored wins and both return it).
///
/// The object is held as a retained pointer in an `Atomic<UInt>` and released with the slot. (The
/// standard library's `AtomicLazyReference` does the same, but its `load` is not inlinable: every read
/// went through unspecialised generic code and metadata lookups, tripling a warm evaluation.) The
/// methods are `@inlinable` so that they are specialised in the modules that use them. The stored
/// type is a class of the caller's (value types go into a small non-generic final class next to their
/// use): a generic box class here would have its metadata instantiated at run time.
@usableFromInline package struct ComputedOnce<Instance: AnyObject & Sendable>: ~Copyable, Sendable {
    /// The stored object's retained address, or 0.
    @usableFromInline let slot = Atomic<UInt>(0)

    /// An empty slot.
    @inlinable package init() {}

    deinit {
        if let pointer = UnsafeRawPointer(bitPattern: slot.load(ordering: .acquiring)) {
            Unmanaged<Instance>.fromOpaque(pointer).release()
        }
    }

    /// The object, computed by `compute` if none was stored yet. Errors are not stored: the next call
    /// computes again.
    @inlinable package func value<Failure: Error>(orCompute compute: () throws(Failure) -> Instance) throws(Failure) -> Instance {
        if let stored = storedValue { return stored }
        let computed = try compute()
        let retained = Unmanaged.passRetained(computed)
        let (stored, original) = slot.compareExchange(
            expected: 0, desired: UInt(bitPattern: retained.toOpaque()),
            ordering: .acquiringAndReleasing)
        if stored { return computed }
        // Another thread published first: use its object, drop ours.
        retained.release()
        guard let pointer = UnsafeRawPointer(bitPattern: original) else { return computed }
        return Unmanaged<Instance>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// `body` applied to the object (computed by `compute` if none was stored yet), without a
    /// reference count: the slot keeps the object alive for as long as the caller can reach the slot,
    /// and an object read by concurrent evaluations is not retained and released by each of them
    /// (an atomic write to a cache line every core reads).
    @inlinable package func withValue<Result>(orCompute compute: () -> Instance, _ body: (Instance) -> Result) -> Result {
        if let pointer = UnsafeRawPointer(bitPattern: slot.load(ordering: .acquiring)) {
            return Unmanaged<Instance>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
        }
        return body(value(orCompute: compute))
    }

    /// The object if it was computed already.
    @inlinable package var storedValue: Instance? {
        guard let pointer = UnsafeRawPointer(bitPattern: slot.load(ordering: .acquiring)) else { return nil }
        return Unmanaged<Instance>.fromOpaque(pointer).takeUnretainedValue()
    }
}

/// A SHA-256 digest as an object, for ``ComputedOnce``: its bytes, and its cache-key words packed
/// once, so that reading the key copies four words instead of retaining the byte array (an
/// object that concurrent evaluations of one certificate share).
package final class ComputedDigest: Sendable {
    /// The digest's bytes.
    package let bytes: [UInt8]
    /// The digest as cache-key words.
    package let words: DigestWords

    /// Wraps `bytes`, a SHA-256 digest.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        words = DigestWords(bytes)
    }
}
