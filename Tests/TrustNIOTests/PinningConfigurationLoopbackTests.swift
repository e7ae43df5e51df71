import Foundation
import OpenSSLServerSupport
import TrustCore
import TrustNIO
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// The issue's acceptance test: one pin set written as SwiftTrust JSON, an ATS Info.plist, an
/// Android network security config and a TrustKit configuration (plist and JSON) gives the same
/// verdicts on the same chains served by `openssl s_server` on loopback; report-only mode reports
/// without rejecting.
final class PinningConfigurationLoopbackTests: LoopbackTestCase {
    /// The ECDSA intermediate's pin and a backup key's pin (the SHA-256 of nothing: no key has it).
    private func pins() throws -> [String] {
        let intermediate = try XCTUnwrap(try TestCertificates.certificates("ecdsa/intermediate.pem").first)
        return [SPKIPin(certificate: intermediate).description, "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="]
    }

    /// The bare base64 of each pin, as ATS, Android and TrustKit write them.
    private func bare(_ pins: [String]) -> [String] { pins.map { String($0.dropFirst("sha256/".count)) } }

    /// The same pin set for `www.swifttrust.test`, in every format; `enforce` false writes
    /// report-only where the format can say it (ATS cannot).
    private func documents(enforce: Bool) throws -> [(String, String)] {
        let pins = try pins()
        let host = TestCertificates.host
        let ats = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
              <key>CFBundleIdentifier</key><string>test.swifttrust</string>
              <key>NSAppTransportSecurity</key><dict><key>NSPinnedDomains</key><dict>
                <key>\(host)</key><dict><key>NSPinnedCAIdentities</key><array>
                  \(bare(pins).map { "<dict><key>SPKI-SHA256-BASE64</key><string>\($0)</string></dict>" }.joined())
                </array></dict>
              </dict></dict>
            </dict></plist>
            """
        let android = """
            <?xml version="1.0" encoding="utf-8"?>
            <network-security-config>
              <domain-config>
                <domain includeSubdomains="false">\(host)</domain>
                <pin-set>\(bare(pins).map { "<pin digest=\"SHA-256\">\($0)</pin>" }.joined())</pin-set>
                \(enforce ? "" : "<trustkit-config enforcePinning=\"false\"><report-uri>http://127.0.0.1:9/report</report-uri></trustkit-config>")
              </domain-config>
            </network-security-config>
            """
        let trustKitPlist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>TSKConfiguration</key><dict>
              <key>TSKPinnedDomains</key><dict><key>\(host)</key><dict>
                <key>TSKPublicKeyHashes</key><array>\(bare(pins).map { "<string>\($0)</string>" }.joined())</array>
                <key>TSKEnforcePinning</key><\(enforce)/>
                \(enforce ? "" : "<key>TSKReportUris</key><array><string>http://127.0.0.1:9/report</string></array>")
              </dict></dict>
            </dict></dict></plist>
            """
        let reportURIs = enforce ? "" : #", "TSKReportUris": ["http://127.0.0.1:9/report"]"#
        let trustKitJSON = """
            {"TSKPinnedDomains": {"\(host)": {"TSKPublicKeyHashes": ["\(bare(pins).joined(separator: "\", \""))"], "TSKEnforcePinning": \(enforce)\(reportURIs)}}}
            """
        let jsonReport = enforce ? "" : #", "enforcement": "reportOnly", "reportURIs": ["http://127.0.0.1:9/report"]"#
        let json = """
            {"version": 1, "domains": [{"domain": "\(host)", "pins": {"chain": ["\(pins.joined(separator: "\", \""))"]}\(jsonReport)}]}
            """
        var all = [("json", json), ("android", android), ("trustkit-plist", trustKitPlist), ("trustkit-json", trustKitJSON)]
        if enforce { all.append(("ats", ats)) }
        return all
    }

    /// Connects to `server` with a manager built from `document`, trusting both test roots.
    private func connect(to server: OpenSSLServer, document: String, reporter: PinningReporter?) throws -> ClientResult {
        let configuration = try PinningConfiguration.load(data: Data(document.utf8))
        let manager = try ServerTrustManager(configuration: configuration, reporter: reporter)
        let settings = try TestCertificates.settings(anchors: ["ecdsa/root.pem", "rsa/root.pem"])
        return try connect(port: server.port, verifier: TLSTrustVerifier(settings: settings, judge: .evaluator(manager)))
    }

    func testEveryFormatGivesTheSameVerdictsOnTheSameServedChains() throws {
        let pinned = try OpenSSLServer(
            certificate: TestCertificates.path("ecdsa/leaf.pem"), key: TestCertificates.keyPath(of: "ecdsa/leaf.pem"),
            chain: [TestCertificates.path("ecdsa/intermediate.pem")])
        defer { pinned.stop() }
        let other = try OpenSSLServer(
            certificate: TestCertificates.path("rsa/leaf.pem"), key: TestCertificates.keyPath(of: "rsa/leaf.pem"),
            chain: [TestCertificates.path("rsa/intermediate.pem")])
        defer { other.stop() }
        let documents = try documents(enforce: true)
        XCTAssertEqual(documents.count, 5)
        for (format, document) in documents {
            XCTAssertNil(try connect(to: pinned, document: document, reporter: nil).error, format)
            let rejected = try connect(to: other, document: document, reporter: nil)
            XCTAssertNotNil(rejected.error, format)
            guard case .pinSetMismatch? = rejected.record.failure?.serverTrustFailureReason else {
                XCTFail("\(format): expected a pin-set mismatch, got \(String(describing: rejected.record.failure))")
                continue
            }
        }
    }

    func testReportOnlyReportsWithTheServedPortAndDoesNotReject() throws {
        let other = try OpenSSLServer(
            certificate: TestCertificates.path("rsa/leaf.pem"), key: TestCertificates.keyPath(of: "rsa/leaf.pem"),
            chain: [TestCertificates.path("rsa/intermediate.pem")])
        defer { other.stop() }
        for (format, document) in try documents(enforce: false) {
            let sink = RecordingPinningReportSink()
            let reporter = PinningReporter(sinks: [sink])
            XCTAssertNil(try connect(to: other, document: document, reporter: reporter).error, format)
            XCTAssertEqual(sink.deliveries.count, 1, format)
            let delivery = try XCTUnwrap(sink.deliveries.first)
            XCTAssertEqual(delivery.report.hostname, TestCertificates.host, format)
            XCTAssertEqual(delivery.report.port, other.port, format)
            XCTAssertEqual(delivery.report.enforcePinning, false, format)
            XCTAssertEqual(delivery.report.validationResult, .failed, format)
            XCTAssertEqual(delivery.report.knownPins.count, 2, format)
            XCTAssertEqual(delivery.report.validatedCertificateChain.count, 3, format) // leaf, intermediate, RSA root
            XCTAssertEqual(delivery.reportURIs.map(\.absoluteString), ["http://127.0.0.1:9/report"], format)
            // The same failure again is rate-limited: still accepted, not reported twice.
            XCTAssertNil(try connect(to: other, document: document, reporter: reporter).error, format)
            XCTAssertEqual(sink.deliveries.count, 1, format)
        }
    }
}
