import Foundation
import TrustCrypto
import TrustTestSupport
import XCTest

/// Issue 13 item 7: the conformance suites give the same verdict and the same reasons with caches on
/// and off. (The scenario suite is compared in-process: every evaluation in ``ScenarioTests`` runs in
/// each ``CacheMode``.)
///
/// The suites run through the built `trustctl` — the code path of `scripts/conformance` — once as
/// is and once with `SWIFTTRUST_CACHES=off`, each writing its standard result document (`--output`:
/// per testcase the id, the answer, and as context the failure reasons), which must agree entry for
/// entry. PKITS: once `trustctl pkits` writes the same kind of document, add a test here that calls
/// ``assertResultsIndependentOfCaches(_:resultDocument:)`` with its arguments.
final class CacheEquivalenceTests: XCTestCase {
    private var workDirectory: URL!

    override func setUpWithError() throws {
        workDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("CacheEquivalence-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let workDirectory { try? FileManager.default.removeItem(at: workDirectory) }
    }

    /// The x509-limbo suite (`LIMBO_SUITE`, else the repository's `TestData/x509-limbo/limbo.json`,
    /// as `scripts/conformance`), with every testcase in it twice — the second copy renamed
    /// `ID#again` — so that with caches on the second copy meets caches the first one filled.
    func testLimboVerdictsAndReasonsAreIndependentOfCaches() throws {
        let suitePath =
            ProcessInfo.processInfo.environment["LIMBO_SUITE"]
            ?? TestCertificates.repositoryRoot.appendingPathComponent("TestData/x509-limbo/limbo.json").path
        guard let data = FileManager.default.contents(atPath: suitePath),
            var suite = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let testcases = suite["testcases"] as? [[String: Any]]
        else {
            return XCTFail("no x509-limbo suite at \(suitePath) (set LIMBO_SUITE)")
        }
        let again = testcases.map { testcase in
            testcase.merging(["id": "\(testcase["id"] as? String ?? "")#again"]) { _, renamed in renamed }
        }
        suite["testcases"] = testcases + again
        let doubled = workDirectory.appendingPathComponent("limbo-twice.json")
        try JSONSerialization.data(withJSONObject: suite).write(to: doubled)

        let results = try assertResultsIndependentOfCaches(["limbo", doubled.path], resultDocument: "--output")
        XCTAssertEqual(results.count, 2 * testcases.count)
        for (id, outcome) in results where !id.hasSuffix("#again") {
            XCTAssertEqual(results["\(id)#again"], outcome, "\(id): the second run of the testcase differs from the first")
        }
        // The comparison means something only if both answers occur (and failures carry reasons).
        XCTAssertTrue(results.values.contains { $0.answer == "SUCCESS" })
        XCTAssertTrue(results.values.contains { $0.answer == "FAILURE" && !$0.context.isEmpty })
    }

    /// `trustctl limbo --jobs N` runs testcases on N worker threads: the result document must list
    /// the same testcases in the suite's order with the same answers and contexts for 1 and 2 jobs.
    func testLimboResultsAreIndependentOfTheNumberOfJobs() throws {
        let suitePath =
            ProcessInfo.processInfo.environment["LIMBO_SUITE"]
            ?? TestCertificates.repositoryRoot.appendingPathComponent("TestData/x509-limbo/limbo.json").path
        let trustctl = try Self.trustctlPath()
        var documents: [[(id: String, outcome: Outcome)]] = []
        for jobs in [1, 2] {
            let output = workDirectory.appendingPathComponent("results-jobs-\(jobs).json")
            let run = try OpenSSLVerifyDifferentialTests.run(
                trustctl, ["limbo", suitePath, "--jobs", "\(jobs)", "--output", output.path],
                environment: [:])
            XCTAssertTrue(run.status == 0 || run.status == 1, "trustctl exited \(run.status): \(run.output)")
            let data = try Data(contentsOf: output)
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let results = object?["results"] as? [[String: Any]] ?? []
            documents.append(
                results.map { result in
                    (
                        result["id"] as? String ?? "",
                        Outcome(
                            answer: result["actual_result"] as? String ?? "",
                            context: result["context"] as? String ?? "")
                    )
                })
        }
        XCTAssertGreaterThan(documents[0].count, 100)
        XCTAssertEqual(documents[0].map(\.id), documents[1].map(\.id), "the results must be in suite order whatever the jobs")
        for (one, two) in zip(documents[0], documents[1]) where one.outcome != two.outcome {
            XCTFail("\(one.id): --jobs 1 \(one.outcome), --jobs 2 \(two.outcome)")
        }
        XCTAssertTrue(documents[1].contains { $0.outcome.answer == "FAILURE" && !$0.outcome.context.isEmpty })
    }

    /// One testcase's answer and context in a result document.
    struct Outcome: Equatable {
        let answer: String
        let context: String
    }

    /// Runs `trustctl arguments… <resultDocument> FILE` with caches on and with `SWIFTTRUST_CACHES=off`,
    /// asserts that both documents hold the same testcases with the same answers and contexts, and
    /// returns the outcomes by testcase id.
    @discardableResult
    func assertResultsIndependentOfCaches(
        _ arguments: [String], resultDocument option: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [String: Outcome] {
        let trustctl = try Self.trustctlPath()
        var documents: [String: [String: Outcome]] = [:]
        for setting in ["on", "off"] {
            let output = workDirectory.appendingPathComponent("results-\(setting).json")
            let run = try OpenSSLVerifyDifferentialTests.run(
                trustctl, arguments + [option, output.path],
                environment: [TrustCaches.environmentVariable: setting])
            // Exit 1 reports wrong answers, which the conformance gate judges; here only the agreement counts.
            XCTAssertTrue(run.status == 0 || run.status == 1, "trustctl exited \(run.status): \(run.output)", file: file, line: line)
            // The tool confirms which setting it ran with, so an ignored variable cannot pass unnoticed.
            XCTAssertTrue(
                run.output.contains("caches: \(setting) (\(TrustCaches.environmentVariable))"), run.output,
                file: file, line: line)
            documents[setting] = try Self.outcomes(in: output)
        }
        let on = documents["on"] ?? [:], off = documents["off"] ?? [:]
        XCTAssertFalse(on.isEmpty, "no results", file: file, line: line)
        XCTAssertEqual(Set(on.keys), Set(off.keys), file: file, line: line)
        for (id, outcome) in on.sorted(by: { $0.key < $1.key }) where off[id] != outcome {
            XCTFail("\(id): caches on \(outcome), caches off \(off[id].map(String.init(describing:)) ?? "missing")", file: file, line: line)
        }
        return on
    }

    /// The outcomes in a standard result document (`{"results": [{"id", "actual_result", "context"}]}`).
    static func outcomes(in document: URL) throws -> [String: Outcome] {
        let data = try Data(contentsOf: document)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let results = object["results"] as? [[String: Any]]
        else {
            throw CocoaError(.fileReadCorruptFile)
        }
        var outcomes: [String: Outcome] = [:]
        for result in results {
            guard let id = result["id"] as? String, let answer = result["actual_result"] as? String else {
                throw CocoaError(.fileReadCorruptFile)
            }
            outcomes[id] = Outcome(answer: answer, context: result["context"] as? String ?? "")
        }
        return outcomes
    }

    /// The `trustctl` built alongside this test bundle (`swift build --build-tests` builds both).
    static func trustctlPath() throws -> String {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let bundle = Bundle(for: CacheEquivalenceTests.self).bundleURL
        let candidates = [executable, bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("trustctl").path }
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            XCTFail("trustctl is not built next to the tests (looked at \(candidates)); run swift build --build-tests")
            throw CocoaError(.fileNoSuchFile)
        }
        return path
    }
}
