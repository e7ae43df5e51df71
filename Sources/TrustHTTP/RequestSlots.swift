import Synchronization

/// An asynchronous counting semaphore: at most `limit` holders at once, the others wait in arrival
/// order. A waiter whose task is cancelled leaves the queue at once with `CancellationError`.
final class RequestSlots: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var available: Int
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    /// Slots for `limit` concurrent holders (at least one).
    init(limit: Int) {
        state = Mutex(State(available: max(1, limit)))
    }

    /// Waits for a free slot; every successful call must be paired with one ``release()``.
    func acquire() async throws {
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
                    if state.available > 0 {
                        state.available -= 1
                        return .success(())
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
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

    /// Frees a slot, handing it to the longest waiter if there is one.
    func release() {
        let next = state.withLock { state -> Waiter? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume()
    }
}
