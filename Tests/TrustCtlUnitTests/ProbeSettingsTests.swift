import SwiftTrust
import TrustTestSupport
import XCTest
@testable import trustctl

/// Issue 40 item 7: the settings `probe` verifies with fetch a missing intermediate only when
/// asked (--fetch-issuers), as `verify` and `chain` do.
final class ProbeSettingsTests: XCTestCase {
    private static let anchors = TestCertificates.path("ecdsa/root.pem")

    func testTheCommandLineSettingsFetchNoMissingIntermediate() throws {
        let probe = try Probe.parse(["127.0.0.1:1", "--anchors", Self.anchors])
        let settings = try TLSTrustSettings.commandLine(
            trust: probe.trust, inputs: try probe.trust.load(),
            certificatePolicies: probe.certificatePolicies, evaluation: probe.evaluation,
            localAddresses: probe.network.localAddresses)
        XCTAssertFalse(settings.options.fetchesMissingIssuers)
    }

    func testProbeFetchesAMissingIntermediateOnlyWithFetchIssuers() throws {
        for (flags, fetches) in [([String](), false), (["--fetch-issuers"], true)] {
            let probe = try Probe.parse(["127.0.0.1:1", "--anchors", Self.anchors] + flags)
            let settings = try probe.settings(inputs: try probe.trust.load(), fetcher: probe.network.fetcher)
            XCTAssertEqual(settings.options.fetchesMissingIssuers, fetches, "\(flags)")
        }
    }
}
