// Throughput on one and two cores: do the process-wide caches and stores let concurrent evaluations
// scale? Each scenario runs the same total work on 1 thread and split across 2 threads, rounds
// interleaved; scaling = (operations/s on 2 threads) / (operations/s on 1 thread). Target ≥ 1.8.
import Dispatch
import Foundation
import SwiftTrust

/// The scale suite (scripts/generate-scale-suite): its valid chains, kept as DER so that every use
/// parses afresh, and its number of cases.
struct ScaleSuite: Sendable {
    let chains: [Chain]
    let caseCount: Int

    /// Reads an x509-limbo document written by scripts/scale_suite.py.
    static func load(_ path: String) throws -> ScaleSuite {
        struct Document: Decodable {
            struct Case: Decodable {
                struct PeerName: Decodable { let value: String }
                let trusted_certs: [String]
                let untrusted_intermediates: [String]
                let peer_certificate: String
                let expected_result: String
                let expected_peer_name: PeerName
            }
            let testcases: [Case]
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("cannot read \(path)") }
        let document = try JSONDecoder().decode(Document.self, from: data)
        func der(_ pem: String) throws -> [UInt8] {
            guard let block = try PEM.decode(pem).first else { throw BenchError("no PEM block in a case of \(path)") }
            return block.der
        }
        let date = Date(timeIntervalSince1970: 1_780_272_000) // the suite's validation time, 2026-06-01
        let chains = try document.testcases.filter { $0.expected_result == "SUCCESS" && $0.untrusted_intermediates.count == 1 }
            .map { testcase in
                Chain(
                    name: "scale", root: try der(testcase.trusted_certs[0]), intermediate: try der(testcase.untrusted_intermediates[0]),
                    leaf: try der(testcase.peer_certificate), host: testcase.expected_peer_name.value, date: date)
            }
        return ScaleSuite(chains: chains, caseCount: document.testcases.count)
    }
}

struct ThroughputRow: Sendable, Codable {
    let scenario: String
    let operationsPerRound: Int
    /// The control row (libcrypto alone), not a target.
    var isControl = false
    /// A diagnostic row (explains another row), not a target.
    var isDiagnostic = false
    /// Operations per second, one entry per round.
    var oneThread: [Double] = []
    var twoThreads: [Double] = []

    var scaling: [Double] { zip(twoThreads, oneThread).map { $0 / $1 } }
}

enum Throughput {
    /// Runs `operation(thread, index)` for indices 0..<total, split evenly over `threads` threads
    /// started together; returns operations per second of wall time. Fails if any operation fails.
    static func run(threads: Int, total: Int, _ operation: @escaping @Sendable (Int) -> Bool) throws -> Double {
        let failures = Counter()
        let start = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let share = total / threads
            for index in (thread * share)..<((thread + 1) * share) where !operation(index) {
                failures.increment()
            }
        }
        let elapsed = ContinuousClock.now - start
        guard failures.value == 0 else { throw BenchError("\(failures.value) operations failed in a throughput round") }
        return Double(total - total % threads) / seconds(elapsed)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The three scenarios, `rounds` rounds each, 1 and 2 threads interleaved.
    static func measure(chain: Chain, scale: [Chain], rounds: Int, quick: Bool) throws -> [ThroughputRow] {
        let parsed = try ParsedChain(chain)
        var rows: [ThroughputRow] = []
        // A chain seen before, objects reused: every evaluation meets the shared caches' locks.
        let reusedCount = quick ? 20_000 : 200_000
        var reused = ThroughputRow(scenario: "same chain, objects reused (\(chain.name))", operationsPerRound: reusedCount)
        // A diagnostic, not a target: the same, with one parsed copy of the chain per thread. The
        // caches are still shared (same keys, same shards, same locks); the certificate objects are
        // not. The gap to the row above is what reference counting on certificate objects that both
        // threads hold costs.
        let perThread = [parsed, try ParsedChain(chain)]
        var reusedPerThread = ThroughputRow(
            scenario: "diagnostic: same chain, objects reused, one copy of them per thread (\(chain.name); caches shared)",
            operationsPerRound: reusedCount, isDiagnostic: true)
        // The same chain parsed afresh each time (caches warm): parse + evaluate.
        let freshCount = quick ? 4_000 : 40_000
        var fresh = ThroughputRow(scenario: "same chain, fresh objects (\(chain.name))", operationsPerRound: freshCount)
        // Different chains, each new to the caches: every key is built and every signature checked.
        // A round takes the next slice of the suite; the caches (1024 keys, 4096 signatures) have
        // forgotten a slice by the time it comes round again.
        let coldCount = min(scale.count, quick ? 400 : 2_000)
        var cold = ThroughputRow(scenario: "different fresh chains (ECDSA P-256 scale suite, nothing cached)", operationsPerRound: coldCount)
        // The control: libcrypto alone (one ECDSA verification with a pre-built key; no SwiftTrust
        // cache, store or lock), which shows how far this machine's two cores scale at all.
        let check = try OursSignatureCheck(child: parsed.leaf, issuer: parsed.intermediate)
        let controlCount = quick ? 2_000 : 20_000
        var control = ThroughputRow(
            scenario: "control: one raw ECDSA verification, no SwiftTrust code (the machine's own scaling)",
            operationsPerRound: controlCount, isControl: true)
        var offset = 0
        for round in 0..<rounds {
            for threads in round % 2 == 0 ? [1, 2] : [2, 1] {
                let a = try run(threads: threads, total: reusedCount) { _ in Ours.verifyReused(parsed, chain).isTrusted }
                // Index order is thread order (`run` gives each thread one contiguous half).
                let e = try run(threads: threads, total: reusedCount) { index in
                    Ours.verifyReused(perThread[index < reusedCount / 2 ? 0 : 1], chain).isTrusted
                }
                let b = try run(threads: threads, total: freshCount) { _ in Ours.verifyFresh(chain)?.isTrusted == true }
                var c = 0.0
                if coldCount > 0 {
                    let base = offset
                    c = try run(threads: threads, total: coldCount) { index in
                        Ours.verifyFresh(scale[(base + index) % scale.count])?.isTrusted == true
                    }
                    offset = (offset + coldCount) % scale.count
                }
                let d = try run(threads: threads, total: controlCount) { _ in check.check() }
                if threads == 1 {
                    reused.oneThread.append(a); fresh.oneThread.append(b); cold.oneThread.append(c); control.oneThread.append(d)
                    reusedPerThread.oneThread.append(e)
                } else {
                    reused.twoThreads.append(a); fresh.twoThreads.append(b); cold.twoThreads.append(c); control.twoThreads.append(d)
                    reusedPerThread.twoThreads.append(e)
                }
            }
        }
        rows = [reused, reusedPerThread, fresh]
        if coldCount > 0 { rows.append(cold) }
        rows.append(control)
        return rows
    }
}

/// A count shared by threads (failures of a throughput round, successes of a two-thread profile loop).
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { add(1) }
    func add(_ amount: Int) { lock.lock(); count += amount; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
