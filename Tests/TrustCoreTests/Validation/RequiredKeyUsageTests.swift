import Foundation
import TrustCore
import TrustTestSupport
import TrustX509
import XCTest

/// Issue 43 item 3: a required leaf key usage, Apple's `SecPolicyCreateSSLWithKeyUsage`, read as
/// trustd's `SecPolicyCheckKeyUsage` / `SecPolicyCheckCertKeyUsage` read it: every bit of one of the
/// required masks, any of them; a leaf without keyUsage passes (`kSecKeyUsageUnspecified`, which
/// `SecPolicyCreateSSL_internal` adds beside the mask). Leaves from
/// scripts/generate-policy-option-certificates, under the committed ECDSA intermediate.
final class RequiredKeyUsageTests: XCTestCase {
    private func evaluate(_ leaf: String, requiring requirement: LeafKeyUsageRequirement) throws -> TrustEvaluation {
        let trust = try TestCertificates.trust(["policy-options/\(leaf).pem", "ecdsa/intermediate.pem"])
        trust.options.requiredLeafKeyUsage = requirement
        return trust.evaluate()
    }

    func testEveryLeafIsTrustedWithoutARequirement() throws {
        for leaf in ["ku-digital-signature", "ku-key-encipherment", "ku-digital-signature-key-agreement", "ku-absent"] {
            assertTrusted(try evaluate(leaf, requiring: LeafKeyUsageRequirement()))
        }
    }

    func testALeafWithoutTheRequiredBitIsRejectedNamingTheLeafAndTheBits() throws {
        let required = LeafKeyUsageRequirement(allOf: .keyEncipherment)
        let evaluation = try evaluate("ku-digital-signature", requiring: required)
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:requiredKeyUsageMissing"])
        let failure = try XCTUnwrap(evaluation.failures.first)
        XCTAssertEqual(failure.reason, .requiredKeyUsageMissing(required: required, present: .digitalSignature))
        XCTAssertEqual(failure.subject, "O=SwiftTrust,CN=www.swifttrust.test")
        XCTAssertEqual(failure.reason.summary, "keyUsage digitalSignature lacks the key usage required: keyEncipherment")
        assertTrusted(try evaluate("ku-key-encipherment", requiring: required))
    }

    func testOneMaskNeedsEveryBitAsSecPolicyCreateSSLWithKeyUsage() throws {
        // keyusage_allows: (keyUsage & ku) == ku.
        let both = LeafKeyUsageRequirement(allOf: [.digitalSignature, .keyAgreement])
        assertTrusted(try evaluate("ku-digital-signature-key-agreement", requiring: both))
        let evaluation = try evaluate("ku-digital-signature", requiring: both)
        XCTAssertEqual(evaluation.failures.map(\.reason), [.requiredKeyUsageMissing(required: both, present: .digitalSignature)])
        XCTAssertEqual(
            evaluation.failures.first?.reason.summary,
            "keyUsage digitalSignature lacks the key usage required: digitalSignature+keyAgreement")
    }

    func testSeveralMasksAreAnyOf() throws {
        // SecPolicyCheckCertKeyUsage: an array of masks matches when any one does.
        let either = LeafKeyUsageRequirement(anyOf: [.keyEncipherment, .digitalSignature])
        assertTrusted(try evaluate("ku-digital-signature", requiring: either))
        assertTrusted(try evaluate("ku-key-encipherment", requiring: either))
        let neither = LeafKeyUsageRequirement(anyOf: [.keyEncipherment, [.keyAgreement, .dataEncipherment]])
        let evaluation = try evaluate("ku-digital-signature-key-agreement", requiring: neither)
        XCTAssertEqual(
            evaluation.failures.map(\.reason),
            [.requiredKeyUsageMissing(required: neither, present: [.digitalSignature, .keyAgreement])])
        XCTAssertEqual(
            evaluation.failures.first?.reason.summary,
            "keyUsage digitalSignature+keyAgreement lacks the key usage required: any of keyEncipherment, dataEncipherment+keyAgreement")
    }

    func testALeafWithoutKeyUsagePassesAsApplesUnspecifiedSentinelLetsIt() throws {
        XCTAssertNil(try TestCertificates.certificate("policy-options/ku-absent.pem").extensions.keyUsage)
        for requirement in [LeafKeyUsageRequirement(allOf: .keyEncipherment), LeafKeyUsageRequirement(anyOf: [.keyCertSign, .cRLSign])] {
            assertTrusted(try evaluate("ku-absent", requiring: requirement))
        }
    }

    func testTheRequirementValue() {
        XCTAssertTrue(LeafKeyUsageRequirement(allOf: []).isEmpty, "kSecKeyUsageUnspecified: no check")
        XCTAssertEqual(LeafKeyUsageRequirement(anyOf: [[], .keyEncipherment, .keyEncipherment]).alternatives, [.keyEncipherment])
        XCTAssertEqual(LeafKeyUsageRequirement(), TrustOptions().requiredLeafKeyUsage)
        XCTAssertEqual(LeafKeyUsageRequirement().description, "none")
        XCTAssertTrue(LeafKeyUsageRequirement(allOf: .keyEncipherment).isSatisfied(by: nil))
        XCTAssertFalse(LeafKeyUsageRequirement(allOf: .keyEncipherment).isSatisfied(by: .digitalSignature))
    }
}
