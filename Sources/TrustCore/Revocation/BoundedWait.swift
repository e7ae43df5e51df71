import Synchronization

/// Waiting for work that may not end when asked to: a blocking name lookup on a worker thread, or
/// a fetcher that ignores cancellation. The caller stops waiting at its deadline or when its task is
/// cancelled, whatever the work does; the work is cancelled and its late result dropped.
package enum BoundedWait {
    /// Runs `operation` in a new task and returns its result, unless `deadline` passes first (throws
    /// `timedOut()`) or the calling task is cancelled first (throws `CancellationError`). In both
    /// cases the operation's task is cancelled and may end later; its result is dropped. The
    /// operation always starts, even past the deadline, so work that must pair a release with an
    /// acquire (a request slot) can rely on running once.
    package static func run<T: Sendable>(
        until deadline: ContinuousClock.Instant,
        timedOut: @escaping @Sendable () -> any Error,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let answer = FirstAnswer<T>()
        let work = Task {
            do { answer.resume(with: .success(try await operation())) } catch { answer.resume(with: .failure(error)) }
        }
        let timer = Task {
            // A cancelled sleep (the work answered first) must not time out the wait.
            guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
            answer.resume(with: .failure(timedOut()))
        }
        defer {
            work.cancel()
            timer.cancel()
        }
        return try await withTaskCancellationHandler {
            try await answer.value()
        } onCancel: {
            answer.resume(with: .failure(CancellationError()))
        }
    }
}

/// The first of several answers (work, timer, cancellation) for one waiter; later ones are dropped.
/// An answer that comes before the waiter is kept for it.
private final class FirstAnswer<T: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<T, any Error>)
        case answered(Result<T, any Error>)
        case delivered
    }

    private let state = Mutex<State>(.empty)

    func resume(with result: Result<T, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<T, any Error>? in
            switch state {
            case .empty:
                state = .answered(result)
                return nil
            case let .waiting(continuation):
                state = .delivered
                return continuation
            case .answered, .delivered:
                return nil
            }
        }
        waiter?.resume(with: result)
    }

    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<T, any Error>? in
                if case let .answered(result) = state {
                    state = .delivered
                    return result
                }
                state = .waiting(continuation)
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
