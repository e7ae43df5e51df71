import Foundation
import TrustCore
import TrustDiagnostics
import TrustTestSupport
import TrustTransparency
import TrustX509
import XCTest

/// `trustctl chain`'s explanation lists each certificate's embedded SCTs and, with logs configured,
/// what Certificate Transparency made of each (issue 43 item 6), on scripts/generate-ct-fixtures' files.
final class ChainDiagnosticsTransparencyTests: XCTestCase {
    private static let fixtures = TestCertificates.repositoryRoot.appendingPathComponent("Tests/TrustTransparencyTests/Fixtures")
    private static let date = Date(timeIntervalSince1970: 1_769_904_000) // 2026-02-01

    private static func certificate(_ path: String) throws -> Certificate {
        try Certificate(pemEncoded: String(decoding: try Data(contentsOf: fixtures.appendingPathComponent(path)), as: UTF8.self))
    }

    private func diagnostics(logs: CTLogSelection?) throws -> ChainDiagnostics {
        var configuration = TrustConfiguration(anchors: [try Self.certificate("ca.pem")])
        configuration.verifyDate = Self.date
        configuration.certificateTransparencyLogs = logs
        let trust = ServerTrust(
            certificates: [try Self.certificate("leaves/main.pem")],
            policies: [.ssl(server: true, hostname: "main.example.test")], configuration: configuration)
        return ChainDiagnostics(trust: trust, host: "main.example.test", verifyDate: Self.date)
    }

    func testEmbeddedSCTsAreListedWithoutLogs() throws {
        let report = try diagnostics(logs: nil)
        let leaf = try Self.certificate("leaves/main.pem")
        let embedded = try SCTList.embedded(in: leaf).compactMap { try? $0.timestamp.get() }
        let listed = try XCTUnwrap(report.chain.first?.signedCertificateTimestamps)
        XCTAssertEqual(listed.map(\.logID), embedded.map { Data($0.logID).base64EncodedString() })
        XCTAssertEqual(listed.compactMap(\.status), [])
        XCTAssertNil(report.chain.last?.signedCertificateTimestamps, "the CA has no SCTs")
        XCTAssertNil(report.certificateTransparency)
        XCTAssertEqual(report.text(style: .plain).components(separatedBy: "\n").filter { $0.contains("SCT:") }.count, 6)
    }

    func testWithLogsEachSCTSaysWhetherItCounted() throws {
        let logs = try CTLogList.loadJSON(try Data(contentsOf: Self.fixtures.appendingPathComponent("log-list.json")), file: "log-list.json")
        let report = try diagnostics(logs: .trustedByCaller(logs))
        let listed = try XCTUnwrap(report.chain.first?.signedCertificateTimestamps)
        let statuses = listed.map { $0.status ?? "" }
        XCTAssertEqual(statuses.filter { $0 == "counted" }.count, 5, "\(statuses)")
        XCTAssertEqual(statuses.filter { $0.hasPrefix("not counted: ") }.count, 1, "\(statuses)")
        XCTAssertTrue(listed.allSatisfy { $0.log?.hasPrefix("SwiftTrust test log") == true }, "\(listed.map(\.log))")
        let summary = try XCTUnwrap(report.certificateTransparency)
        XCTAssertTrue(summary.hasPrefix("CT-qualified"), summary)
        // The CA is the caller's anchor here, no system root: evaluated, not required.
        XCTAssertTrue(summary.contains("not required: the chain does not end at a system root"), summary)
    }
}
