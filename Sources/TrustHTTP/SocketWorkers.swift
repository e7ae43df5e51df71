import Dispatch
import Foundation
import Synchronization

/// A fixed set of threads for blocking socket waits, started on first use and reused for every
/// request. Blocking Dispatch's global queues instead would starve other Dispatch work (their
/// pool grows slowly on Linux), and a thread per request is unbounded.
final class SocketWorkers: Sendable {
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let pending = DispatchSemaphore(value: 0)

    /// Starts `count` worker threads (at least one).
    init(count: Int) {
        for _ in 0..<max(1, count) {
            Thread.detachNewThread { [self] in
                while true {
                    pending.wait()
                    let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                    job?()
                }
            }
        }
    }

    /// Runs `job` on the next free worker.
    func run(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        pending.signal()
    }
}
