import Foundation
@testable import TrustCore
import TrustTestSupport
import TrustTransparency
import TrustX509
import XCTest

/// Certificate Transparency inside the evaluation (issue 43 item 6): the SCTs of the leaf, of the
/// TLS handshake and of OCSP responses evaluated against the configured logs on the chain that
/// validated, and required exactly where trustd requires it (`SecPolicyCheckSystemTrustedCTRequired`).
/// On the certificates, logs and SCTs of scripts/generate-ct-fixtures; the system store is handed to
/// the engine directly, so the process environment is left alone.
final class CertificateTransparencyEvaluationTests: XCTestCase {
    private static let fixtures = TestCertificates.repositoryRoot.appendingPathComponent("Tests/TrustTransparencyTests/Fixtures")
    /// 2026-02-01: the 2026 leaves are valid (to 2026-04-01) and the list (updated 2026-01-20) is fresh.
    private static let evaluationDate = Date(timeIntervalSince1970: 1_769_904_000)

    private static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(path)))
    }

    private static func certificate(_ path: String) throws -> Certificate {
        try Certificate(pemEncoded: String(decoding: try bytes(path), as: UTF8.self))
    }

    private static func logList() throws -> CTLogList {
        try CTLogList.loadJSON(Data(try bytes("log-list.json")), file: "log-list.json")
    }

    /// A store whose system roots are the CT test CA (`caIsSystemRoot`) or another hierarchy's root.
    private static func systemStore(caIsSystemRoot: Bool) throws -> SystemTrustStore {
        let file = caIsSystemRoot ? fixtures.appendingPathComponent("ca.pem").path : TestCertificates.path("ecdsa/root.pem")
        return try SystemTrustStore.load(environment: ["SSL_CERT_FILE": file])
    }

    /// Evaluates leaf `name` (its host `NAME.example.test`) as configured by `configure`, with the
    /// CT test CA a system root unless `caIsSystemRoot` is false.
    private func evaluate(
        _ name: String, policies: [TrustPolicy]? = nil, at date: Date = evaluationDate, caIsSystemRoot: Bool = true,
        _ configure: (inout TrustConfiguration) throws -> Void
    ) throws -> TrustEvaluation {
        let leaf = try Self.certificate("leaves/\(name).pem")
        var configuration = TrustConfiguration()
        configuration.verifyDate = date
        try configure(&configuration)
        let trust = ServerTrust(
            certificates: [leaf], policies: policies ?? [.ssl(server: true, hostname: "\(name).example.test")],
            configuration: configuration)
        let system = try Self.systemStore(caIsSystemRoot: caIsSystemRoot)
        return TrustEngine.evaluate(EvaluationSnapshot(trust.snapshot)) { system }
    }

    /// What `CTPolicy` decides for the same leaf, SCTs and logs: the engine must hand it exactly these.
    private func expected(_ name: String, _ timestamps: [PresentedTimestamp], at date: Date = evaluationDate) throws -> CTEvaluation {
        CTPolicy.evaluate(
            leaf: try Self.certificate("leaves/\(name).pem"), issuer: try Self.certificate("ca.pem"),
            timestamps: timestamps, logs: try Self.logList(), at: date)
    }

    // MARK: - Required under a system root

    func testALeafWithoutSCTsUnderASystemRootWithAFreshListIsNotTrustedNamingThePolicyAndTheCounts() throws {
        let logs = try Self.logList()
        let evaluation = try evaluate("plain") { $0.certificateTransparencyLogs = .published(logs) }
        XCTAssertEqual(evaluation.result, .recoverableTrustFailure, "\(evaluation)")
        let report = try XCTUnwrap(evaluation.certificateTransparency)
        XCTAssertTrue(report.isEnforced)
        XCTAssertFalse(report.evaluation.isQualified)
        XCTAssertEqual(report.timestamps, [])
        XCTAssertEqual(evaluation.failures.map(\.reason), [.certificateTransparencyRequired(report.evaluation)])
        XCTAssertEqual(evaluation.failures.first?.certificateIndex, 0)
        XCTAssertEqual(evaluation.chain.count, 2, "the chain that validated is reported")
        let text = try XCTUnwrap(evaluation.failures.first).reason.summary
        XCTAssertTrue(text.contains("SecPolicyCheckSystemTrustedCTRequired"), text)
        XCTAssertTrue(text.contains("embedded SCTs from 0 qualifying logs (2 required"), text)
        XCTAssertTrue(text.contains("SCTs from 0 current logs (2 required, one delivered by TLS or OCSP: none)"), text)
        XCTAssertEqual(evaluation.failures.first?.reason.severity, .recoverable)
    }

    func testEmbeddedSCTsQualifyTheChainAndTheReportSaysWhichCounted() throws {
        let logs = try Self.logList()
        let evaluation = try evaluate("main") { $0.certificateTransparencyLogs = .published(logs) }
        XCTAssertTrue(evaluation.isTrusted, "\(evaluation)")
        let report = try XCTUnwrap(evaluation.certificateTransparency)
        let embedded = try SCTList.embedded(in: try Self.certificate("leaves/main.pem"))
        XCTAssertEqual(embedded.count, 6)
        XCTAssertEqual(report.timestamps, embedded)
        XCTAssertEqual(report.evaluation, try expected("main", embedded))
        XCTAssertEqual(report.evaluation.qualifyingRule, .embedded)
        XCTAssertTrue(report.isEnforced)
        XCTAssertEqual(report.evaluation.counted.count + report.evaluation.notCounted.count, 6)
    }

    func testSCTsDeliveredByTLSQualifyALeafWithoutEmbeddedOnes() throws {
        let logs = try Self.logList()
        let delivered = try SCTList.tlsExtension(try Self.bytes("tls/plain.bin"))
        let evaluation = try evaluate("plain") {
            $0.certificateTransparencyLogs = .published(logs)
            $0.signedCertificateTimestamps = delivered.map(\.encoded)
        }
        XCTAssertTrue(evaluation.isTrusted, "\(evaluation)")
        let report = try XCTUnwrap(evaluation.certificateTransparency)
        XCTAssertEqual(report.timestamps, delivered)
        XCTAssertEqual(report.evaluation, try expected("plain", delivered))
        XCTAssertEqual(report.evaluation.qualifyingRule, .delivered)
    }

    func testTheSCTsOfASuppliedOCSPResponseAreRead() throws {
        let logs = try Self.logList()
        let response = try OCSPResponse(derEncoded: try Self.bytes("ocsp/plain.der"))
        let evaluation = try evaluate("plain") {
            $0.certificateTransparencyLogs = .published(logs)
            $0.ocspResponses = [response]
        }
        let report = try XCTUnwrap(evaluation.certificateTransparency, "\(evaluation)")
        let stapled = try SCTList.delivered(in: response, leaf: try Self.certificate("leaves/plain.pem"), issuer: try Self.certificate("ca.pem"))
        XCTAssertEqual(stapled.count, 2)
        XCTAssertEqual(report.timestamps, stapled)
        XCTAssertEqual(report.evaluation, try expected("plain", stapled))
        XCTAssertEqual(evaluation.isTrusted, report.evaluation.isQualified, "\(evaluation)")
    }

    func testTheCallersAnchorIsRequiredToo_WhenTheSystemStoreHoldsIt() throws {
        // trustd asks its system anchor source whatever the caller's anchors were.
        let logs = try Self.logList()
        let ca = try Self.certificate("ca.pem")
        let evaluation = try evaluate("plain") {
            $0.anchors = [ca]
            $0.certificateTransparencyLogs = .published(logs)
        }
        XCTAssertEqual(evaluation.result, .recoverableTrustFailure, "\(evaluation)")
        XCTAssertEqual(evaluation.certificateTransparency?.isEnforced, true)
    }

    // MARK: - Where trustd does not require it

    func testACallerAnchorThatIsNoSystemRootIsExempt() throws {
        let logs = try Self.logList()
        let ca = try Self.certificate("ca.pem")
        let evaluation = try evaluate("plain", caIsSystemRoot: false) {
            $0.anchors = [ca]
            $0.certificateTransparencyLogs = .trustedByCaller(logs)
        }
        XCTAssertTrue(evaluation.isTrusted, "\(evaluation)")
        XCTAssertEqual(evaluation.certificateTransparency?.exemption, .anchorNotSystemRoot)
        XCTAssertEqual(evaluation.certificateTransparency?.evaluation.isQualified, false)
    }

    func testAStalePublishedListIsNotEnforcedButLogsTheCallerSetAre() throws {
        let logs = try Self.logList()
        // 2026-03-25: 64 days after the list's 2026-01-20; the leaf is valid to 2026-04-01.
        let late = Date(timeIntervalSince1970: 1_774_396_800)
        let published = try evaluate("plain", at: late) { $0.certificateTransparencyLogs = .published(logs) }
        XCTAssertTrue(published.isTrusted, "\(published)")
        XCTAssertEqual(published.certificateTransparency?.exemption, .staleLogList(updated: logs.updated))
        let trusted = try evaluate("plain", at: late) { $0.certificateTransparencyLogs = .trustedByCaller(logs) }
        XCTAssertEqual(trusted.result, .recoverableTrustFailure, "\(trusted)")
        XCTAssertEqual(trusted.certificateTransparency?.isEnforced, true)
    }

    func testAPolicyOtherThanTheSSLServerPolicyIsExempt() throws {
        let logs = try Self.logList()
        let evaluation = try evaluate("plain", policies: [.basicX509]) { $0.certificateTransparencyLogs = .published(logs) }
        XCTAssertTrue(evaluation.isTrusted, "\(evaluation)")
        XCTAssertEqual(evaluation.certificateTransparency?.exemption, .notSSLServerPolicy)
        let sslProfile = try evaluate("plain", policies: [.profile(.ssl, purpose: .serverAuth, hostname: "plain.example.test")]) {
            $0.certificateTransparencyLogs = .published(logs)
        }
        XCTAssertEqual(sslProfile.certificateTransparency?.isEnforced, true, "\(sslProfile)")
        // The web-PKI profile is Apple's SSL server policy and more; a client's SSL policy is not it.
        XCTAssertTrue(ServerTrust.PreparedPolicies([.webPKI(server: true, hostname: nil)]).includesSSLServerPolicy)
        XCTAssertTrue(ServerTrust.PreparedPolicies([.basicX509, .ssl(server: true, hostname: nil)]).includesSSLServerPolicy)
        XCTAssertFalse(ServerTrust.PreparedPolicies([.ssl(server: false, hostname: nil)]).includesSSLServerPolicy)
        XCTAssertFalse(ServerTrust.PreparedPolicies([.profile(.rfc5280, purpose: .serverAuth, hostname: nil)]).includesSSLServerPolicy)
    }

    func testALeafIssuedBeforeEnforcementBeganIsExempt() throws {
        let logs = try Self.logList()
        // Valid 2018-10-15T23:59:59Z to 2019-10-01; evaluated in 2019 with the list set by the caller.
        let date = Date(timeIntervalSince1970: 1_546_300_800)
        let before = try evaluate("enforcement-before", at: date) { $0.certificateTransparencyLogs = .trustedByCaller(logs) }
        guard case .issuedBeforeEnforcement? = before.certificateTransparency?.exemption else {
            return XCTFail("\(String(describing: before.certificateTransparency))")
        }
        let start = try evaluate("enforcement-start", at: date) { $0.certificateTransparencyLogs = .trustedByCaller(logs) }
        XCTAssertEqual(start.certificateTransparency?.isEnforced, true, "\(start)")
    }

    // MARK: - Without logs, and the budget

    func testWithoutLogsNothingChanges() throws {
        let evaluation = try evaluate("plain") { _ in }
        XCTAssertTrue(evaluation.isTrusted, "\(evaluation)")
        XCTAssertNil(evaluation.certificateTransparency)
    }

    func testEachSCTSignatureDrawsOnTheEvaluationsBudget() throws {
        let logs = try Self.logList()
        // One chain signature and six SCTs do not fit in five signature checks.
        let evaluation = try evaluate("main") {
            $0.certificateTransparencyLogs = .published(logs)
            $0.options.budget.signatureChecks = 5
        }
        XCTAssertEqual(evaluation.result, .fatalTrustFailure, "\(evaluation)")
        XCTAssertEqual(evaluation.failures.map(\.reason), [.budgetExhausted(resource: .signatureChecks, limit: 5)])
    }

    func testServerTrustSettersReachTheEvaluation() throws {
        let logs = try Self.logList()
        let delivered = try SCTList.tlsExtension(try Self.bytes("tls/plain.bin")).map(\.encoded)
        let trust = ServerTrust(
            certificates: [try Self.certificate("leaves/plain.pem")],
            policies: [.ssl(server: true, hostname: "plain.example.test")])
        trust.setTrustedLogs(logs)
        trust.signedCertificateTimestamps = delivered
        trust.verifyDate = Self.evaluationDate
        XCTAssertEqual(trust.configuration.certificateTransparencyLogs, .trustedByCaller(logs))
        XCTAssertEqual(trust.signedCertificateTimestamps, delivered)
        let system = try Self.systemStore(caIsSystemRoot: true)
        let evaluation = TrustEngine.evaluate(EvaluationSnapshot(trust.snapshot)) { system }
        XCTAssertEqual(evaluation.certificateTransparency?.evaluation.qualifyingRule, .delivered, "\(evaluation)")
    }
}
