import ArgumentParser
import Foundation
import SwiftTrust

/// `trustctl limbo`: run an x509-limbo suite through ServerTrust and report.
struct Limbo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run an x509-limbo test suite (JSON) through ServerTrust.",
        discussion: """
            Ends with the line 'N passed, N failed, N skipped'. Exit 1 when any attempted case is wrong.
            Example: trustctl limbo limbo.json --include 'rfc5280::nc::*' --verbose
            runs the name-constraint cases only and lists each wrong one with its context (the failures of the \
            most relevant path tried).
            """
    )

    @Argument(help: "The suite file (limbo.json).")
    var suite: String

    @Option(help: "Write the standard result document here.")
    var output: String?

    @Option(help: "Only run testcases whose id matches this glob (repeatable).")
    var include: [String] = []

    @Option(help: "Skip testcases whose id matches this glob (repeatable; reported as not run, not as skipped).")
    var exclude: [String] = []

    @Option(help: "Seconds one testcase may take before it is reported as FAILURE.")
    var timeout: Double = 10

    @Option(help: "Testcases evaluated at once, on as many threads (default: the number of active processors). The results do not depend on it.")
    var jobs: Int?

    @Option(
        help:
            "Known disagreements (JSON list of {id, rule, reason}): reported as wrong but not failing the run; a listed case that passes fails the run so the list stays current."
    )
    var knownDisagreements: String?

    @Option(help: "Write the conformance report (Markdown) here.")
    var markdown: String?

    @Option(help: "Run every testcase under this profile (ssl, webpki, rfc5280, rfc5280-strict) instead of the one its namespace is written for.")
    var profile: TrustProfile?

    @Flag(help: "Print the per-case results as JSON instead of the text summary.")
    var json = false

    @Flag(help: "List every wrong case with its context.")
    var verbose = false

    func run() throws {
        let data = Data(try readInput(suite))
        let document: LimboSuite
        do { document = try JSONDecoder().decode(LimboSuite.self, from: data) } catch {
            printError("error: \(suite): not an x509-limbo suite: \(error)")
            throw ExitCode(2)
        }
        let selected = document.testcases.filter { testcase in
            (include.isEmpty || include.contains { Glob.matches(testcase.id, pattern: $0) })
                && !exclude.contains { Glob.matches(testcase.id, pattern: $0) }
        }
        let started = Date()
        let results = LimboScheduler(testcases: selected, profile: profile, timeout: timeout)
            .run(jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        let elapsed = Date().timeIntervalSince(started)

        if let output {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            struct Document: Encodable {
                let version = 1
                let harness = "swifttrust"
                let results: [LimboResult]
            }
            let bytes = try encoder.encode(Document(results: results))
            guard FileManager.default.createFile(atPath: output, contents: bytes) else {
                printError("error: cannot write \(output)")
                throw ExitCode(2)
            }
        }
        let conflicts = Dictionary(document.testcases.map { ($0.id, $0.conflicts_with ?? []) }, uniquingKeysWith: { a, _ in a })
        let summary = LimboSummary(results: results, seconds: elapsed, conflicts: conflicts)
        if json {
            try Output.printJSON(results)
        } else {
            Output.print(lines: summary.lines(verbose: verbose))
        }
        var known: [KnownDisagreement] = []
        if let knownDisagreements {
            do { known = try JSONDecoder().decode([KnownDisagreement].self, from: Data(try readInput(knownDisagreements))) } catch {
                printError("error: \(knownDisagreements): \(error)")
                throw ExitCode(2)
            }
        }
        let gate = LimboGate(summary: summary, known: known)
        if let markdown {
            let page = ConformanceReport(summary: summary, gate: gate, suitePath: suite).markdown
            guard FileManager.default.createFile(atPath: markdown, contents: Data(page.utf8)) else {
                printError("error: cannot write \(markdown)")
                throw ExitCode(2)
            }
        }
        for problem in gate.problems { Output.print("gate: \(problem)") }
        // Caches never change a verdict; saying whether they were on lets runs be compared (SWIFTTRUST_CACHES=off).
        Output.print("caches: \(TrustCaches.isEnabled ? "on" : "off") (\(TrustCaches.environmentVariable))")
        // "failed" counts the wrong answers the gate does not accept; documented ones are listed above it.
        Output.print("documented wrong answers: \(gate.documentedWrong) known disagreements, \(summary.conflicted) declared conflicts")
        Output.print("\(summary.passed) passed, \(gate.unexpectedWrong) failed, \(summary.skipped) skipped")
        if !gate.problems.isEmpty { throw ExitCode(1) }
    }
}

/// Counts per category and overall.
///
/// A wrong answer on a testcase that the suite itself declares in conflict with another
/// (`conflicts_with`: the same input with the opposite expectation under another profile) is
/// counted as a *conflict*, not a failure, provided every case it conflicts with was attempted and
/// answered right: no verifier can satisfy both, and we answer the way our profile prescribes.
///
/// Every count is computed once, in one pass over the results (the set of correct ids is built
/// once, not per case: a suite of thousands of cases is summarised in linear time).
struct LimboSummary {
    let results: [LimboResult]
    let seconds: Double
    let conflicts: [String: [String]]
    /// Attempted cases whose answer differs from the expectation.
    let wrongResults: [LimboResult]
    let passed: Int
    let failed: Int
    let conflicted: Int
    let skipped: Int
    private let correctIDs: Set<String>
    private let declaredConflictIDs: Set<String>

    init(results: [LimboResult], seconds: Double, conflicts: [String: [String]] = [:]) {
        self.results = results
        self.seconds = seconds
        self.conflicts = conflicts
        var correct = Set<String>()
        var wrong: [LimboResult] = []
        var skipped = 0
        for result in results {
            if result.actual_result == "SKIPPED" {
                skipped += 1
            } else if result.actual_result == result.expected {
                correct.insert(result.id)
            } else {
                wrong.append(result)
            }
        }
        let declared = wrong.filter { result in
            guard let partners = conflicts[result.id], !partners.isEmpty else { return false }
            return partners.allSatisfy(correct.contains)
        }
        correctIDs = correct
        declaredConflictIDs = Set(declared.map(\.id))
        wrongResults = wrong
        passed = correct.count
        conflicted = declared.count
        failed = wrong.count - declared.count
        self.skipped = skipped
    }

    /// Whether `result` is wrong only because the suite declares it in conflict with cases we answer right.
    func isDeclaredConflict(_ result: LimboResult) -> Bool {
        declaredConflictIDs.contains(result.id) && result.actual_result != "SKIPPED" && result.actual_result != result.expected
    }

    /// The per-category table and the wrong cases, one line each.
    func lines(verbose: Bool) -> [String] {
        var lines: [String] = []
        let categories = ["rfc5280", "webpki", "pathlen", "pathological", "crl", "cve", "online", "invalid"]
        let others = Set(results.map(\.category)).subtracting(categories).sorted()
        lines.append("category        correct  wrong  conflict  skipped")
        let wrongIDs = Set(wrongResults.map(\.id))
        for category in categories + others {
            let inCategory = results.filter { $0.category == category }
            guard !inCategory.isEmpty else { continue }
            let correct = inCategory.filter { correctIDs.contains($0.id) }.count
            let conflict = inCategory.filter { wrongIDs.contains($0.id) && isDeclaredConflict($0) }.count
            let bad = inCategory.filter { wrongIDs.contains($0.id) }.count - conflict
            let skip = inCategory.filter { $0.actual_result == "SKIPPED" }.count
            lines.append(
                category.padding(toLength: 16, withPad: " ", startingAt: 0)
                    + String(format: "%7d  %5d  %8d  %7d", correct, bad, conflict, skip))
        }
        lines.append(String(format: "suite time: %.3f s for %d testcases", seconds, results.count))
        if !wrongResults.isEmpty {
            lines.append("wrong:")
            for result in wrongResults {
                let tag = isDeclaredConflict(result) ? " [declared conflict with \((conflicts[result.id] ?? []).joined(separator: ", "))]" : ""
                lines.append(
                    "  \(result.id): expected \(result.expected), got \(result.actual_result)\(tag)"
                        + (verbose ? " — \(result.context ?? "")" : ""))
            }
        }
        return lines
    }
}

/// Shell-style globs (`*`, `?`) for --include / --exclude.
enum Glob {
    static func matches(_ text: String, pattern: String) -> Bool {
        let t = Array(text), p = Array(pattern)
        var ti = 0, pi = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count && (p[pi] == "?" || p[pi] == t[ti]) {
                ti += 1; pi += 1
            } else if pi < p.count && p[pi] == "*" {
                star = pi; mark = ti; pi += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
