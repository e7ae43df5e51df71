import Synchronization

/// Counts the elementary steps (index lookups, comparisons, budgeted operations) of the algorithms
/// whose cost grows with input size, so that tests can check that doubling an input at most doubles
/// the work (docs/robustness.md) without measuring time. Counting is off unless a test binds a
/// counter with `WorkCounter.$current.withValue(counter) { … }`: then every step on that task or
/// thread is added to it.
final class WorkCounter: Sendable {
    /// The counter bound to the current task or thread, if any.
    @TaskLocal static var current: WorkCounter?

    private let tally = Atomic<Int>(0)

    /// The steps counted so far.
    var steps: Int { tally.load(ordering: .relaxed) }

    /// Adds `amount` steps to the bound counter, if one is bound.
    static func count(_ amount: Int = 1) {
        current?.tally.add(amount, ordering: .relaxed)
    }
}
