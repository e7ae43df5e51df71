import Foundation
import Logging
import TrustCore
import TrustNIO
import TrustX509
import TrustTestSupport
import XCTest

/// What a `TLSTrustVerifier` given a swift-log `Logger` logs for real loopback handshakes: one record
/// per verification, debug when trusted, info with the reason when rejected.
final class VerdictLoggingTests: LoopbackTestCase {
    private let serverChain = ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"]

    func testTrustedHandshakeLogsOneDebugRecordAndNoInfoRecord() throws {
        let server = try startNIOServer(presenting: serverChain)
        let expectedChain = try (serverChain + ["ecdsa/root.pem"]).flatMap(TestCertificates.certificates)
        // Inline and in a task off the event loop: one record either way.
        for execution in [TLSVerificationExecution.automatic, .offEventLoop] {
            let records = LogRecords()
            let verifier = try TLSTrustVerifier(settings: try TestCertificates.settings(), execution: execution, logger: records.logger())
            XCTAssertNil(try connect(port: server.port, verifier: verifier).error)

            XCTAssertEqual(records.all.count, 1, "\(execution): \(records.all)")
            XCTAssertTrue(records.at(.info).isEmpty, "\(execution)")
            let record = try XCTUnwrap(records.at(.debug).first, "\(execution)")
            XCTAssertEqual(record.message.description, "TLS peer trusted")
            XCTAssertEqual(record.text("swifttrust.verdict"), "trusted")
            XCTAssertEqual(record.text("swifttrust.peer"), "server")
            XCTAssertEqual(record.text("swifttrust.host"), TestCertificates.host)
            XCTAssertEqual(record.text("swifttrust.port"), "\(server.port)")
            XCTAssertEqual(record.text("swifttrust.leaf"), expectedChain[0].subject.description)
            XCTAssertEqual(record.list("swifttrust.presented"), expectedChain.prefix(2).map(\.subject.description))
            XCTAssertEqual(record.list("swifttrust.chain"), expectedChain.map(\.subject.description))
            XCTAssertNil(record.text("swifttrust.reason"))
            XCTAssertNil(record.error)
        }
    }

    func testRejectedHandshakeLogsAnInfoRecordWithTheReason() throws {
        let server = try startNIOServer(presenting: ["ecdsa/leaf-expired.pem", "ecdsa/intermediate.pem"])
        let records = LogRecords()
        let result = try connect(port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings(), logger: records.logger()))
        let failure = try XCTUnwrap(rejection(result))

        XCTAssertEqual(records.all.count, 1, "\(records.all)")
        let record = try XCTUnwrap(records.at(.info).first)
        XCTAssertEqual(record.message.description, "TLS peer rejected")
        XCTAssertEqual(record.text("swifttrust.verdict"), "rejected")
        XCTAssertEqual(record.text("swifttrust.host"), TestCertificates.host)
        XCTAssertEqual(record.text("swifttrust.leaf"), try TestCertificates.certificates("ecdsa/leaf-expired.pem").first?.subject.description)
        XCTAssertNil(record.text("swifttrust.chain"), "no chain was validated")
        // The reason is the failure the pipeline reported, and it names the expired leaf.
        let reason = try XCTUnwrap(record.text("swifttrust.reason"))
        XCTAssertEqual(reason, failure.description)
        let expired = try XCTUnwrap(
            failure.trustFailures.first { failure in
                if case .expired = failure.reason { failure.certificateIndex == 0 } else { false }
            }, "\(failure)")
        XCTAssertTrue(reason.contains(expired.description), reason)
        // The typed failure travels as the record's error.
        let logged = try XCTUnwrap(record.error as? TLSTrustFailure)
        XCTAssertTrue(contains(logged.trustFailures, index: 0) { if case .expired = $0 { true } else { false } }, "\(logged)")
    }

    func testLoggerAtInfoLevelRecordsRejectionsOnly() throws {
        let good = try startNIOServer(presenting: serverChain)
        let expired = try startNIOServer(presenting: ["ecdsa/leaf-expired.pem", "ecdsa/intermediate.pem"])
        let records = LogRecords()
        let verifier = try TLSTrustVerifier(settings: try TestCertificates.settings(), logger: records.logger(level: .info))
        XCTAssertNil(try connect(port: good.port, verifier: verifier).error)
        XCTAssertNotNil(try connect(port: expired.port, verifier: verifier).error)

        XCTAssertEqual(records.all.map(\.level), [.info])
        XCTAssertEqual(records.all.first?.text("swifttrust.port"), "\(expired.port)")
    }

    func testServerLogsARejectedClientCertificateAsAClientPeer() throws {
        let records = LogRecords()
        let clientVerifier = try TLSTrustVerifier(settings: try TestCertificates.settings(anchors: ["rsa/root.pem"]), logger: records.logger())
        let server = try startNIOServer(presenting: serverChain, clientVerifier: clientVerifier)
        _ = try connect(
            port: server.port, verifier: TLSTrustVerifier(settings: try TestCertificates.settings()),
            clientIdentity: ["ecdsa/leaf-client.pem", "ecdsa/intermediate.pem"])
        let connection = try firstConnection(server.connections)
        XCTAssertThrowsError(try connection.handshake.wait())

        let failure = try XCTUnwrap(connection.record?.failure)
        XCTAssertEqual(records.all.count, 1, "\(records.all)")
        let record = try XCTUnwrap(records.at(.info).first)
        XCTAssertEqual(record.text("swifttrust.peer"), "client")
        XCTAssertNil(record.text("swifttrust.host"), "a client is not verified for a host")
        XCTAssertEqual(record.text("swifttrust.leaf"), try TestCertificates.certificates("ecdsa/leaf-client.pem").first?.subject.description)
        XCTAssertEqual(record.text("swifttrust.reason"), failure.description)
    }

    func testControlCharactersFromACertificateAreEscapedInTheLog() async throws {
        let hostile = try selfSignedLeaf(commonNameInOpenSSLConfig: #"evil\nswifttrust.verdict=trusted"#)
        XCTAssertEqual(hostile.subject.description, "CN=evil\nswifttrust.verdict=trusted", "openssl wrote a raw newline")
        let records = LogRecords()
        let verifier = try TLSTrustVerifier(settings: try TestCertificates.settings(), logger: records.logger())
        guard case let .rejected(failure) = await verifier.verify([hostile], role: .server(host: TestCertificates.host)) else {
            return XCTFail("a self-signed leaf outside the anchors was trusted")
        }

        let record = try XCTUnwrap(records.at(.info).first)
        XCTAssertEqual(record.text("swifttrust.leaf"), #"CN=evil\u000aswifttrust.verdict=trusted"#)
        let reason = try XCTUnwrap(record.text("swifttrust.reason"))
        XCTAssertEqual(reason, TerminalText.escaped(failure.description))
        // The record's error is printed by handlers such as StreamLogHandler: escaped as well.
        let error = try XCTUnwrap(record.error)
        XCTAssertEqual(error as? TLSTrustFailure, failure)
        for value in [reason, "\(error)", error.localizedDescription] + (record.list("swifttrust.presented") ?? []) {
            XCTAssertFalse(value.contains("\n"), value)
        }
    }

    /// A self-signed serverAuth leaf for www.swifttrust.test whose CN is `commonName` as an openssl
    /// config value (where `\n` stands for a newline).
    private func selfSignedLeaf(commonNameInOpenSSLConfig commonName: String) throws -> Certificate {
        let issued = try issueCertificate(
            config: """
                [req]
                distinguished_name = dn
                x509_extensions = ext
                prompt = no
                [dn]
                CN = \(commonName)
                [ext]
                extendedKeyUsage = serverAuth
                subjectAltName = DNS:\(TestCertificates.host)

                """)
        return try XCTUnwrap(Certificate.loadAll(from: Array(Data(contentsOf: URL(fileURLWithPath: issued.certificate)))).first)
    }
}
