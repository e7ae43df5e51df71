import Foundation
import OpenSSLServerSupport
import TrustCrypto
import TrustX509
import XCTest
@testable import TrustCore
@testable import TrustDiagnostics

/// When several paths were tried, the reports of a failure (the evaluation's failures and the chain
/// it reports, the diagnostics' findings and chain end) come from the most relevant path, not from
/// the first explored: on a bridge-CA graph (``BridgeCAGraph``), from the path that reached the
/// anchor and ended on a SHA-1 signature, not from the loop through the bridge explored before it.
final class PathRelevanceTests: XCTestCase {
    private var directory: URL!
    private var graph: BridgeCAGraph!

    override func setUpWithError() throws {
        guard OpenSSLCommand.executable != nil else { throw XCTSkip("openssl is not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-bridge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        graph = try BridgeCAGraph(in: directory)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private func certificate(_ path: String) throws -> Certificate {
        try Certificate(pemEncoded: String(contentsOfFile: path, encoding: .utf8))
    }

    private func trust() throws -> ServerTrust {
        let presented = try Certificate.loadAll(pem: String(contentsOfFile: graph.presentedPath, encoding: .utf8))
        let trust = ServerTrust(certificates: presented, policies: [.ssl(server: true, hostname: BridgeCAGraph.host)])
        trust.setAnchorCertificates([try certificate(graph.rootPath)])
        return trust
    }

    func testTheHeadlineIsTheAnchoredPathsSHA1SignatureNotTheLoopExploredFirst() throws {
        let trust = try trust()
        // The graph is sound but for the SHA-1 signature: with legacy algorithms it is trusted.
        trust.options.signaturePolicy = .legacy
        XCTAssertTrue(trust.evaluate().isTrusted, "\(trust.evaluate())")
        // Refused in every signature (the modern policy), the SHA-1 signature makes the issuer unusable.
        trust.options.signaturePolicy = .modern

        let evaluation = trust.evaluate()
        XCTAssertFalse(evaluation.isTrusted)
        // The loop was explored before the path to the anchor, and is as long.
        let loop = try XCTUnwrap(evaluation.attempts.firstIndex { $0.outcome == .deadEnd && $0.chain.count == 4 })
        let anchored = try XCTUnwrap(evaluation.attempts.firstIndex { $0.endsAtAnchor })
        XCTAssertLessThan(loop, anchored)
        XCTAssertEqual(evaluation.attempts[anchored].chain.count, 4)

        let bridgeByRoot = try certificate(graph.bridgeByRootPath)
        let headline = try XCTUnwrap(evaluation.failures.first)
        guard case .signatureUnverifiable(.legacyAlgorithm) = headline.reason else {
            return XCTFail("headline \(headline), not the SHA-1 signature:\n\(evaluation)")
        }
        XCTAssertEqual(headline.certificateIndex, 2)
        XCTAssertEqual(headline.subject, bridgeByRoot.subject.description)
        XCTAssertEqual(evaluation.chain, [try certificate(graph.leafPath), try certificate(graph.memberAPath), bridgeByRoot])
        XCTAssertFalse(evaluation.failures.contains { if case .issuerNotFound = $0.reason { true } else { false } }, "\(evaluation)")
    }

    func testTheDiagnosticsLeadWithTheSHA1SignatureAndNameNoMissingIssuer() throws {
        let trust = try trust()
        trust.options.signaturePolicy = .modern
        let diagnostics = ChainDiagnostics(trust: trust, host: BridgeCAGraph.host, verifyDate: Date())
        let messages = diagnostics.findings.map(\.message)
        let firstError = try XCTUnwrap(diagnostics.findings.first { $0.severity == "error" }, "\(messages)")
        XCTAssertEqual(firstError.code, "sha1-signature", "\(messages)")
        XCTAssertEqual(firstError.subject, try certificate(graph.bridgeByRootPath).subject.description)
        XCTAssertFalse(diagnostics.findings.contains { $0.code == "missing-intermediate" }, "\(messages)")
        XCTAssertNil(diagnostics.missingIssuer)
        let root = try certificate(graph.rootPath)
        XCTAssertEqual(
            diagnostics.chainEnd?.hasPrefix("REJECTED issuer \(root.subject) [trust anchors]: "), true,
            diagnostics.chainEnd ?? "no chain end")
    }
}
