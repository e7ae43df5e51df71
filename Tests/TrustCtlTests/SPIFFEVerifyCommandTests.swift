import Foundation
import OpenSSLServerSupport
import XCTest

/// `trustctl verify --profile spiffe --bundle FILE` on SPIFFEPKI's certificates: an SVID is trusted
/// under its own trust domain's bundle (JSON or PEM), refused under the other's, and each defective
/// certificate is refused with its rule's words and source.
final class SPIFFEVerifyCommandTests: XCTestCase {
    static let made: Result<SPIFFEPKI, any Error> = Result { try SPIFFEPKI.inTemporaryDirectory(named: "spiffe-cli") }

    func verify(_ credential: SPIFFEPKI.Credential, _ extra: [String]) throws -> TrustCtlResult {
        try trustctl(["verify", credential.chainPath, "--profile", "spiffe"] + extra)
    }

    func testAnSVIDIsTrustedUnderItsBundle() throws {
        let pki = try Self.made.get()
        for bundle in [
            ["--bundle", pki.example.bundleJSONPath],
            ["--bundle", pki.example.bundleJSONPath, "--trust-domain", "example.org"],
            ["--bundle", pki.example.bundlePEMPath, "--trust-domain", "example.org"],
            [
                "--bundle", pki.other.bundleJSONPath, "--bundle", pki.example.bundlePEMPath,
                "--trust-domain", "other.example", "--trust-domain", "example.org",
            ],
        ] {
            let result = try verify(pki.server, bundle)
            XCTAssertEqual(result.status, 0, "\(bundle): \(result.stdoutText)\(result.stderrText)")
            XCTAssertTrue(result.stdoutText.contains("SPIFFE ID: \(SPIFFEPKI.serverID) (trust bundle example.org)"), result.stdoutText)
            XCTAssertTrue(result.stdoutText.contains("\ntrusted"), result.stdoutText)
        }
        let other = try verify(pki.otherDomainServer, ["--bundle", pki.example.bundleJSONPath, "--bundle", pki.other.bundleJSONPath])
        XCTAssertEqual(other.status, 0, other.stdoutText + other.stderrText)
        XCTAssertTrue(other.stdoutText.contains("(trust bundle other.example)"), other.stdoutText)
        // As a client, too (clientAuth).
        let client = try verify(pki.client, ["--bundle", pki.example.bundleJSONPath, "--purpose", "client"])
        XCTAssertEqual(client.status, 0, client.stdoutText + client.stderrText)
    }

    func testAnSVIDIsRefusedUnderTheOtherTrustDomainsBundle() throws {
        let pki = try Self.made.get()
        let result = try verify(pki.server, ["--bundle", pki.other.bundleJSONPath])
        XCTAssertEqual(result.status, 1, result.stdoutText + result.stderrText)
        XCTAssertTrue(result.stdoutText.contains("SPIFFE: no trust bundle for trust domain example.org"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("not trusted"), result.stdoutText)
        // The other trust domain's authorities, named as example.org's, do not validate it either.
        let misnamed = try verify(pki.server, ["--bundle", pki.other.bundlePEMPath, "--trust-domain", "example.org"])
        XCTAssertEqual(misnamed.status, 1, misnamed.stdoutText + misnamed.stderrText)
        XCTAssertTrue(misnamed.stdoutText.contains("not trusted"), misnamed.stdoutText)
        let json = try verify(pki.server, ["--bundle", pki.other.bundleJSONPath, "--json"])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])
        XCTAssertEqual(object["trusted"] as? Bool, false)
        let spiffe = try XCTUnwrap(object["spiffe"] as? [String: Any])
        XCTAssertEqual(spiffe["id"] as? String, SPIFFEPKI.serverID)
        XCTAssertNotNil(spiffe["error"] as? String)
    }

    /// Each X.509-SVID rule, by the words of its violation and its source (the rule's section).
    func testEachRuleIsRefusedByName() throws {
        let pki = try Self.made.get()
        let expected: [(SPIFFEPKI.Defect, words: String, source: String)] = [
            (.twoURIs, "leaf has 2 URI subjectAltNames", "(SPIFFE X509-SVID §2, §5.2)"),
            (.noURI, "leaf has no URI subjectAltName", "(SPIFFE X509-SVID §2, §5.2)"),
            (
                .invalidSPIFFEID, "is not a SPIFFE ID: the path cannot contain dot segments (SPIFFE-ID §2.2)",
                "(SPIFFE X509-SVID §3.1, §5.2; SPIFFE-ID §2)"
            ),
            (.trustDomainID, "has no path", "(SPIFFE X509-SVID §3.1, §5.2; SPIFFE-ID §2)"),
            (.caLeaf, "leaf asserts basicConstraints cA", "(SPIFFE X509-SVID §4.1, §5.2)"),
            (.noKeyUsage, "leaf has no keyUsage", "(SPIFFE X509-SVID §4.3)"),
            (.noDigitalSignature, "leaf keyUsage lacks digitalSignature", "(SPIFFE X509-SVID §4.3)"),
            (.keyCertSignLeaf, "leaf keyUsage sets keyCertSign", "(SPIFFE X509-SVID §4.3, §5.2)"),
            (.cRLSignLeaf, "leaf keyUsage sets cRLSign", "(SPIFFE X509-SVID §4.3, §5.2)"),
            (.signerWithoutKeyUsage, "signing certificate has no keyUsage", "(SPIFFE X509-SVID §3.2, §4.3)"),
        ]
        for (defect, words, source) in expected {
            let result = try verify(pki.credential(defect), ["--bundle", pki.example.bundleJSONPath])
            XCTAssertEqual(result.status, 1, "\(defect): \(result.stdoutText)\(result.stderrText)")
            let failure = result.stdoutText.split(separator: "\n").first { $0.hasPrefix("  - certificate ") && $0.contains(words) }
            XCTAssertNotNil(failure, "\(defect): \(result.stdoutText)")
            XCTAssertTrue(failure?.hasSuffix(source) == true, "\(defect): \(String(describing: failure))")
            // rfc5280 alone trusts the same chain under the same root: the rule is the profile's.
            let rfc5280 = try trustctl(["verify", pki.credential(defect).chainPath, "--profile", "rfc5280", "--anchors", pki.example.rootPath])
            XCTAssertEqual(rfc5280.status, 0, "\(defect) under rfc5280: \(rfc5280.stdoutText)")
        }
        let noKeyCertSign = try verify(pki.credential(.signerWithoutKeyCertSign), ["--bundle", pki.example.bundleJSONPath])
        XCTAssertEqual(noKeyCertSign.status, 1, noKeyCertSign.stdoutText)
        XCTAssertTrue(noKeyCertSign.stdoutText.contains("certificate 1 ("), noKeyCertSign.stdoutText)
    }

    func testBundleOptionsThatCannotBeHonouredAreRefused() throws {
        let pki = try Self.made.get()
        let cases: [([String], String)] = [
            (["verify", pki.server.chainPath, "--bundle", pki.example.bundleJSONPath], "--profile spiffe"),
            (["verify", pki.server.chainPath, "--profile", "rfc5280", "--bundle", pki.example.bundleJSONPath], "--profile spiffe"),
            (
                ["verify", pki.server.chainPath, "--profile", "spiffe", "--bundle", pki.example.bundleJSONPath, "--anchors", pki.example.rootPath],
                "--anchors"
            ),
            (["verify", pki.server.chainPath, "--profile", "spiffe", "--bundle", pki.example.bundlePEMPath], "--trust-domain"),
            (
                ["verify", pki.server.chainPath, "--profile", "spiffe", "--bundle", pki.example.bundleJSONPath, "--trust-domain", "Example.org"],
                "SPIFFE-ID §2.1"
            ),
            (
                [
                    "verify", pki.server.chainPath, "--profile", "spiffe", "--bundle", pki.example.bundleJSONPath,
                    "--bundle", pki.other.bundleJSONPath, "--trust-domain", "example.org",
                ], "one --trust-domain per --bundle"
            ),
            (
                [
                    "verify", pki.server.chainPath, "--profile", "spiffe", "--bundle", pki.example.bundleJSONPath,
                    "--bundle", pki.example.bundlePEMPath, "--trust-domain", "example.org", "--trust-domain", "example.org",
                ], "a second bundle"
            ),
            (
                ["verify", pki.server.chainPath, "--profile", "spiffe", "--bundle", pki.server.keyPath, "--trust-domain", "example.org"],
                "no certificate"
            ),
        ]
        for (arguments, words) in cases {
            let result = try trustctl(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdoutText)\(result.stderrText)")
            XCTAssertTrue(result.stderrText.contains(words), "\(arguments): \(result.stderrText)")
        }
    }

    func testAMalformedBundleNamesTheFileAndTheRule() throws {
        let pki = try Self.made.get()
        let directory = URL(fileURLWithPath: pki.example.bundleJSONPath).deletingLastPathComponent()
        let duplicate = directory.appendingPathComponent("duplicate-keys.json").path
        try #"{"keys": [], "keys": []}"#.write(toFile: duplicate, atomically: true, encoding: .utf8)
        let result = try verify(pki.server, ["--bundle", duplicate, "--trust-domain", "example.org"])
        XCTAssertEqual(result.status, 2, result.stdoutText + result.stderrText)
        XCTAssertTrue(result.stderrText.contains("\(duplicate):1: at keys: the key \"keys\" appears twice"), result.stderrText)
    }
}
