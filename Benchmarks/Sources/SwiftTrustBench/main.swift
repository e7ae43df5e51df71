// swifttrust-bench: SwiftTrust vs OpenSSL 3 (libcrypto) vs swift-certificates, in one process,
// on the same chains. `scripts/bench` builds and runs it; see docs/performance.md.
//
//   swifttrust-bench [--certificates DIR] [--bundle PEM] [--pool N] [--samples N] [--sample-ms MS]
//                    [--trustctl PATH --limbo SUITE [--known-disagreements JSON] [--limbo-runs N]]
//                    [--scale-suite SUITE] [--throughput-rounds N] [--markdown OUT.md] [--json OUT.json] [--quick]
import COpenSSLBench
import Dispatch
import Foundation
import SwiftCertificatesBench
import SwiftTrust
// The caches' counts (reported at the end of a run) are test hooks.
@_spi(Testing) import TrustCore
@_spi(Testing) import TrustCrypto

struct Options {
    var certificates = "TestCertificates"
    var bundle = "/etc/ssl/certs/ca-certificates.crt"
    var pool = 100_000
    var memoryCopies = 10_000
    var configuration = HarnessConfiguration()
    var trustctl: String?
    var limbo: String?
    var knownDisagreements: String?
    var limboRuns = 3
    /// `--scale-suite PATH`: a suite of fresh chains (scripts/generate-scale-suite) for the
    /// throughput rounds and the limbo-at-scale timing.
    var scaleSuite: String?
    var throughputRounds = 5
    var quick = false
    var markdown: String?
    var json: String?
    /// `--profile OPERATION`: run one of our operations in a plain loop (for callgrind / perf), no timing.
    var profile: String?
    /// `--throughput-only`: only the throughput rounds (needs `--scale-suite`), printed as one line
    /// per scenario; for iterating on scaling without the whole run.
    var throughputOnly = false
    /// `--memory-only`: measure the heap per certificate, print it and exit.
    var memoryOnly = false
    var iterations = 10_000

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        func value(_ flag: String) throws -> String {
            guard let next = iterator.next() else { throw BenchError("\(flag) needs a value") }
            return next
        }
        while let argument = iterator.next() {
            switch argument {
            case "--certificates": certificates = try value(argument)
            case "--bundle": bundle = try value(argument)
            case "--pool": pool = Int(try value(argument)) ?? pool
            case "--samples": configuration.samples = max(3, Int(try value(argument)) ?? configuration.samples)
            case "--sample-ms": configuration.sampleTarget = .microseconds(Int((Double(try value(argument)) ?? 10) * 1000))
            case "--trustctl": trustctl = try value(argument)
            case "--limbo": limbo = try value(argument)
            case "--known-disagreements": knownDisagreements = try value(argument)
            case "--limbo-runs": limboRuns = max(1, Int(try value(argument)) ?? limboRuns)
            case "--scale-suite": scaleSuite = try value(argument)
            case "--throughput-rounds": throughputRounds = max(1, Int(try value(argument)) ?? throughputRounds)
            case "--markdown": markdown = try value(argument)
            case "--json": json = try value(argument)
            case "--profile": profile = try value(argument)
            case "--throughput-only": throughputOnly = true
            case "--memory-only": memoryOnly = true
            case "--iterations": iterations = max(1, Int(try value(argument)) ?? iterations)
            case "--quick":
                quick = true
                configuration.samples = 11
                configuration.sampleTarget = .milliseconds(2)
                pool = 10_000
                memoryCopies = 2_000
                limboRuns = 1
                throughputRounds = 2
            case "-h", "--help":
                print(
                    "usage: swifttrust-bench [--certificates DIR] [--bundle PEM] [--pool N] [--samples N] [--sample-ms MS] "
                        + "[--trustctl PATH --limbo SUITE [--known-disagreements JSON] [--limbo-runs N]] [--scale-suite SUITE [--throughput-only]] [--throughput-rounds N] "
                        + "[--markdown OUT] [--json OUT] [--quick] [--memory-only]\n"
                        + "       swifttrust-bench --profile parse|parse-validation|fresh|fresh-checked|fresh-cold|reused|reused-2threads|raw|lookup[-rsa]|psl [--iterations N]   (a plain loop, for callgrind; psl: the shipped public-suffix list parsed, once per process)"
                )
                exit(0)
            default: throw BenchError("unknown argument \(argument)")
            }
        }
    }
}

func log(_ message: String) {
    FileHandle.standardError.write(Data(("bench: " + message + "\n").utf8))
}

/// Everything that runs off the main thread: the timed groups.
enum Runner {
    nonisolated static func run(
        chains: [Chain], bundle: [[UInt8]], bundlePath: String, pool: IssuerPool?,
        options: Options
    ) async throws -> Results {
        var results = Results()
        for chain in chains {
            log("timing \(chain.name) …")
            results.chains.append(try await Suite.benchmarkChain(chain, configuration: options.configuration))
        }
        if !bundle.isEmpty {
            log("timing the bundle (\(bundle.count) certificates) …")
            results.bundle = await Suite.benchmarkBundle(bundle, path: bundlePath, configuration: options.configuration)
        }
        if let pool {
            log("timing issuer lookups …")
            let sizes = [1_000, 10_000, pool.certificates.count].filter { $0 <= pool.certificates.count }
            results.lookup = await Suite.benchmarkLookup(pool: pool, sizes: Array(Set(sizes)).sorted(), configuration: options.configuration)
        }
        return results
    }
}

let clock = ContinuousClock()
let started = clock.now
do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let date = Date(timeIntervalSince1970: 1_780_272_000) // 2026-06-01T00:00:00Z
    let host = "www.swifttrust.test"
    let chains = [
        try Chain.load(name: "ECDSA P-256", directory: options.certificates + "/ecdsa", host: host, date: date),
        try Chain.load(name: "RSA-2048", directory: options.certificates + "/rsa", host: host, date: date),
    ]

    if let operation = options.profile {
        try profileLoop(operation, chains: chains, iterations: options.iterations)
        exit(0)
    }
    if options.throughputOnly {
        guard let path = options.scaleSuite else { throw BenchError("--throughput-only needs --scale-suite") }
        let scale = try ScaleSuite.load(path)
        for row in try Throughput.measure(chain: chains[0], scale: scale.chains, rounds: options.throughputRounds, quick: options.quick) {
            let scaling = row.scaling.sorted()
            print("\(row.scenario): scaling \(scaling.map { String(format: "%.2f", $0) }.joined(separator: " "))")
        }
        exit(0)
    }

    // Main thread, before anything else allocates on other threads: memory (mallinfo2 counts
    // the main arena only), then the pool (its generation time and heap are reported too).
    for chain in chains { // first-use allocations (providers, tables) outside the measured regions
        _ = Ours.parse(chain.leaf); _ = LibCrypto.parseFull(chain.leaf); _ = SwiftCertificates.parse(chain.leaf)
    }
    log("memory: \(options.memoryCopies) copies per leaf …")
    var memory = measureMemory(chains: chains, copies: options.memoryCopies)
    if options.memoryOnly {
        for (label, bytes) in memory.perCertificate.sorted(by: { $0.key < $1.key }) { print("\(label): \(Int(bytes.rounded()))") }
        exit(0)
    }

    var pool: IssuerPool?
    var generateSeconds = 0.0
    if options.pool > 0 {
        log("generating a pool of \(options.pool) certificates …")
        let start = clock.now
        let grown = try heapGrowth { try IssuerPool.make(count: options.pool, chain: chains[0], commonName: "SwiftTrust Test Intermediate ECDSA") }
        generateSeconds = microseconds(clock.now - start) / 1e6
        pool = grown.value
        memory.notes.append(
            String(
                format: "The %d-certificate pool (parsed certificates, array) grew the heap by %.1f MiB "
                    + "(%.0f bytes per certificate, DER included).", options.pool, Double(grown.bytes) / 1_048_576,
                Double(grown.bytes) / Double(options.pool)))
    }

    var bundle: [[UInt8]] = []
    do { bundle = try loadBundle(options.bundle) } catch { log("no bundle: \(error)") }

    var results = try await Runner.run(chains: chains, bundle: bundle, bundlePath: options.bundle, pool: pool, options: options)
    results.memory = memory
    results.lookup.generateSeconds = generateSeconds
    results.openSSLVersion = String(LibCrypto.version.split(separator: " ").dropFirst().first ?? "?")
    results.samples = options.configuration.samples
    results.sampleMilliseconds = microseconds(options.configuration.sampleTarget) / 1000
    results.keyCacheCount = VerificationKeyCache.shared.count
    results.keyCacheCapacity = VerificationKeyCache.shared.capacity
    results.signatureCacheCount = SignatureCache.shared.count
    results.signatureCacheCapacity = SignatureCache.shared.capacity
    results.verdictCacheCount = ProfileVerdictCache.shared.count
    results.verdictCacheCapacity = ProfileVerdictCache.shared.capacity

    if let trustctl = options.trustctl, let suite = options.limbo {
        if FileManager.default.isExecutableFile(atPath: trustctl), FileManager.default.fileExists(atPath: suite) {
            log("running the x509-limbo suite \(options.limboRuns)× …")
            do {
                results.limbo = try runLimbo(
                    trustctl: trustctl, suite: suite, knownDisagreements: options.knownDisagreements,
                    runs: options.limboRuns)
            } catch { results.limboError = "\(error)" }
        } else {
            results.limboError = "\(trustctl) or \(suite) missing"
        }
    }
    if let path = options.scaleSuite {
        log("throughput on 1 and 2 threads (\(options.throughputRounds) rounds) …")
        let scale = try ScaleSuite.load(path)
        results.throughput = try Throughput.measure(
            chain: chains[0], scale: scale.chains, rounds: options.throughputRounds,
            quick: options.quick)
        if let trustctl = options.trustctl {
            log("running the scale suite through trustctl limbo …")
            results.scaleLimbo = try runLimbo(trustctl: trustctl, suite: path, knownDisagreements: nil, runs: 1)
            results.scaleCases = scale.caseCount
        }
    }
    results.benchSeconds = microseconds(clock.now - started) / 1e6

    let text = markdown(results)
    print(text)
    if let path = options.markdown {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { throw BenchError("cannot write \(path)") }
    }
    if let path = options.json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard FileManager.default.createFile(atPath: path, contents: try encoder.encode(results)) else { throw BenchError("cannot write \(path)") }
    }
} catch {
    log("error: \(error)")
    exit(1)
}

/// Runs one SwiftTrust operation `iterations` times with no clock in the way, e.g.
/// `valgrind --tool=callgrind swifttrust-bench --profile parse --iterations 2000`.
func profileLoop(_ operation: String, chains: [Chain], iterations: Int) throws {
    let chain = operation.hasSuffix("-rsa") ? chains[1] : chains[0]
    let parsed = try ParsedChain(chain)
    var ok = 0
    switch operation.replacingOccurrences(of: "-rsa", with: "") {
    case "parse": ok = loop(iterations) { Ours.parse(chain.leaf) }
    case "parse-validation": ok = loop(iterations) { Ours.parseValidated(chain.leaf) }
    case "fresh": ok = loop(iterations) { Ours.verifyFresh(chain)?.isTrusted == true }
    case "fresh-checked":
        ok = loop(iterations) {
            SignatureCache.shared.removeAll()
            return Ours.verifyFresh(chain)?.isTrusted == true
        }
    case "fresh-cold":
        ok = loop(iterations) {
            VerificationKeyCache.shared.removeAll()
            SignatureCache.shared.removeAll()
            ProfileVerdictCache.shared.removeAll()
            return Ours.verifyFresh(chain)?.isTrusted == true
        }
    case "reused": ok = loop(iterations) { Ours.verifyReused(parsed, chain).isTrusted }
    case "reused-2threads":
        // The scaling row "same chain, objects reused", for a sampling profiler (`perf record -e
        // cpu-clock`): where two threads wait on each other shows up as hot shared cache lines.
        let succeeded = Counter()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            var trusted = 0 // counted per thread: a shared counter would be one more contended line
            for _ in 0..<iterations / 2 where Ours.verifyReused(parsed, chain).isTrusted { trusted += 1 }
            succeeded.add(trusted)
        }
        ok = succeeded.value
    case "raw":
        let check = try OursSignatureCheck(child: parsed.leaf, issuer: parsed.intermediate)
        ok = loop(iterations) { check.check() }
    case "psl": ok = loop(iterations) { pslOnce() }
    case "lookup":
        let pool = try IssuerPool.make(count: 10_000, chain: chains[0], commonName: "SwiftTrust Test Intermediate ECDSA")
        let store = CertificateStore(pool.certificates)
        ok = loop(iterations) { store.candidateIssuers(of: pool.probe).count == 1 }
    default: throw BenchError("unknown --profile operation \(operation)")
    }
    log("\(operation): \(ok)/\(iterations) succeeded")
}

/// One public-suffix lookup; the first in a process parses the shipped list (what a process's first
/// wildcard check pays): `valgrind --tool=callgrind --toggle-collect='$s16swifttrust_bench7pslOnceSbyF'`.
@inline(never) func pslOnce() -> Bool { PublicSuffixList.snapshot.isPublicSuffix("com") }
