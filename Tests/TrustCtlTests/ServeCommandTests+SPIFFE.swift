import Foundation
import OpenSSLServerSupport
import XCTest

/// `trustctl serve --require-client-cert --profile spiffe --bundle FILE…`: each client's SPIFFE
/// trust domain picks, in its handshake, the bundle it is verified against (SPIFFEPKI's SVIDs,
/// `openssl s_client` as the client).
extension ServeCommandTests {
    private static let spiffe: Result<SPIFFEPKI, any Error> = Result { try SPIFFEPKI.inTemporaryDirectory(named: "serve-spiffe") }

    /// `trustctl serve` presenting the loopback SVID, judging clients under the spiffe profile.
    private func serveSVIDs(_ pki: SPIFFEPKI, _ extra: [String]) throws -> Server {
        try Server(
            try trustctlURL,
            [
                "serve", "--cert", pki.loopback.certificatePath, "--chain", pki.example.intermediatePath ?? "",
                "--key", pki.loopback.keyPath, "--port", "0", "--require-client-cert", "--profile", "spiffe",
            ] + extra)
    }

    /// `openssl s_client` presenting `credential` (with its intermediates).
    private func sClient(_ port: Int, _ credential: SPIFFEPKI.Credential, intermediate: String?) throws -> String {
        try OpenSSLCommand.output(
            of: [
                "s_client", "-connect", "127.0.0.1:\(port)", "-tls1_3", "-ign_eof", "-cert", credential.certificatePath,
                "-key", credential.keyPath,
            ] + (intermediate.map { ["-cert_chain", $0] } ?? []))
    }

    func testEachClientIsVerifiedUnderItsOwnTrustDomainsBundle() throws {
        let pki = try Self.spiffe.get()
        let server = try serveSVIDs(
            pki,
            [
                "--bundle", pki.example.bundleJSONPath, "--bundle", pki.other.bundlePEMPath,
                "--trust-domain", "example.org", "--trust-domain", "other.example", "--count", "2",
            ])
        let port = try server.port()
        let example = try sClient(port, pki.client, intermediate: pki.example.intermediatePath)
        XCTAssertTrue(example.contains("SwiftTrust serve: accepted"), example)
        let other = try sClient(port, pki.otherDomainServer, intermediate: nil)
        XCTAssertTrue(other.contains("SwiftTrust serve: accepted"), other)
        XCTAssertEqual(server.wait(), 0, server.text)
        XCTAssertEqual(server.text.components(separatedBy: "Verdict: client accepted").count - 1, 2, server.text)
    }

    func testAClientOfAnotherTrustDomainOrBreakingARuleIsRefused() throws {
        let pki = try Self.spiffe.get()
        let server = try serveSVIDs(pki, ["--bundle", pki.example.bundleJSONPath, "--count", "2"])
        let port = try server.port()
        let other = try sClient(port, pki.otherDomainServer, intermediate: nil)
        XCTAssertFalse(other.contains("SwiftTrust serve: accepted"), other)
        let caLeaf = try sClient(port, pki.credential(.caLeaf), intermediate: pki.example.intermediatePath)
        XCTAssertFalse(caLeaf.contains("SwiftTrust serve: accepted"), caLeaf)
        XCTAssertEqual(server.wait(), 1, server.text)
        let text = server.text
        XCTAssertEqual(text.components(separatedBy: "Verdict: client rejected").count - 1, 2, text)
        XCTAssertTrue(text.contains("no trust bundle for trust domain other.example"), text)
        XCTAssertTrue(text.contains("leaf asserts basicConstraints cA"), text)
        XCTAssertTrue(text.contains("(SPIFFE X509-SVID §4.1, §5.2)"), text)
    }

    func testBundlesThatCannotBeHonouredExitTwo() throws {
        let pki = try Self.spiffe.get()
        let base = ["serve", "--cert", pki.loopback.certificatePath, "--key", pki.loopback.keyPath, "--port", "0"]
        let cases: [([String], String)] = [
            (["--bundle", pki.example.bundleJSONPath], "--require-client-cert"),
            (["--require-client-cert", "--bundle", pki.example.bundleJSONPath], "--profile spiffe"),
            (
                ["--require-client-cert", "--profile", "spiffe", "--bundle", pki.example.bundleJSONPath, "--anchors", pki.example.rootPath],
                "--anchors"
            ),
        ]
        for (extra, words) in cases {
            let result = try trustctl(base + extra)
            XCTAssertEqual(result.status, 2, "\(extra): \(result.stdoutText)\(result.stderrText)")
            XCTAssertTrue(result.stderrText.contains(words), "\(extra): \(result.stderrText)")
        }
    }
}
