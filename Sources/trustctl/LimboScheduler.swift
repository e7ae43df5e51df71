import Foundation
import SwiftTrust

/// Runs x509-limbo testcases on several worker threads, each taking the next case as it finishes
/// one, and returns the results in the suite's order.
///
/// A case that runs longer than the timeout is reported as FAILURE and its worker is abandoned (it
/// cannot be stopped) and replaced, so one runaway case costs one thread, not the run. Cases are
/// independent (no cache can change a verdict), so the results do not depend on the number of jobs.
final class LimboScheduler: @unchecked Sendable {
    private let testcases: [LimboSuite.Testcase]
    private let profile: TrustProfile?
    private let timeout: Double
    /// Guards everything below; signalled whenever a case finishes.
    private let condition = NSCondition()
    private var results: [LimboResult?]
    private var finished = 0
    private var nextIndex = 0
    /// The case each worker is on and since when; nil while it is between cases.
    private var running: [Int: (index: Int, since: Date)] = [:]
    private var abandoned: Set<Int> = []
    private var nextWorker = 0

    init(testcases: [LimboSuite.Testcase], profile: TrustProfile?, timeout: Double) {
        self.testcases = testcases
        self.profile = profile
        self.timeout = timeout
        results = Array(repeating: nil, count: testcases.count)
    }

    /// Every result, in suite order, using `jobs` worker threads.
    func run(jobs: Int) -> [LimboResult] {
        condition.lock()
        for _ in 0..<min(max(1, jobs), max(1, testcases.count)) { startWorker() }
        while finished < testcases.count {
            _ = condition.wait(until: Date().addingTimeInterval(0.1))
            let now = Date()
            for (worker, task) in running where now.timeIntervalSince(task.since) > timeout {
                let testcase = testcases[task.index]
                record(
                    LimboResult(
                        id: testcase.id, actual_result: "FAILURE", context: "evaluation exceeded \(timeout) s",
                        expected: testcase.expected_result, category: testcase.category), at: task.index)
                running[worker] = nil
                abandoned.insert(worker)
                startWorker()
            }
        }
        condition.unlock()
        return results.enumerated().map { index, result in
            let testcase = testcases[index]
            return result
                ?? LimboResult(
                    id: testcase.id, actual_result: "FAILURE", context: "no result",
                    expected: testcase.expected_result, category: testcase.category)
        }
    }

    /// Starts a worker thread; called with the lock held.
    private func startWorker() {
        let worker = nextWorker
        nextWorker += 1
        Thread.detachNewThread { [self] in work(as: worker) }
    }

    private func work(as worker: Int) {
        condition.lock()
        while nextIndex < testcases.count, !abandoned.contains(worker) {
            let index = nextIndex
            nextIndex += 1
            running[worker] = (index, Date())
            condition.unlock()
            let result = LimboRunner.run(testcases[index], profile: profile)
            condition.lock()
            // An abandoned worker's late result is dropped: its case was already reported.
            guard !abandoned.contains(worker) else { break }
            running[worker] = nil
            record(result, at: index)
            condition.signal()
        }
        condition.unlock()
    }

    /// Stores a case's result; called with the lock held.
    private func record(_ result: LimboResult, at index: Int) {
        guard results[index] == nil else { return }
        results[index] = result
        finished += 1
    }
}
