import Foundation
import TrustCore
import TrustDER
import TrustX509
import XCTest

/// Issue 40 item 6: every option a judge that skips evaluation would drop counts as needing an
/// evaluation, and an evaluation covers the options only when it checked the revocation methods
/// they ask for.
final class TrustOptionsRequirementTests: XCTestCase {
    func testEverySettingThatChangesAVerdictNeedsAnEvaluation() throws {
        XCTAssertFalse(TrustOptions().requiresEvaluation, "the defaults need nothing a skipping judge drops")
        let policy = try XCTUnwrap(ASN1ObjectIdentifier(dotted: "1.2.3.4"))
        let suffixes = try PublicSuffixList(parsing: "test\n")
        let changes: [(String, (inout TrustOptions) -> Void)] = [
            ("profile", { $0.profile = .webPKI }),
            ("revocation", { $0.revocation = [] }),
            ("maximum depth", { $0.maximumDepth = 0 }),
            ("modern signatures", { $0.signaturePolicy = .modern }),
            ("legacy signatures", { $0.signaturePolicy = .legacy }),
            ("leaf key usage", { $0.requiredLeafKeyUsage = LeafKeyUsageRequirement(allOf: .digitalSignature) }),
            ("leaf SPKI pins", { $0.leafSPKISHA256 = [] }),
            ("CA SPKI pins", { $0.caSPKISHA256 = [[UInt8](repeating: 0, count: 32)] }),
            ("common-name fallback", { $0.allowsCommonNameFallback = true }),
            ("anchor constraints", { $0.enforcesAnchorConstraints = true }),
            ("initial policy set", { $0.initialPolicySet = [policy] }),
            ("explicit policy", { $0.initialExplicitPolicy = true }),
            ("policy mapping inhibit", { $0.initialPolicyMappingInhibit = true }),
            ("any-policy inhibit", { $0.initialAnyPolicyInhibit = true }),
            ("public suffix list", { $0.publicSuffixList = suffixes }),
        ]
        for (name, change) in changes {
            var options = TrustOptions()
            change(&options)
            XCTAssertTrue(options.requiresEvaluation, name)
        }
        // Limits on work and permission to download intermediates: a judge that does no work and
        // downloads nothing honours them.
        var limits = TrustOptions()
        limits.budget.signatureChecks = 1
        limits.fetchesMissingIssuers = false
        XCTAssertFalse(limits.requiresEvaluation)
    }

    func testAnEvaluationCoversOnlyTheRevocationMethodsItChecked() throws {
        typealias Kit = RevocationKit
        func enforced(_ flags: RevocationOptions) throws -> TrustEvaluation.Enforced {
            let trust = try Kit.trust(Kit.goodLeaf, options: flags, crls: ["intermediate-current", "root-empty"])
            return trust.evaluate().enforced
        }
        let cases: [(ran: RevocationOptions, wanted: RevocationOptions, covers: Bool)] = [
            ([.crl], [.ocsp], false),
            ([.ocsp], [.crl], false),
            ([.crl], [], false), // neither flag asks for both methods
            ([.ocsp], .useAnyAvailableMethod, false),
            ([], [.crl], true), ([], [.ocsp], true), ([], .useAnyAvailableMethod, true),
            ([.crl], [.crl], true), (.useAnyAvailableMethod, [.ocsp], true),
            ([.crl, .preferCRL], [.crl], true), // the order of fetching, not what is checked
            ([.crl], [.crl, .preferCRL], true),
            ([.crl], [.crl, .requirePositiveResponse], false),
            ([.crl, .requirePositiveResponse], [.crl], true),
        ]
        for (ran, wanted, covers) in cases {
            XCTAssertEqual(try enforced(ran).covers(TrustOptions(revocation: wanted)), covers, "ran \(ran), wanted \(wanted)")
        }
    }
}
