import Synchronization

/// Counts the elementary steps (index lookups, comparisons, budgeted operations) of the algorithms
/// whose cost grows with input size, so that tests can check that doubling an input at most doubles
/// the work (docs/robustness.md) without measuring time. Counting is off unless a test runs its work
/// inside ``counting(_:)``: then every step on that task or thread is added to the counter.
package final class WorkCounter: Sendable {
    /// The counter bound to the current task or thread, if any.
    @TaskLocal private static var current: WorkCounter?

    /// How many ``counting(_:)`` scopes are open in the process. Steps are counted on every
    /// evaluation's hot path: one relaxed load of this is far cheaper than reading the task-local
    /// value (a runtime call per step) when nothing is counting, which is always outside the tests.
    private static let openScopes = Atomic<Int>(0)

    private let tally = Atomic<Int>(0)

    /// The steps counted so far.
    package var steps: Int { tally.load(ordering: .relaxed) }

    /// Runs `body` with this counter bound to the current task or thread.
    package func counting<Result>(_ body: () throws -> Result) rethrows -> Result {
        // Opened before the body runs on this thread, so its steps see it (same-thread order).
        WorkCounter.openScopes.add(1, ordering: .relaxed)
        defer { WorkCounter.openScopes.subtract(1, ordering: .relaxed) }
        return try WorkCounter.$current.withValue(self) { try body() }
    }

    /// Adds `amount` steps to the bound counter, if one is bound.
    package static func count(_ amount: Int = 1) {
        guard openScopes.load(ordering: .relaxed) != 0 else { return }
        current?.tally.add(amount, ordering: .relaxed)
    }
}
