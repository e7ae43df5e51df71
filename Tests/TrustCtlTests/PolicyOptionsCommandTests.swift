import Foundation
import XCTest

/// Issue 43 items 3–5 through `trustctl verify`: verify dates past 9999 (`--at`), a required key
/// usage (`--key-usage`) and Apple's SPKI pin options (`--leaf-spki-sha256`, `--ca-spki-sha256`),
/// on the certificates of scripts/generate-policy-option-certificates.
final class PolicyOptionsCommandTests: XCTestCase {
    private static func path(_ relative: String) -> String { TestCertificatesDirectory.path(relative) }
    private static let host = TestCertificatesDirectory.host

    private func verify(_ arguments: [String]) throws -> TrustCtlResult {
        try trustctl(["verify"] + arguments, environment: ["NO_COLOR": "1"])
    }

    /// The failures of a `--json` report: subject and reason text.
    private func failures(_ result: TrustCtlResult) throws -> [(subject: String?, reason: String)] {
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any], result.stdoutText)
        let failures = try XCTUnwrap(report["failures"] as? [[String: Any]], "\(report)")
        return failures.map { ($0["subject"] as? String, $0["reason"] as? String ?? "") }
    }

    // MARK: - --at past 9999

    func testAVerifyDatePast9999InExpandedOrEpochForm() throws {
        let chain = [
            Self.path("policy-options/far-future-leaf.pem"), "--anchors", Self.path("policy-options/far-future-root.pem"),
            "--profile", "rfc5280",
        ]
        let within = try verify(chain + ["--at", "+9999-10-01T00:00:00Z"])
        XCTAssertEqual(within.status, 0, within.stdoutText + within.stderrText)
        for at in ["+10000-01-02T00:00:00Z", "@253402387200"] {
            let after = try verify(chain + ["--at", at, "--json"])
            XCTAssertEqual(after.status, 1, after.stdoutText + after.stderrText)
            let failures = try self.failures(after)
            XCTAssertEqual(failures.first?.subject, "O=SwiftTrust,CN=www.swifttrust.test", "\(failures)")
            XCTAssertEqual(failures.first?.reason, "expired 9999-12-31T23:59:59Z", "\(failures)")
        }
    }

    // MARK: - --key-usage

    /// `verify` of a policy-options leaf under the committed ECDSA hierarchy at the pinned date.
    private func verifyLeaf(_ leaf: String, _ extra: [String]) throws -> TrustCtlResult {
        try verify(
            [
                Self.path("policy-options/\(leaf).pem"), "--intermediates", Self.path("ecdsa/intermediate.pem"),
                "--anchors", Self.path("ecdsa/root.pem"), "--host", Self.host, "--at", TestCertificatesDirectory.verifyDate,
            ] + extra)
    }

    func testKeyUsageIsRequiredOfTheLeaf() throws {
        let missing = try verifyLeaf("ku-digital-signature", ["--key-usage", "keyEncipherment", "--json"])
        XCTAssertEqual(missing.status, 1, missing.stdoutText + missing.stderrText)
        let failures = try self.failures(missing)
        XCTAssertEqual(failures.map(\.subject), ["O=SwiftTrust,CN=www.swifttrust.test"])
        XCTAssertEqual(failures.map(\.reason), ["keyUsage digitalSignature lacks the key usage required: keyEncipherment"])
        // A comma list is any of them; a+b needs both, as one mask of SecPolicyCreateSSLWithKeyUsage.
        XCTAssertEqual(try verifyLeaf("ku-digital-signature", ["--key-usage", "digitalSignature,keyEncipherment"]).status, 0)
        XCTAssertEqual(try verifyLeaf("ku-key-encipherment", ["--key-usage", "digitalSignature,keyEncipherment"]).status, 0)
        XCTAssertEqual(try verifyLeaf("ku-digital-signature", ["--key-usage", "digitalSignature+keyAgreement"]).status, 1)
        XCTAssertEqual(try verifyLeaf("ku-digital-signature-key-agreement", ["--key-usage", "digitalSignature+keyAgreement"]).status, 0)
        // No keyUsage extension: Apple's kSecKeyUsageUnspecified sentinel lets it through.
        XCTAssertEqual(try verifyLeaf("ku-absent", ["--key-usage", "keyEncipherment"]).status, 0)
        // A judge that replaces the policies keeps the option (it is a TrustOptions setting).
        XCTAssertEqual(try verifyLeaf("ku-digital-signature", ["--key-usage", "keyEncipherment", "--policy", "default"]).status, 1)
    }

    func testKeyUsageIsRefusedWhereItCannotApply() throws {
        let unknown = try verifyLeaf("ku-digital-signature", ["--key-usage", "digitalSignature,signing"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderrText.contains("--key-usage: signing is not a key usage"), unknown.stderrText)
        let rfc5280 = try verifyLeaf("ku-digital-signature", ["--key-usage", "keyEncipherment", "--profile", "rfc5280"])
        XCTAssertEqual(rfc5280.status, 2)
        XCTAssertTrue(
            rfc5280.stderrText.contains("--key-usage is an option of Apple's SSL policy: it applies to --profile ssl or webpki"),
            rfc5280.stderrText)
        let disabled = try verifyLeaf("ku-digital-signature", ["--key-usage", "keyEncipherment", "--policy", "disabled"])
        XCTAssertEqual(disabled.status, 2)
        XCTAssertTrue(
            disabled.stderrText.contains("--policy disabled accepts without evaluating the chain, so it cannot enforce --key-usage"),
            disabled.stderrText)
    }

    // MARK: - --leaf-spki-sha256, --ca-spki-sha256

    /// The `sha256/BASE64` pin of a certificate under TestCertificates/, as `trustctl inspect` prints it.
    private func pin(_ relative: String) throws -> String {
        let result = try trustctl(["inspect", Self.path(relative), "--json"])
        let text = result.stdoutText
        guard let range = text.range(of: #"sha256/[A-Za-z0-9+/]{43}="#, options: .regularExpression) else {
            XCTFail("no pin in \(text)")
            return ""
        }
        return String(text[range])
    }

    private func verifyChain(_ extra: [String]) throws -> TrustCtlResult {
        try verify(
            [
                Self.path("ecdsa/chain.pem"), "--anchors", Self.path("ecdsa/root.pem"), "--host", Self.host,
                "--at", TestCertificatesDirectory.verifyDate,
            ] + extra)
    }

    func testSPKIPinOptions() throws {
        let leaf = try pin("ecdsa/leaf.pem"), intermediate = try pin("ecdsa/intermediate.pem"), root = try pin("ecdsa/root.pem")
        let other = try pin("rsa/root.pem")
        XCTAssertEqual(try verifyChain(["--leaf-spki-sha256", other, "--leaf-spki-sha256", leaf]).status, 0)
        // BASE64 without the prefix, as --pin-sha256 takes it.
        XCTAssertEqual(try verifyChain(["--leaf-spki-sha256", String(leaf.dropFirst("sha256/".count))]).status, 0)
        XCTAssertEqual(try verifyChain(["--ca-spki-sha256", intermediate]).status, 0)
        XCTAssertEqual(try verifyChain(["--ca-spki-sha256", root]).status, 0, "the anchor counts, as in SecPolicyCheckCAspkiSHA256")

        let leafMismatch = try verifyChain(["--leaf-spki-sha256", intermediate, "--json"])
        XCTAssertEqual(leafMismatch.status, 1)
        let leafFailures = try failures(leafMismatch)
        XCTAssertEqual(leafFailures.map(\.subject), ["CN=www.swifttrust.test,O=SwiftTrust"])
        XCTAssertEqual(
            leafFailures.first?.reason.hasPrefix("leaf SPKI SHA-256 \(leaf.dropFirst("sha256/".count)) is not among"), true,
            "\(leafFailures)")
        let caMismatch = try verifyChain(["--ca-spki-sha256", leaf, "--ca-spki-sha256", other, "--json"])
        XCTAssertEqual(caMismatch.status, 1)
        XCTAssertEqual(try failures(caMismatch).map(\.subject), [nil])
        XCTAssertEqual(try failures(caMismatch).first?.reason.hasPrefix("no SPKI SHA-256 of the 2 CA certificates above the leaf"), true)
    }

    func testSPKIPinOptionsAreRefusedWhereTheyCannotApply() throws {
        let short = try verifyChain(["--ca-spki-sha256", "AAAA"])
        XCTAssertEqual(short.status, 2)
        XCTAssertTrue(short.stderrText.contains("--ca-spki-sha256:"), short.stderrText)
        let rfc5280 = try verifyChain(["--leaf-spki-sha256", try pin("ecdsa/leaf.pem"), "--profile", "rfc5280"])
        XCTAssertEqual(rfc5280.status, 2)
        XCTAssertTrue(rfc5280.stderrText.contains("--leaf-spki-sha256 is an option of Apple's SSL policy"), rfc5280.stderrText)
    }

    func testAFiveDigitYearWithoutItsSignIsAUsageError() throws {
        let result = try verify([Self.path("ecdsa/chain.pem"), "--at", "10000-01-02T00:00:00Z"])
        XCTAssertEqual(result.status, 2, result.stderrText)
        XCTAssertTrue(result.stderrText.contains("--at 10000-01-02T00:00:00Z is not a date"), result.stderrText)
    }
}
