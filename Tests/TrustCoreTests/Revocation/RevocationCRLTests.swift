import Foundation
import TrustCore
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

/// Offline CRL checking through `ServerTrust` (docs/revocation.md, "CRL rules").
final class RevocationCRLTests: XCTestCase {
    typealias Kit = RevocationKit
    let soft: RevocationOptions = [.crl]
    let hard: RevocationOptions = [.crl, .requirePositiveResponse]

    // MARK: Current CRL

    func testRevokedLeafWithCurrentCRLIsRevoked() throws {
        for options in [soft, hard, .useAnyAvailableMethod, []] {
            let evaluation = try Kit.trust(
                Kit.revokedLeaf, options: options.union(.networkAccessDisabled),
                crls: ["intermediate-current", "root-empty"]
            ).evaluate()
            assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revoked"])
            XCTAssertEqual(Kit.status(evaluation, 0), .revoked(source: .suppliedCRL, time: Kit.revocationDate, reason: .keyCompromise))
            XCTAssertEqual(Kit.status(evaluation, 1), .good(source: .suppliedCRL))
            XCTAssertEqual(Kit.status(evaluation, 2), .notChecked)
            XCTAssertEqual(evaluation.revocationStatuses.map(\.index), [0, 1, 2])
            XCTAssertEqual(evaluation.revocationStatuses.first?.subject, "CN=www.swifttrust.test,O=SwiftTrust")
            let failure = try XCTUnwrap(evaluation.failures.first)
            XCTAssertEqual(failure.certificateIndex, 0)
            XCTAssertEqual(failure.reason.severity, .fatal)
            XCTAssertTrue(failure.description.contains("keyCompromise"), failure.description)
            XCTAssertTrue(failure.description.contains("CRL (supplied)"), failure.description)
            XCTAssertTrue(failure.description.contains("2026-04-01"), failure.description)
        }
    }

    func testRevokedLeafWithoutRootCRLStillNamesTheLeafOnly() throws {
        let evaluation = try Kit.trust(Kit.revokedLeaf, options: soft, crls: ["intermediate-current"]).evaluate()
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revoked"])
        XCTAssertEqual(Kit.status(evaluation, 1), .unknown(notes: []))
    }

    func testPEMLoadedCRLGivesTheSameAnswer() throws {
        let crls = try CertificateRevocationList.loadAll(from: TestCertificates.bytes("revocation/intermediate-current.crl.pem"))
        let trust = try Kit.trust(Kit.revokedLeaf, options: soft)
        trust.setCRLs(crls)
        XCTAssertEqual(trust.suppliedCRLs.map(\.derEncoded), crls.map(\.derEncoded))
        let evaluation = trust.evaluate()
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revoked"])
    }

    func testGoodLeafWithCurrentCRLIsTrusted() throws {
        let evaluation = try Kit.trust(Kit.goodLeaf, options: soft, crls: ["intermediate-current"]).evaluate()
        assertTrusted(evaluation)
        XCTAssertEqual(Kit.status(evaluation, 0), .good(source: .suppliedCRL))
        XCTAssertEqual(Kit.status(evaluation, 1), .unknown(notes: []), "no root CRL: unknown, accepted in soft-fail mode")
        XCTAssertEqual(Kit.status(evaluation, 2), .notChecked)
    }

    func testWithoutRevocationPolicyThereAreNoStatuses() throws {
        let trust = try TestCertificates.trust([Kit.revokedLeaf, Kit.intermediate])
        trust.setCRLs([try Kit.crl("intermediate-current")])
        let evaluation = trust.evaluate()
        assertTrusted(evaluation)
        XCTAssertEqual(evaluation.revocationStatuses, [])
    }

    // MARK: Freshness

    func testExpiredCRLSoftFailIsTrustedAsUnknown() throws {
        for leaf in [Kit.revokedLeaf, Kit.goodLeaf] {
            let evaluation = try Kit.trust(leaf, options: soft, crls: ["intermediate-expired"]).evaluate()
            assertTrusted(evaluation)
            let status = Kit.status(evaluation, 0)
            XCTAssertTrue(Kit.isUnknown(status), "\(String(describing: status))")
            XCTAssertTrue(Kit.notes(status).contains { $0.contains("stale") && $0.contains("CRL (supplied)") }, "\(Kit.notes(status))")
        }
    }

    func testExpiredCRLHardFailIsUnavailable() throws {
        let evaluation = try Kit.trust(Kit.goodLeaf, options: hard, crls: ["intermediate-expired", "root-empty"]).evaluate()
        assertNotTrusted(evaluation, .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
        XCTAssertTrue(Kit.firstFailure(evaluation).contains("stale"), Kit.firstFailure(evaluation))
        XCTAssertEqual(Kit.status(evaluation, 1), .good(source: .suppliedCRL))
    }

    func testFreshnessBoundariesWithClockSkew() throws {
        func evaluate(_ forge: CRLForge) throws -> TrustEvaluation {
            let trust = try Kit.trust(Kit.revokedLeaf, options: soft)
            trust.setCRLs([try forge.make()])
            return trust.evaluate()
        }
        var forge = try CRLForge.intermediate()
        forge.entries = [(Array(try TestCertificates.certificate(Kit.revokedLeaf).serialNumber), "260401000000Z", 1)]
        // Verify date 2026-06-01T00:00:00Z; 5 minutes of skew either way.
        forge.thisUpdate = .utcTime("260601000400Z")
        assertNotTrusted(try evaluate(forge), .fatalTrustFailure, failures: ["0:revoked"])
        forge.thisUpdate = .utcTime("260601000600Z")
        var evaluation = try evaluate(forge)
        assertTrusted(evaluation)
        XCTAssertTrue(Kit.notes(Kit.status(evaluation, 0)).contains { $0.contains("in the future") }, "\(evaluation.revocationStatuses)")

        forge.thisUpdate = .utcTime("260501000000Z")
        forge.nextUpdate = .utcTime("260531235600Z")
        assertNotTrusted(try evaluate(forge), .fatalTrustFailure, failures: ["0:revoked"])
        forge.nextUpdate = .utcTime("260531235400Z")
        evaluation = try evaluate(forge)
        assertTrusted(evaluation)
        XCTAssertTrue(Kit.notes(Kit.status(evaluation, 0)).contains { $0.contains("stale") }, "\(evaluation.revocationStatuses)")

        // A CRL without nextUpdate is not used.
        forge.nextUpdate = nil
        evaluation = try evaluate(forge)
        assertTrusted(evaluation)
        XCTAssertTrue(Kit.notes(Kit.status(evaluation, 0)).contains { $0.contains("no nextUpdate") }, "\(evaluation.revocationStatuses)")
    }

    // MARK: Integrity

    func testWrongSignerCRLIsInvalidInBothModes() throws {
        for leaf in [Kit.revokedLeaf, Kit.goodLeaf] {
            let softEvaluation = try Kit.trust(leaf, options: soft, crls: ["intermediate-wrong-signer"]).evaluate()
            assertNotTrusted(softEvaluation, .fatalTrustFailure, failures: ["0:revocationInformationInvalid"])
            XCTAssertTrue(Kit.isUnknown(Kit.status(softEvaluation, 0)), "a forged CRL proves nothing: \(softEvaluation.revocationStatuses)")
            XCTAssertTrue(Kit.firstFailure(softEvaluation).contains("signature"), Kit.firstFailure(softEvaluation))

            let hardEvaluation = try Kit.trust(leaf, options: hard, crls: ["intermediate-wrong-signer", "root-empty"]).evaluate()
            assertNotTrusted(hardEvaluation, .fatalTrustFailure, failures: ["0:revocationInformationInvalid", "0:revocationUnavailable"])
        }
    }

    func testCRLProfileViolationsAreInvalid() throws {
        let serial = Array(try TestCertificates.certificate(Kit.revokedLeaf).serialNumber)
        var cases: [(String, CRLForge)] = []
        var missingNumber = try CRLForge.intermediate()
        missingNumber.crlNumber = nil
        cases.append(("missing cRLNumber", missingNumber))
        var criticalNumber = try CRLForge.intermediate()
        criticalNumber.crlNumberCritical = true
        cases.append(("cRLNumber must not be critical", criticalNumber))
        var unknownCritical = try CRLForge.intermediate()
        unknownCritical.extraExtensions = [.extension("1.3.6.1.4.1.55555.9", critical: true, value: RevocationTLV.null.der)]
        cases.append(("unhandled critical CRL extension", unknownCritical))
        for (expected, var forge) in cases {
            forge.entries = [(serial, "260401000000Z", 1)]
            let trust = try Kit.trust(Kit.revokedLeaf, options: soft)
            trust.setCRLs([try forge.make()])
            let evaluation = trust.evaluate()
            assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revocationInformationInvalid"])
            XCTAssertTrue(evaluation.failures.first?.description.contains(expected) == true, "\(expected): \(evaluation)")
        }
        // Control: the same CRL, well formed, revokes.
        var good = try CRLForge.intermediate()
        good.entries = [(serial, "260401000000Z", 1)]
        good.extraExtensions = [.extension("1.3.6.1.4.1.55555.9", critical: false, value: RevocationTLV.null.der)]
        let trust = try Kit.trust(Kit.revokedLeaf, options: soft)
        trust.setCRLs([try good.make()])
        assertNotTrusted(trust.evaluate(), .fatalTrustFailure, failures: ["0:revoked"])
    }

    func testCRLOfAnotherKeyWithTheSameNameIsNotUsed() throws {
        // crl-signer-other has the intermediate's subject but its own key; its CRL (with its own AKI)
        // names a key nobody in the evaluation holds a certificate for: not used (RFC 5280 §6.3.3 (f)),
        // and not an integrity failure either.
        var forge = CRLForge(
            issuer: try TestCertificates.certificate("revocation/crl-signer-other.pem"),
            keyPath: "revocation/keys/crl-signer-other.key.pem")
        forge.entries = [(Array(try TestCertificates.certificate(Kit.revokedLeaf).serialNumber), "260401000000Z", 1)]
        let trust = try Kit.trust(Kit.revokedLeaf, options: soft)
        trust.setCRLs([try forge.make()])
        let evaluation = trust.evaluate()
        assertTrusted(evaluation)
        XCTAssertTrue(Kit.notes(Kit.status(evaluation, 0)).contains { $0.contains("to verify it with") }, "\(evaluation.revocationStatuses)")
    }

    func testNoSingleOctetCorruptionIsSilentlyAccepted() throws {
        // Every damaged copy of the current CRL that still parses is either not this issuer's CRL any
        // more (issuer name or AKI changed: not used) or reported invalid; it never proves good-leaf
        // good and never lets revoked-leaf through without a failure when it still claims the issuer.
        let der = try TestCertificates.bytes("revocation/intermediate-current.crl")
        let good = try Kit.trust(Kit.goodLeaf, options: soft)
        let revoked = try Kit.trust(Kit.revokedLeaf, options: soft)
        let intermediate = try TestCertificates.certificate(Kit.intermediate)
        var checked = 0
        for index in der.indices {
            for mask: UInt8 in [0x01, 0xFF] {
                var damaged = der
                damaged[index] ^= mask
                guard let crl = try? CertificateRevocationList(derEncoded: damaged) else { continue }
                checked += 1
                good.setCRLs([crl])
                let goodEvaluation = good.evaluate()
                if case .good? = Kit.status(goodEvaluation, 0) { XCTFail("byte \(index) ^ \(mask): damaged CRL proves good") }
                // Same name, and no AKI keyid or the issuer's (docs: "when both ... are present they must match").
                let aki = crl.authorityKeyIdentifier?.keyIdentifier.map(Array.init)
                let claimsIssuer =
                    crl.issuer == intermediate.subject
                    && (aki == nil || aki == intermediate.extensions.subjectKeyIdentifier.map { Array($0.keyIdentifier) })
                if claimsIssuer {
                    XCTAssertEqual(failureSummary(goodEvaluation), ["0:revocationInformationInvalid"], "byte \(index) ^ \(mask)")
                    revoked.setCRLs([crl])
                    XCTAssertFalse(revoked.evaluate().isTrusted, "byte \(index) ^ \(mask)")
                } else {
                    assertTrusted(goodEvaluation)
                }
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }

    // MARK: Scope (issuingDistributionPoint)

    func testIDPWithMatchingDistributionPointIsUsed() throws {
        let revoked = try Kit.trust(Kit.revokedLeaf, options: soft, crls: ["intermediate-with-idp"]).evaluate()
        assertNotTrusted(revoked, .fatalTrustFailure, failures: ["0:revoked"])
        XCTAssertEqual(Kit.status(revoked, 0), .revoked(source: .suppliedCRL, time: Kit.revocationDate, reason: .keyCompromise))
        let good = try Kit.trust(Kit.goodLeaf, options: hard, crls: ["intermediate-with-idp", "root-empty"]).evaluate()
        assertTrusted(good)
        XCTAssertEqual(Kit.status(good, 0), .good(source: .suppliedCRL))
    }

    func testIDPWithAnotherDistributionPointIsNotUsed() throws {
        let evaluation = try Kit.trust(Kit.revokedLeaf, options: soft, crls: ["intermediate-idp-other-dp"]).evaluate()
        assertTrusted(evaluation)
        let notes = Kit.notes(Kit.status(evaluation, 0))
        XCTAssertTrue(notes.contains { $0.contains("http://crl.swifttrust.test/other.crl") && $0.contains("not the certificate's") }, "\(notes)")
        let hardEvaluation = try Kit.trust(Kit.goodLeaf, options: hard, crls: ["intermediate-idp-other-dp", "root-empty"]).evaluate()
        assertNotTrusted(hardEvaluation, .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
    }

    func testOnlyUserCertsCRLIsNotUsedForTheIntermediate() throws {
        let intermediateSerial = Array(try TestCertificates.certificate(Kit.intermediate).serialNumber)
        var forge = try CRLForge.root()
        forge.entries = [(intermediateSerial, "260401000000Z", 2)]
        forge.issuingDistributionPoint = .sequence([.primitive(0x81, [0xFF])]) // onlyContainsUserCerts
        let trust = try Kit.trust(Kit.goodLeaf, options: soft)
        trust.setCRLs([try Kit.crl("intermediate-current"), try forge.make()])
        let evaluation = trust.evaluate()
        assertTrusted(evaluation)
        XCTAssertEqual(Kit.status(evaluation, 0), .good(source: .suppliedCRL))
        XCTAssertTrue(
            Kit.notes(Kit.status(evaluation, 1)).contains { $0.contains("end-entity certificates only") },
            "\(evaluation.revocationStatuses)")

        // Control: the same root CRL without the IDP revokes the intermediate.
        forge.issuingDistributionPoint = nil
        trust.setCRLs([try Kit.crl("intermediate-current"), try forge.make()])
        let control = trust.evaluate()
        assertNotTrusted(control, .fatalTrustFailure, failures: ["1:revoked"])
        XCTAssertEqual(Kit.status(control, 1), .revoked(source: .suppliedCRL, time: Kit.revocationDate, reason: .caCompromise))
    }

    func testOnlyCACertsCRLIsNotUsedForTheLeaf() throws {
        var forge = try CRLForge.intermediate()
        forge.entries = [(Array(try TestCertificates.certificate(Kit.revokedLeaf).serialNumber), "260401000000Z", 1)]
        forge.issuingDistributionPoint = .sequence([.primitive(0x82, [0xFF])]) // onlyContainsCACerts
        let trust = try Kit.trust(Kit.revokedLeaf, options: soft)
        trust.setCRLs([try forge.make()])
        let evaluation = trust.evaluate()
        assertTrusted(evaluation)
        XCTAssertTrue(Kit.notes(Kit.status(evaluation, 0)).contains { $0.contains("CA certificates only") }, "\(evaluation.revocationStatuses)")
    }

    func testOnlySomeReasonsCRLCannotProveGood() throws {
        var forge = try CRLForge.intermediate()
        forge.entries = [(Array(try TestCertificates.certificate(Kit.revokedLeaf).serialNumber), "260401000000Z", 1)]
        // onlySomeReasons [3] ReasonFlags: keyCompromise (bit 1).
        forge.issuingDistributionPoint = .sequence([.primitive(0x83, [0x06, 0x40])])
        let crl = try forge.make()
        let good = try Kit.trust(Kit.goodLeaf, options: soft)
        good.setCRLs([crl])
        let goodEvaluation = good.evaluate()
        assertTrusted(goodEvaluation)
        XCTAssertTrue(
            Kit.notes(Kit.status(goodEvaluation, 0)).contains { $0.contains("cover only the reasons {keyCompromise}") },
            "\(goodEvaluation.revocationStatuses)")
        // It still proves revoked.
        let revoked = try Kit.trust(Kit.revokedLeaf, options: soft)
        revoked.setCRLs([crl])
        assertNotTrusted(revoked.evaluate(), .fatalTrustFailure, failures: ["0:revoked"])
    }

    func testIndirectCRLOfTheIssuerListsItsOwnCertificates() throws {
        // RFC 5280 §5.3.3: in an indirect CRL, entries before the first certificateIssuer belong to
        // the CRL issuer; this one is the leaf's issuer, so its entry revokes the leaf.
        var forge = try CRLForge.intermediate()
        forge.entries = [(Array(try TestCertificates.certificate(Kit.revokedLeaf).serialNumber), "260401000000Z", 1)]
        forge.issuingDistributionPoint = .sequence([.primitive(0x84, [0xFF])]) // indirectCRL
        let trust = try Kit.trust(Kit.revokedLeaf, options: soft)
        trust.setCRLs([try forge.make()])
        let evaluation = trust.evaluate()
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revoked"])
        XCTAssertEqual(Kit.status(evaluation, 0), .revoked(source: .suppliedCRL, time: Kit.revocationDate, reason: .keyCompromise))
    }

    // MARK: Whole chain

    func testRevokedIntermediateViaRootCRL() throws {
        let leaf = "revocation/leaf-under-revoked-intermediate.pem"
        let evaluation = try Kit.trust(
            leaf, intermediates: ["revocation/revoked-intermediate.pem"], options: soft,
            crls: ["root-current", "revoked-intermediate-empty"]
        ).evaluate()
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["1:revoked"])
        XCTAssertEqual(Kit.status(evaluation, 0), .good(source: .suppliedCRL))
        XCTAssertEqual(Kit.status(evaluation, 1), .revoked(source: .suppliedCRL, time: Kit.revocationDate, reason: .caCompromise))
        XCTAssertEqual(Kit.status(evaluation, 2), .notChecked)
        let description = Kit.firstFailure(evaluation)
        XCTAssertTrue(description.contains("cACompromise") && description.contains("CRL (supplied)"), description)
        XCTAssertTrue(description.contains("SwiftTrust Test Revoked Intermediate ECDSA"), description)

        // Without the root's CRL the intermediate is merely unknown.
        let withoutRoot = try Kit.trust(
            leaf, intermediates: ["revocation/revoked-intermediate.pem"], options: soft,
            crls: ["revoked-intermediate-empty"]
        ).evaluate()
        assertTrusted(withoutRoot)
    }

    func testRootCurrentCRLDoesNotRevokeTheOtherIntermediate() throws {
        let evaluation = try Kit.trust(Kit.goodLeaf, options: hard, crls: ["root-current", "intermediate-current"]).evaluate()
        assertTrusted(evaluation)
    }

    func testHardFailWithBothCRLsCoversEveryNonAnchorCertificateUnderRFC5280() throws {
        // RFC 5280 §6.3 (revocationProofForEveryCertificate); Apple asks proof of the leaf only.
        func rfc5280(_ crls: [String]) throws -> TrustEvaluation {
            let trust = try Kit.trust(Kit.goodLeaf, options: hard, crls: crls)
            trust.policies = [.profile(.rfc5280, purpose: .serverAuth, hostname: TestCertificates.host), .revocation(hard)]
            return trust.evaluate()
        }
        let evaluation = try rfc5280(["root-empty", "intermediate-current"])
        assertTrusted(evaluation)
        XCTAssertEqual(evaluation.revocationStatuses.map(\.status), [.good(source: .suppliedCRL), .good(source: .suppliedCRL), .notChecked])

        // Control: without the root's CRL the intermediate has no proof.
        assertNotTrusted(try rfc5280(["intermediate-current"]), .recoverableTrustFailure, failures: ["1:revocationUnavailable"])
        // And without any CRL neither has.
        assertNotTrusted(try rfc5280([]), .recoverableTrustFailure, failures: ["0:revocationUnavailable", "1:revocationUnavailable"])
        // Under Apple's SSL policy the leaf's proof is enough (SecPVCPathCheckRevocationResponsesReceived).
        assertTrusted(try Kit.trust(Kit.goodLeaf, options: hard, crls: ["intermediate-current"]).evaluate())
        assertNotTrusted(try Kit.trust(Kit.goodLeaf, options: hard).evaluate(), .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
    }

    func testRevokedIntermediateMakesThePathBuilderUseTheCrossSignedPath() throws {
        // cross-leaf verifies through cross-intermediate-by-root (→ ecdsa/root) or its cross-signed twin
        // cross-intermediate-by-root2 (→ scenarios/root2). The root revokes its copy of the intermediate.
        let byRoot = try TestCertificates.certificate("scenarios/cross-intermediate-by-root.pem")
        var forge = try CRLForge.root()
        forge.entries = [(Array(byRoot.serialNumber), "260401000000Z", 2)]
        let rootCRL = try forge.make()
        func trust(intermediates: [String], anchors: [String]) throws -> ServerTrust {
            let trust = try TestCertificates.trust(
                ["scenarios/cross-leaf.pem"] + intermediates, anchors: anchors,
                policies: [.ssl(server: true, hostname: TestCertificates.host), .revocation([.crl])])
            trust.setCRLs([rootCRL])
            return trust
        }
        // Only the revoked path: revoked at index 1.
        let only = try trust(intermediates: ["scenarios/cross-intermediate-by-root.pem"], anchors: ["ecdsa/root.pem"]).evaluate()
        assertNotTrusted(only, .fatalTrustFailure, failures: ["1:revoked"])
        // Both paths: the builder goes on to the cross-signed one.
        var triedRevokedPathFirst = 0
        for intermediates in [
            ["scenarios/cross-intermediate-by-root.pem", "scenarios/cross-intermediate-by-root2.pem"],
            ["scenarios/cross-intermediate-by-root2.pem", "scenarios/cross-intermediate-by-root.pem"],
        ] {
            let both = try trust(intermediates: intermediates, anchors: ["ecdsa/root.pem", "scenarios/root2.pem"]).evaluate()
            assertTrusted(both)
            XCTAssertEqual(both.chain.last?.subject.description, "CN=SwiftTrust Test Root 2,O=SwiftTrust")
            XCTAssertEqual(both.chain.dropFirst().first, try TestCertificates.certificate("scenarios/cross-intermediate-by-root2.pem"))
            if both.attempts.contains(where: { attempt in
                attempt.outcome == .invalid && attempt.chain.contains(byRoot)
                    && attempt.failures.contains { if case .revoked = $0.reason { true } else { false } }
            }) {
                triedRevokedPathFirst += 1
            }
        }
        // In at least one presentation order the revoked path was tried first, rejected for the
        // revocation, and the builder went on to the other one.
        XCTAssertGreaterThan(triedRevokedPathFirst, 0)
    }

    // MARK: Large CRL

    func testLargeCRLGivesTheSameAnswersAsTheSmallOne() throws {
        for leaf in [Kit.revokedLeaf, Kit.goodLeaf] {
            let small = try Kit.trust(leaf, options: soft, crls: ["intermediate-current"]).evaluate()
            let large = try Kit.trust(leaf, options: soft, crls: ["intermediate-large"]).evaluate()
            XCTAssertEqual(large.revocationStatuses, small.revocationStatuses, leaf)
            XCTAssertEqual(failureSummary(large), failureSummary(small), leaf)
            XCTAssertEqual(large.result, small.result, leaf)
        }
        let revoked = try Kit.trust(Kit.revokedLeaf, options: soft, crls: ["intermediate-large"]).evaluate()
        XCTAssertEqual(Kit.status(revoked, 0), .revoked(source: .suppliedCRL, time: Kit.revocationDate, reason: .keyCompromise))
    }

    // MARK: Delta CRLs

    func testDeltaCRLPutsGoodLeafOnHold() throws {
        let evaluation = try Kit.trust(Kit.goodLeaf, options: soft, crls: ["intermediate-current", "intermediate-delta"]).evaluate()
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revoked"])
        XCTAssertEqual(Kit.status(evaluation, 0), .revoked(source: .suppliedCRL, time: Kit.date(2026, 5, 10), reason: .certificateHold))
        XCTAssertTrue(Kit.firstFailure(evaluation).contains("certificateHold"), Kit.firstFailure(evaluation))
        // Order of supply does not matter.
        let reversed = try Kit.trust(Kit.goodLeaf, options: soft, crls: ["intermediate-delta", "intermediate-current"]).evaluate()
        XCTAssertEqual(reversed.revocationStatuses, evaluation.revocationStatuses)
        // The base alone says good; the delta does not change revoked-leaf's answer.
        assertTrusted(try Kit.trust(Kit.goodLeaf, options: soft, crls: ["intermediate-current"]).evaluate())
        let revoked = try Kit.trust(Kit.revokedLeaf, options: soft, crls: ["intermediate-current", "intermediate-delta"]).evaluate()
        XCTAssertEqual(Kit.status(revoked, 0), .revoked(source: .suppliedCRL, time: Kit.revocationDate, reason: .keyCompromise))
    }

    func testDeltaCRLAloneDoesNotStandInForACompleteCRL() throws {
        for leaf in [Kit.goodLeaf, Kit.revokedLeaf] {
            let evaluation = try Kit.trust(leaf, options: soft, crls: ["intermediate-delta"]).evaluate()
            assertTrusted(evaluation)
            XCTAssertTrue(
                Kit.notes(Kit.status(evaluation, 0)).contains { $0.contains("delta CRL without a usable base CRL") },
                "\(evaluation.revocationStatuses)")
            let hardEvaluation = try Kit.trust(leaf, options: hard, crls: ["intermediate-delta", "root-empty"]).evaluate()
            assertNotTrusted(hardEvaluation, .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
        }
    }

    func testRemoveFromCRLDeltaReleasesTheCertificate() throws {
        // Documented policy: removeFromCRL in a delta releases (as OpenSSL does).
        let evaluation = try Kit.trust(
            Kit.revokedLeaf, options: hard,
            crls: ["intermediate-current", "intermediate-remove-from-crl", "root-empty"]
        ).evaluate()
        assertTrusted(evaluation)
        XCTAssertEqual(Kit.status(evaluation, 0), .good(source: .suppliedCRL))
    }

    func testDeltaForANewerBaseThanTheCompleteCRLIsNotApplied() throws {
        // A delta whose BaseCRLNumber (9) is above the complete CRL's number (2) does not apply to it.
        let goodSerial = Array(try TestCertificates.certificate(Kit.goodLeaf).serialNumber)
        var delta = try CRLForge.intermediate()
        delta.entries = [(goodSerial, "260510000000Z", 6)]
        delta.deltaBase = [0x09]
        delta.crlNumber = [0x0A]
        let trust = try Kit.trust(Kit.goodLeaf, options: soft)
        trust.setCRLs([try Kit.crl("intermediate-current"), try delta.make()])
        let evaluation = trust.evaluate()
        assertTrusted(evaluation)
        XCTAssertEqual(Kit.status(evaluation, 0), .good(source: .suppliedCRL))

        // Control: the same delta based on CRL 2 applies.
        delta.deltaBase = [0x02]
        trust.setCRLs([try Kit.crl("intermediate-current"), try delta.make()])
        assertNotTrusted(trust.evaluate(), .fatalTrustFailure, failures: ["0:revoked"])
    }
}
