import Foundation
import OpenSSLServerSupport
import XCTest

/// `trustctl limbo` reports a rejected case with the reasons of its most relevant path: for a
/// bridge-CA graph (``BridgeCAGraph``) whose only path to the anchor ends on a SHA-1 signature, the
/// SHA-1 signature, not the "issuer not found" of the loop through the bridge explored before it.
final class LimboContextTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trustctl-limbo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    func testTheContextOfABridgeGraphLeadsWithTheSHA1SignatureOfThePathToTheAnchor() throws {
        let graph = try BridgeCAGraph(in: directory)
        func pem(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
        // One PEM block per intermediate, in presentation order.
        let intermediates = try pem(graph.intermediatesPath).components(separatedBy: "-----END CERTIFICATE-----")
            .filter { $0.contains("-----BEGIN CERTIFICATE-----") }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) + "\n-----END CERTIFICATE-----\n" }
        XCTAssertEqual(intermediates.count, 5)
        let testcase: [String: Any] = [
            "id": "swifttrust::bridge-sha1", "description": "bridge CA, SHA-1 on the only anchored path", "validation_kind": "SERVER",
            "trusted_certs": [try pem(graph.rootPath)], "untrusted_intermediates": intermediates,
            "peer_certificate": try pem(graph.leafPath), "expected_result": "FAILURE",
            "expected_peer_name": ["kind": "DNS", "value": BridgeCAGraph.host],
        ]
        let suite = directory.appendingPathComponent("suite.json")
        try JSONSerialization.data(withJSONObject: ["version": 1, "testcases": [testcase]]).write(to: suite)

        let output = directory.appendingPathComponent("results.json")
        let run = try trustctl(["limbo", suite.path, "--output", output.path])
        XCTAssertEqual(run.status, 0, run.stderrText)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        let result = try XCTUnwrap((document["results"] as? [[String: Any]])?.first)
        XCTAssertEqual(result["actual_result"] as? String, "FAILURE")
        let context = try XCTUnwrap(result["context"] as? String)
        let headline = try XCTUnwrap(context.components(separatedBy: "; ").first)
        XCTAssertTrue(headline.contains("CN=Bridge CA B") && headline.contains("SHA-1"), context)
        XCTAssertFalse(context.contains("issuer not found"), context)
    }
}
