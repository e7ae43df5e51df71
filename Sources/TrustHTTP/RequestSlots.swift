import Synchronization

/// An asynchronous counting semaphore with a second limit per host: at most `limit` holders at
/// once, and at most `perHostLimit` of them for one host, so that requests to one responder that
/// never answers cannot hold every slot and queue every other handshake behind it. Waiters are
/// served in arrival order among those whose host is under its limit. A waiter whose task is
/// cancelled leaves the queue at once with `CancellationError`.
final class RequestSlots: Sendable {
    private struct Waiter {
        let id: UInt64
        let host: String
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var available: Int
        let perHostLimit: Int
        /// Slots held per host; a host holding none has no entry, so the table stays as small as the
        /// number of hosts being asked.
        var held: [String: Int] = [:]
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0

        func mayTake(_ host: String) -> Bool { available > 0 && held[host, default: 0] < perHostLimit }

        mutating func take(_ host: String) {
            available -= 1
            held[host, default: 0] += 1
        }

        /// Hands free slots to the longest waiters that may take one, in arrival order.
        mutating func grant() -> [CheckedContinuation<Void, any Error>] {
            var granted: [CheckedContinuation<Void, any Error>] = []
            while available > 0, let index = waiters.firstIndex(where: { mayTake($0.host) }) {
                let waiter = waiters.remove(at: index)
                take(waiter.host)
                granted.append(waiter.continuation)
            }
            return granted
        }
    }

    private let state: Mutex<State>

    /// Slots for `limit` concurrent holders, at most `perHostLimit` for one host (each at least one).
    init(limit: Int, perHostLimit: Int) {
        state = Mutex(State(available: max(1, limit), perHostLimit: max(1, perHostLimit)))
    }

    /// Waits for a free slot for `host`; every successful call must be paired with one
    /// ``release(for:)`` for the same host.
    func acquire(for host: String) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID &+= 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Checked under the lock: the cancellation handler sets the task's flag before it takes
                // the lock, so either it finds this waiter queued or this check sees the flag.
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    // No waiter that may take a slot is ever left queued (``State/grant()`` runs at
                    // every release), so taking one now jumps no queue.
                    if state.mayTake(host) {
                        state.take(host)
                        return .success(())
                    }
                    state.waiters.append(Waiter(id: id, host: host, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Frees `host`'s slot, handing it (or the global slot alone) to the longest waiter that may take it.
    func release(for host: String) {
        let granted = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.available += 1
            let count = state.held[host, default: 0] - 1
            state.held[host] = count > 0 ? count : nil
            return state.grant()
        }
        for continuation in granted { continuation.resume() }
    }
}
