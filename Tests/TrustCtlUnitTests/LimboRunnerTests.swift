import Foundation
import TrustTestSupport
import XCTest
@testable import trustctl

/// The limbo runner: the testcase fields it honours, and a summary whose cost grows linearly.
final class LimboRunnerTests: XCTestCase {
    private static let certificates = TestCertificates.directory

    private static func pem(_ relative: String) throws -> String {
        try String(contentsOf: certificates.appendingPathComponent(relative), encoding: .utf8)
    }

    /// A testcase over the committed ECDSA hierarchy with `fields` (JSON) merged in.
    private static func testcase(leaf: String, _ fields: [String: Any]) throws -> LimboSuite.Testcase {
        var object: [String: Any] = [
            "id": "swifttrust::test", "description": "", "validation_kind": "SERVER",
            "trusted_certs": [try pem("ecdsa/root.pem")], "untrusted_intermediates": [try pem("ecdsa/intermediate.pem")],
            "peer_certificate": try pem(leaf), "validation_time": "2026-06-01T00:00:00Z", "expected_result": "SUCCESS",
        ]
        object.merge(fields) { _, new in new }
        return try JSONDecoder().decode(LimboSuite.Testcase.self, from: JSONSerialization.data(withJSONObject: object))
    }

    func testACaseListingSHA1RunsWithLegacyAlgorithms() throws {
        let name = ["kind": "DNS", "value": "www.swifttrust.test"]
        let strict = try Self.testcase(leaf: "scenarios/leaf-sha1.pem", ["expected_peer_name": name])
        XCTAssertEqual(LimboRunner.run(strict).actual_result, "FAILURE")
        let sha256Only = try Self.testcase(
            leaf: "scenarios/leaf-sha1.pem",
            ["expected_peer_name": name, "signature_algorithms": ["ECDSA_WITH_SHA256"]])
        XCTAssertEqual(LimboRunner.run(sha256Only).actual_result, "FAILURE")
        let legacy = try Self.testcase(
            leaf: "scenarios/leaf-sha1.pem",
            ["expected_peer_name": name, "signature_algorithms": ["ECDSA_WITH_SHA256", "ECDSA_WITH_SHA1"]])
        let result = LimboRunner.run(legacy)
        XCTAssertEqual(result.actual_result, "SUCCESS", result.context ?? "")
    }

    func testEveryListedExtendedKeyUsageMustHold() throws {
        // ecdsa/leaf-client.pem asserts clientAuth only.
        let client = try Self.testcase(leaf: "ecdsa/leaf-client.pem", ["validation_kind": "CLIENT", "extended_key_usage": ["clientAuth"]])
        XCTAssertEqual(LimboRunner.run(client).actual_result, "SUCCESS")
        let server = try Self.testcase(leaf: "ecdsa/leaf-client.pem", ["validation_kind": "CLIENT", "extended_key_usage": ["serverAuth"]])
        XCTAssertEqual(LimboRunner.run(server).actual_result, "FAILURE")
        let both = try Self.testcase(
            leaf: "ecdsa/leaf-client.pem",
            ["validation_kind": "CLIENT", "extended_key_usage": ["clientAuth", "serverAuth"]])
        XCTAssertEqual(LimboRunner.run(both).actual_result, "FAILURE")
        let other = try Self.testcase(leaf: "ecdsa/leaf-client.pem", ["validation_kind": "CLIENT", "extended_key_usage": ["codeSigning"]])
        let result = LimboRunner.run(other)
        XCTAssertEqual(result.actual_result, "FAILURE")
        XCTAssertEqual(result.context, "extended key usage codeSigning cannot be required through ServerTrust")
    }

    func testAClientCaseChecksItsRFC822PeerNames() throws {
        // ecdsa/leaf-client.pem names email:user@swifttrust.test.
        func run(_ names: [String]) throws -> String {
            let peers = names.map { ["kind": "RFC822", "value": $0] }
            return LimboRunner.run(
                try Self.testcase(
                    leaf: "ecdsa/leaf-client.pem",
                    ["validation_kind": "CLIENT", "expected_peer_names": peers])
            ).actual_result
        }
        XCTAssertEqual(try run(["user@swifttrust.test"]), "SUCCESS")
        XCTAssertEqual(try run(["other@swifttrust.test"]), "FAILURE")
        XCTAssertEqual(try run(["user@swifttrust.test", "other@swifttrust.test"]), "FAILURE")
    }

    // MARK: - Summary

    private static func result(_ id: String, _ actual: String, expected: String) -> LimboResult {
        LimboResult(id: id, actual_result: actual, context: nil, expected: expected, category: String(id.split(separator: ":").first ?? ""))
    }

    func testSummaryCounts() {
        let results = [
            Self.result("rfc5280::a", "SUCCESS", expected: "SUCCESS"),
            Self.result("rfc5280::b", "SKIPPED", expected: "SUCCESS"),
            Self.result("webpki::c", "SUCCESS", expected: "FAILURE"), // conflicts with rfc5280::a, which is right
            Self.result("webpki::d", "SUCCESS", expected: "FAILURE"), // conflicts with rfc5280::b, which was skipped
            Self.result("webpki::e", "FAILURE", expected: "SUCCESS"),
        ]
        let summary = LimboSummary(results: results, seconds: 0, conflicts: ["webpki::c": ["rfc5280::a"], "webpki::d": ["rfc5280::b"]])
        XCTAssertEqual(summary.passed, 1)
        XCTAssertEqual(summary.skipped, 1)
        XCTAssertEqual(summary.conflicted, 1)
        XCTAssertEqual(summary.failed, 2)
        XCTAssertEqual(summary.wrongResults.map(\.id), ["webpki::c", "webpki::d", "webpki::e"])
        XCTAssertTrue(summary.isDeclaredConflict(results[2]))
        XCTAssertFalse(summary.isDeclaredConflict(results[3]))
        XCTAssertFalse(summary.isDeclaredConflict(results[0]), "a right answer is no conflict")
    }

    /// 20,000 results, a tenth of them wrong and declared in conflict: summarising, printing and the
    /// Markdown report take well under a second (rebuilding the set of right answers per case, as
    /// the summary once did, took minutes).
    func testSummarisingALargeSuiteIsLinear() {
        var results: [LimboResult] = []
        var conflicts: [String: [String]] = [:]
        for index in 0..<20_000 {
            let id = "rfc5280::case-\(index)"
            if index % 10 == 0 {
                results.append(Self.result(id, "SUCCESS", expected: "FAILURE"))
                conflicts[id] = ["rfc5280::case-\(index + 1)"]
            } else {
                results.append(Self.result(id, "FAILURE", expected: "FAILURE"))
            }
        }
        let started = Date()
        let summary = LimboSummary(results: results, seconds: 0, conflicts: conflicts)
        let text = summary.lines(verbose: true).joined(separator: "\n")
        let markdown = ConformanceReport(summary: summary, gate: LimboGate(summary: summary, known: []), suitePath: "suite.json").markdown
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(summary.passed, 18_000)
        XCTAssertEqual(summary.conflicted, 2_000)
        XCTAssertFalse(text.isEmpty || markdown.isEmpty)
        XCTAssertLessThan(elapsed, 10, "summarising 20,000 results took \(elapsed) s")
    }
}
