import Foundation
import TrustCore
import TrustTestSupport
import XCTest

/// docs/profiles.md prints Apple's rules as the library lists them (``AppleRulesTable``), and each row
/// has a test here, by topic, that shows SwiftTrust deciding so: every row has one, every one names
/// a row, and every named test exists.
final class AppleRulesTableTests: XCTestCase {
    /// Each row's test by topic: the file under Tests/ and the test method.
    static let testsByTopic: [String: (file: String, test: String)] = [
        "Explicitly encoded DEFAULT values (cA FALSE, critical FALSE, minimum 0)":
            ("ProfileRuleCoverageTests+AppleNames.swift", "testExplicitCAFalseIsReadAsOmittedExceptByTheStrictProfiles"),
        "SHA-1 signatures":
            ("AppleVerdictsTests.swift", "testSHA1IsRefusedInTLSServerChainsOnly"),
        "Weak keys in every certificate":
            ("AppleVerdictsTests.swift", "testEdDSAIsNotInTheServerKeySizeTableAndDSAIsWeak"),
        "TLS server key sizes":
            ("AppleVerdictsTests.swift", "testRSA1024IsWeakForTLSServersOnlyAndUnder1024Everywhere"),
        "Elliptic curves":
            ("AppleVerdictsTests.swift", "testP192AndP224MeetApplesEllipticCurveMinimumButNotTheServerTable"),
        "Anchors are the exact certificates given":
            ("AppleVerdictsTests.swift", "testAPresentedLookAlikeOfAnAnchoredLeafIsJudgedOnItsOwnFields"),
        "Caller anchors get no exemption":
            ("AppleVerdictsTests.swift", "testATenYearSelfSignedServerCertificateFailsAsACallerAnchorAndPassesAsAnAdministratorsRoot"),
        "System roots and administrators' roots":
            ("AppleVerdictsTests.swift", "testASystemRootIsASystemRootEvenAsTheCallersOnlyAnchor"),
        "Name constraints":
            ("ProfileRuleCoverageTests+AppleNames.swift", "testLeadingPeriodDNSNameConstraintMeansProperSubdomains"),
        "otherName constraints without their [0] EXPLICIT wrapper":
            ("OtherNameConstraintEncodingTests.swift", "testACriticalConstraintOnTheAnchorIsTrustedAsAppleTrustsIt"),
        "Chain length":
            ("AppleVerdictsTests.swift", "testNoFixedDepthCapTheBudgetBoundsTheChain"),
        "v1 and v2 CA certificates":
            ("AppleVerdictsTests.swift", "testVersion1IntermediatesBelowAVersion1AnchorUnlessTheProfileAppliesVersion1IssuersOnlyAsAnchors"),
        "Critical extensions Apple parses":
            ("AppleVerdictsTests.swift", "testCriticalExtensionsTrustdParsesAreNotUnknownUnlessTheProfileAppliesCriticalExtensionsProcessed"),
        "Server Gated Cryptography EKUs":
            (
                "AppleVerdictsTests.swift",
                "testServerGatedCryptographyStandsForServerAuthWhereTheStrictRuleDoesNotApplyUnlessExtendedKeyUsagePurposeListed"
            ),
        "Host names: underscores and trailing dots":
            ("ProfileRuleCoverageTests+AppleNames.swift", "testUnderscoreHostNamesMatch"),
        "requirePositiveResponse":
            (
                "AppleVerdictsTests.swift",
                "testRequirePositiveResponseAsksProofOfTheLeafOnlyUnlessTheProfileAppliesRevocationProofForEveryCertificate"
            ),
        "SHA-1 OCSP responses":
            ("AppleVerdictsTests.swift", "testASHA1SignedOCSPResponseIsAcceptedAsApplesSecOCSPResponseVerifySignatureAcceptsIt"),
        "The revocation evaluator fetches":
            ("TLSTrustDeciderTests.swift", "testARevocationEvaluatorFetchesWhenTheDecisionMayUseTheNetwork"),
        "Certificate Transparency":
            (
                "CertificateTransparencyEvaluationTests.swift",
                "testALeafWithoutSCTsUnderASystemRootWithAFreshListIsNotTrustedNamingThePolicyAndTheCounts"
            ),
        "BasicX509":
            ("AppleVerdictsTests.swift", "testBasicX509RefusesAnExpiredAnchorWherePureRFC5280DoesNot"),
    ]

    func testTheTableIsInTheDocs() throws {
        let docs = try String(contentsOf: TestCertificates.repositoryRoot.appendingPathComponent("docs/profiles.md"), encoding: .utf8)
        XCTAssertTrue(docs.contains(AppleRulesTable.markdown), "docs/profiles.md's Apple table is stale: run scripts/update-profile-docs")
    }

    func testEveryRowNamesATestThatExists() throws {
        let topics = AppleRulesTable.rows.map(\.topic)
        XCTAssertEqual(Set(topics).count, topics.count, "topics are unique")
        XCTAssertEqual(Set(topics), Set(Self.testsByTopic.keys), "every row has a test, and every test a row")
        for topic in topics {
            guard let (file, test) = Self.testsByTopic[topic] else { continue }
            let source = try String(contentsOf: TestSources.url(named: file), encoding: .utf8)
            XCTAssertTrue(source.contains("func \(test)("), "\(topic): \(file) has no \(test)")
        }
    }
}
