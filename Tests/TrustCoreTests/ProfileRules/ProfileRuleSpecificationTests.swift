@testable import TrustCore
import XCTest

/// Every ``ProfileRule`` is specified exactly once, by one family in the registry, and what the
/// engine derives from the specifications is what it applies.
final class ProfileRuleSpecificationTests: XCTestCase {
    func testEveryRuleHasExactlyOneSpecification() {
        let specified = ProfileRuleRegistry.families.flatMap { $0.specifications.map(\.rule) }
        for rule in ProfileRule.allCases {
            XCTAssertEqual(specified.filter { $0 == rule }.count, 1, "\(rule) needs one specification in one family of ProfileRuleRegistry")
            XCTAssertNotNil(rule.specification, "\(rule)")
            XCTAssertEqual(rule.specification?.rule, rule)
        }
        XCTAssertEqual(specified.count, ProfileRule.allCases.count)
    }

    func testEverySpecificationSaysWhereItComesFromAndWhatItChecks() {
        for specification in ProfileRuleRegistry.families.flatMap({ $0.specifications }) {
            XCTAssertFalse(specification.profiles.isEmpty, "\(specification.rule)")
            XCTAssertFalse(specification.source.isEmpty, "\(specification.rule)")
            XCTAssertTrue(specification.summary.hasSuffix("."), "\(specification.rule): a summary is one sentence")
        }
    }

    /// A family registered without certificate checks is skipped; one with them is asked only for
    /// its own rules.
    func testCertificateChecksCoverExactlyTheCertificateScopedRules() {
        let certificateRules = ProfileRule.allCases.filter { $0.specification?.scope == .certificate }
        let checked = ProfileRuleRegistry.certificateChecks.reduce(ProfileRuleSet()) { $0.union($1.rules) }
        XCTAssertEqual(checked, ProfileRuleSet(certificateRules))
        let families = ProfileRuleRegistry.certificateChecks.map(\.rules)
        for (index, rules) in families.enumerated() {
            for other in families[(index + 1)...] { XCTAssertTrue(rules.intersection(other).isEmpty) }
        }
    }

    /// The subsets the engine prepares inputs for, derived from `reads`: a rule that forgets to say
    /// what it reads would run without it.
    func testDerivedSubsetsAreTheRulesThatReadEachInput() {
        XCTAssertEqual(
            Set(ProfileRuleRegistry.rulesReadingSelfSigned),
            [.authorityKeyIdentifier, .anchorProfile, .rootAuthorityKeyIdentifier, .rootWithoutExtendedKeyUsage])
        XCTAssertEqual(
            Set(ProfileRuleRegistry.anchorSourceRules),
            [
                .strongKeySize, .serverAuthExtendedKeyUsageRequired, .leafValidityPeriod, .systemTrustedLeafValidityPeriod,
                .signatureHashAlgorithm,
            ])
        XCTAssertEqual(
            Set(ProfileRuleRegistry.anchorConstraintRules),
            [.anchorValidity, .anchorIsCA, .anchorProfile, .anchorExtendedKeyUsage])
    }
}
