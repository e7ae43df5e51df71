import Foundation
import Synchronization

/// Why a loopback test gave up.
struct LoopbackTimeout: Error {}

/// `body`'s result, or `LoopbackTimeout` after `seconds`: every loopback test is bounded.
func withDeadline<T: Sendable>(seconds: Int = 60, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw LoopbackTimeout()
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw LoopbackTimeout() }
        return first
    }
}

/// Values reported from event loops, read by the test.
final class Reports<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    func add(_ value: Value) { values.withLock { $0.append(value) } }

    /// The first value, waiting up to 10 s for it.
    func first() async throws -> Value {
        for _ in 0..<200 {
            if let value = values.withLock({ $0.first }) { return value }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw LoopbackTimeout()
    }

    var all: [Value] { values.withLock { $0 } }
}
