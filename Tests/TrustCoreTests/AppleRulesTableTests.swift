import Foundation
import TrustCore
import XCTest

/// docs/profiles.md prints Apple's rules as the library lists them (``AppleRulesTable``), and each row
/// has a test here, by topic, that shows SwiftTrust deciding so: every row has one, every one names
/// a row, and every named test exists.
final class AppleRulesTableTests: XCTestCase {
    /// Each row's test by topic: the file under Tests/ and the test method.
    static let testsByTopic: [String: (file: String, test: String)] = [
        "Explicitly encoded DEFAULT values (cA FALSE, critical FALSE, minimum 0)":
            ("TrustCoreTests/ProfileRuleCoverageTests+AppleNames.swift", "testExplicitCAFalseIsReadAsOmittedExceptByTheStrictProfiles"),
        "SHA-1 signatures":
            ("TrustCoreTests/AppleVerdictsTests.swift", "testSHA1IsRefusedInTLSServerChainsOnly"),
        "Weak keys in every certificate":
            ("TrustCoreTests/AppleVerdictsTests.swift", "testEdDSAIsNotInTheServerKeySizeTableAndDSAIsWeak"),
        "TLS server key sizes":
            ("TrustCoreTests/AppleVerdictsTests.swift", "testRSA1024IsWeakForTLSServersOnlyAndUnder1024Everywhere"),
        "Elliptic curves":
            ("TrustCoreTests/AppleVerdictsTests.swift", "testP192AndP224MeetApplesEllipticCurveMinimumButNotTheServerTable"),
        "Anchors are the exact certificates given":
            ("TrustCoreTests/AppleVerdictsTests.swift", "testAPresentedLookAlikeOfAnAnchoredLeafIsJudgedOnItsOwnFields"),
        "Caller anchors get no exemption":
            ("TrustCoreTests/AppleVerdictsTests.swift", "testATenYearSelfSignedServerCertificateFailsAsACallerAnchorAndPassesAsAnAdministratorsRoot"),
        "System roots and administrators' roots":
            ("TrustCoreTests/AppleVerdictsTests.swift", "testASystemRootIsASystemRootEvenAsTheCallersOnlyAnchor"),
        "Name constraints":
            ("TrustCoreTests/ProfileRuleCoverageTests+AppleNames.swift", "testLeadingPeriodDNSNameConstraintMeansProperSubdomains"),
        "Chain length":
            ("TrustCoreTests/AppleVerdictsTests.swift", "testNoFixedDepthCapTheBudgetBoundsTheChain"),
        "v1 and v2 CA certificates":
            ("TrustCoreTests/AppleVerdictsTests.swift", "testVersion1IntermediatesBelowAVersion1AnchorUnlessTheProfileAppliesVersion1IssuersOnlyAsAnchors"),
        "Critical extensions Apple parses":
            ("TrustCoreTests/AppleVerdictsTests.swift", "testCriticalExtensionsTrustdParsesAreNotUnknownUnlessTheProfileAppliesCriticalExtensionsProcessed"),
        "Server Gated Cryptography EKUs":
            ("TrustCoreTests/AppleVerdictsTests.swift", "testServerGatedCryptographyStandsForServerAuthWhereTheStrictRuleDoesNotApplyUnlessExtendedKeyUsagePurposeListed"),
        "Host names: underscores and trailing dots":
            ("TrustCoreTests/ProfileRuleCoverageTests+AppleNames.swift", "testUnderscoreHostNamesMatch"),
        "requirePositiveResponse":
            ("TrustCoreTests/AppleVerdictsTests.swift", "testRequirePositiveResponseAsksProofOfTheLeafOnlyUnlessTheProfileAppliesRevocationProofForEveryCertificate"),
        "SHA-1 OCSP responses":
            ("TrustCoreTests/AppleVerdictsTests.swift", "testASHA1SignedOCSPResponseIsAcceptedAsApplesSecOCSPResponseVerifySignatureAcceptsIt"),
        "The revocation evaluator fetches":
            ("TrustSessionTests/TLSTrustDeciderTests.swift", "testARevocationEvaluatorFetchesWhenTheDecisionMayUseTheNetwork"),
        "BasicX509":
            ("TrustCoreTests/AppleVerdictsTests.swift", "testBasicX509RefusesAnExpiredAnchorWherePureRFC5280DoesNot"),
    ]

    func testTheTableIsInTheDocs() throws {
        let docs = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/profiles.md"), encoding: .utf8)
        XCTAssertTrue(docs.contains(AppleRulesTable.markdown), "docs/profiles.md's Apple table is stale: run trustctl profiles --apple --markdown")
    }

    func testEveryRowNamesATestThatExists() throws {
        let topics = AppleRulesTable.rows.map(\.topic)
        XCTAssertEqual(Set(topics).count, topics.count, "topics are unique")
        XCTAssertEqual(Set(topics), Set(Self.testsByTopic.keys), "every row has a test, and every test a row")
        let tests = Fixtures.repositoryRoot.appendingPathComponent("Tests")
        for topic in topics {
            guard let (file, test) = Self.testsByTopic[topic] else { continue }
            let source = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            XCTAssertTrue(source.contains("func \(test)("), "\(topic): \(file) has no \(test)")
        }
    }
}
