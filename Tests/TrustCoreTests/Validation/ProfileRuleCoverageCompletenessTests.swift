import Foundation
import TrustCore
import TrustTestSupport
import XCTest

/// Every ``ProfileRule`` has a test on generated certificates that breaks it and checks, under every
/// profile (rfc5280, rfc5280Strict, ssl, webPKI; spiffe on SVIDs), which reject the chain for it: a new rule without
/// such a test fails here. The tests are ProfileRuleCoverageTests (certificates openssl issues in the
/// test) and ProfileTests (the committed scenarios of TestCertificates/).
final class ProfileRuleCoverageCompletenessTests: XCTestCase {
    /// For each rule, the test (file name under Tests/, and method) that exercises it.
    static let coveringTests: [ProfileRule: (file: String, test: String)] = [
        // Apple's SSL policy
        .keyIdentifierLinkage: ("ProfileTests.swift", "testAuthorityKeyIdentifierMustNameTheIssuersKey"),
        .nonEmptySubject: ("ProfileRuleCoverageTests+Names.swift", "testEmptySubjectWithoutCriticalSubjectAltName"),
        .weakKeySize: ("ProfileRuleCoverageTests+Keys.swift", "testRSAKeyUnder1024Bits"),
        .strongKeySize: ("ProfileRuleCoverageTests+Keys.swift", "testRSAKeyUnder2048BitsInATLSServerChain"),
        .serverAuthExtendedKeyUsageRequired: ("ProfileTests.swift", "testLeafWithoutExtendedKeyUsageNeedsServerAuthForServersOnly"),
        .leafValidityPeriod: ("ProfileTests.swift", "testLeafValidFor900DaysBreaksApples825DayLimit"),
        .systemTrustedLeafValidityPeriod: ("ProfileRuleCoverageTests+SystemTrust.swift", "testLeafValidityUnderASystemRoot"),
        .issuerExtendedKeyUsage: ("ProfileRuleCoverageTests.swift", "testCARestrictedToAnotherPurpose"),
        .anchorValidity: ("ProfileRuleCoverageTests+Anchors.swift", "testExpiredTrustAnchor"),
        .anchorIsCA: ("ProfileRuleCoverageTests+Anchors.swift", "testTrustAnchorThatIsNotACA"),
        // RFC 5280 §4
        .serialNumber: ("ProfileRuleCoverageTests+Names.swift", "testSerialNumberZeroNegativeOrOverlong"),
        .issuerNonEmpty: ("ProfileRuleCoverageTests+Names.swift", "testEmptyIssuerName"),
        .authorityKeyIdentifier: ("ProfileTests.swift", "testLeafWithoutAuthorityKeyIdentifier"),
        .subjectKeyIdentifier: ("ProfileRuleCoverageTests.swift", "testIntermediateWithoutSubjectKeyIdentifier"),
        .basicConstraintsCritical: ("ProfileTests.swift", "testCAWithNonCriticalBasicConstraints"),
        .keyUsageConsistency: ("ProfileTests.swift", "testRootWithoutBasicConstraints"),
        .caSubjectNonEmpty: ("ProfileRuleCoverageTests+Names.swift", "testCAWithEmptySubject"),
        .nameConstraintsInCAOnly: ("ProfileRuleCoverageTests.swift", "testNameConstraintsOnlyInCACertificates"),
        .nameConstraintsCritical: ("ProfileRuleCoverageTests.swift", "testNonCriticalNameConstraintsUnderStrictRFC5280Only"),
        .policyConstraintsCritical: ("ProfileTests.swift", "testNonCriticalPolicyConstraints"),
        .authorityInfoAccessNonCritical: ("ProfileRuleCoverageTests.swift", "testAuthorityInfoAccessMustNotBeCritical"),
        .subjectAltNameCriticality: ("ProfileRuleCoverageTests.swift", "testSubjectAltNameIsNotCriticalWithASubject"),
        .subjectAltNameSyntax: ("ProfileRuleCoverageTests.swift", "testSubjectAltNameSyntax"),
        .anchorProfile: ("ProfileRuleCoverageTests+Anchors.swift", "testTrustAnchorWithoutSubjectKeyIdentifier"),
        // CA/Browser Forum
        .version3: ("ProfileRuleCoverageTests+Names.swift", "testVersion1Leaf"),
        .rootAuthorityKeyIdentifier: ("ProfileRuleCoverageTests+Anchors.swift", "testSelfSignedRootAuthorityKeyIdentifierWithIssuerAndSerial"),
        .leafSubjectAltNameRequired: ("ProfileTests.swift", "testLeafWithoutSubjectAltNameWhenNoHostIsChecked"),
        .leafExtendedKeyUsage: ("ProfileTests.swift", "testLeafWithoutExtendedKeyUsageNeedsServerAuthForServersOnly"),
        .anchorExtendedKeyUsage: ("ProfileRuleCoverageTests.swift", "testCARestrictedToAnotherPurpose"),
        .rootWithoutExtendedKeyUsage: ("ProfileRuleCoverageTests+Anchors.swift", "testSelfSignedRootWithExtendedKeyUsage"),
        .keyAlgorithm: ("ProfileRuleCoverageTests+Keys.swift", "testRSAModulusNotAMultipleOf8"),
        .caCertificateAsLeaf: ("ProfileTests.swift", "testCACertificateAsLeaf"),
        // Apple's SSL server policy, continued
        .signatureHashAlgorithm: ("ProfileRuleCoverageTests+Keys.swift", "testSHA1SignatureInATLSServerChain"),
        // RFC 5280 where Apple allows more
        .version1IssuersOnlyAsAnchors: (
            "AppleVerdictsTests.swift",
            "testVersion1IntermediatesBelowAVersion1AnchorUnlessTheProfileAppliesVersion1IssuersOnlyAsAnchors"
        ),
        .criticalExtensionsProcessed: (
            "AppleVerdictsTests.swift",
            "testCriticalExtensionsTrustdParsesAreNotUnknownUnlessTheProfileAppliesCriticalExtensionsProcessed"
        ),
        .revocationProofForEveryCertificate: (
            "AppleVerdictsTests.swift",
            "testRequirePositiveResponseAsksProofOfTheLeafOnlyUnlessTheProfileAppliesRevocationProofForEveryCertificate"
        ),
        // Issue 32 (Apple's verdicts)
        .derDefaultOmitted: ("ProfileRuleCoverageTests+AppleNames.swift", "testExplicitCAFalseIsReadAsOmittedExceptByTheStrictProfiles"),
        .nameConstraintsDNSNameSyntax: ("ProfileRuleCoverageTests+AppleNames.swift", "testLeadingPeriodDNSNameConstraintMeansProperSubdomains"),
        .nameConstraintsFormsSupported: ("ProfileRuleCoverageTests+AppleNames.swift", "testCriticalNameConstraintsWithAFormThatCannotBeChecked"),
        .extendedKeyUsagePurposeListed: (
            "AppleVerdictsTests.swift",
            "testServerGatedCryptographyStandsForServerAuthWhereTheStrictRuleDoesNotApplyUnlessExtendedKeyUsagePurposeListed"
        ),
        // SPIFFE X.509-SVIDs (on SVIDs SPIFFEPKI makes)
        .svidSingleURI: ("SPIFFE/SPIFFEProfileRuleTests.swift", "testLeafWithTwoURIs"),
        .svidSPIFFEID: ("SPIFFE/SPIFFEProfileRuleTests.swift", "testLeafWhoseURIIsNotASPIFFEID"),
        .svidLeafNotCA: ("SPIFFE/SPIFFEProfileRuleTests.swift", "testLeafThatIsACA"),
        .svidLeafDigitalSignature: ("SPIFFE/SPIFFEProfileRuleTests.swift", "testLeafWithoutDigitalSignature"),
        .svidLeafNotSigner: ("SPIFFE/SPIFFEProfileRuleTests.swift", "testLeafWithKeyCertSignOrCRLSign"),
        .svidSigningCertificateKeyUsage: ("SPIFFE/SPIFFEProfileRuleTests.swift", "testSigningCertificateWithoutKeyUsage"),
        // Issue 43
        .pathLenConstraintInCAOnly: ("ProfileRuleCoverageTests.swift", "testPathLenConstraintOnlyWithCA"),
    ]

    func testEveryRuleHasACoveringTest() {
        // Keys are rules, so equal to allCases exactly when none is missing.
        let missing = ProfileRule.allCases.filter { Self.coveringTests[$0] == nil }
        XCTAssertEqual(missing, [], "rules without a test on generated certificates")
    }

    /// The list is kept honest: each named test exists and names its rule.
    func testEveryCoveringTestExistsAndNamesItsRule() throws {
        for (rule, place) in Self.coveringTests {
            let source = try String(contentsOf: TestSources.url(named: place.file), encoding: .utf8)
            guard let start = source.range(of: "func \(place.test)(") else {
                XCTFail("\(rule): \(place.file) has no \(place.test)")
                continue
            }
            // The test's body: up to the next method at the same indentation.
            let end = source.range(of: "\n    func ", range: start.upperBound..<source.endIndex)?.lowerBound ?? source.endIndex
            XCTAssertTrue(source[start.upperBound..<end].contains(".\(rule.rawValue)"), "\(place.test) does not name .\(rule)")
        }
    }
}
