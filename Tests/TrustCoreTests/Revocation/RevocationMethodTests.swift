import Foundation
import TrustCore
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

/// The `RevocationOptions` flags: method selection, "revoked from any valid source wins", and when
/// `evaluate(fetchingWith:cache:)` fetches (with a recording fake fetcher: no network here).
final class RevocationMethodTests: XCTestCase {
    typealias Kit = RevocationKit

    // MARK: Method selection

    func testCRLOnlyIgnoresSuppliedOCSP() throws {
        let evaluation = try Kit.trust(Kit.revokedLeaf, options: [.crl], ocsp: ["revoked-leaf-revoked"]).evaluate()
        assertTrusted(evaluation)
        XCTAssertEqual(Kit.status(evaluation, 0), .unknown(notes: []))
        // Control: with OCSP enabled the same response revokes.
        let control = try Kit.trust(Kit.revokedLeaf, options: [.ocsp], ocsp: ["revoked-leaf-revoked"]).evaluate()
        assertNotTrusted(control, .fatalTrustFailure, failures: ["0:revoked"])
        // And a good response does not count as proof under [.crl] hard fail.
        let hard = try Kit.trust(
            Kit.goodLeaf, options: [.crl, .requirePositiveResponse], crls: ["root-empty"],
            ocsp: ["good-leaf-good"]
        ).evaluate()
        assertNotTrusted(hard, .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
    }

    func testOCSPOnlyIgnoresSuppliedCRLs() throws {
        let evaluation = try Kit.trust(Kit.revokedLeaf, options: [.ocsp], crls: ["intermediate-current"]).evaluate()
        assertTrusted(evaluation)
        XCTAssertEqual(Kit.status(evaluation, 0), .unknown(notes: []))
        // Invalid CRLs are not even looked at.
        assertTrusted(try Kit.trust(Kit.revokedLeaf, options: [.ocsp], crls: ["intermediate-wrong-signer"]).evaluate())
        let control = try Kit.trust(Kit.revokedLeaf, options: [.crl], crls: ["intermediate-current"]).evaluate()
        assertNotTrusted(control, .fatalTrustFailure, failures: ["0:revoked"])
    }

    func testNeitherMethodFlagMeansBoth() throws {
        for options: RevocationOptions in [[], [.requirePositiveResponse], [.preferCRL], .useAnyAvailableMethod] {
            let byCRL = try Kit.trust(Kit.revokedLeaf, options: options, crls: ["intermediate-current", "root-empty"]).evaluate()
            assertNotTrusted(byCRL, .fatalTrustFailure, failures: ["0:revoked"])
            let byOCSP = try Kit.trust(Kit.revokedLeaf, options: options, crls: ["root-empty"], ocsp: ["revoked-leaf-revoked"]).evaluate()
            assertNotTrusted(byOCSP, .fatalTrustFailure, failures: ["0:revoked"])
            // Proof of good from either method satisfies hard fail.
            let good = try Kit.trust(
                Kit.goodLeaf, options: options.union(.requirePositiveResponse), crls: ["root-empty"],
                ocsp: ["good-leaf-good"]
            ).evaluate()
            assertTrusted(good)
        }
    }

    func testRevokedFromAnyValidSourceWins() throws {
        // Good OCSP for good-leaf, but the base + delta CRLs put it on hold.
        for options: RevocationOptions in [[], .useAnyAvailableMethod, [.ocsp, .crl, .preferCRL], [.ocsp, .crl, .requirePositiveResponse]] {
            let evaluation = try Kit.trust(
                Kit.goodLeaf, options: options, crls: ["intermediate-current", "intermediate-delta", "root-empty"],
                ocsp: ["good-leaf-good"]
            ).evaluate()
            assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revoked"])
            XCTAssertEqual(
                Kit.status(evaluation, 0), .revoked(source: .suppliedCRL, time: Kit.date(2026, 5, 10), reason: .certificateHold),
                "\(options)")
        }
        // The other way round: the CRLs release revoked-leaf (removeFromCRL delta), OCSP says revoked.
        for options: RevocationOptions in [[], [.ocsp, .crl, .preferCRL]] {
            let evaluation = try Kit.trust(
                Kit.revokedLeaf, options: options, crls: ["intermediate-current", "intermediate-remove-from-crl"],
                ocsp: ["revoked-leaf-revoked"]
            ).evaluate()
            assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revoked"])
            XCTAssertEqual(Kit.status(evaluation, 0), .revoked(source: .suppliedOCSP, time: Kit.revocationDate, reason: .keyCompromise))
        }
    }

    func testInvalidCRLFailsEvenWhenAnotherSourceProvesGood() throws {
        // The forged (wrong-signer) CRL is evidence that something is wrong: good proof from OCSP or
        // from a valid CRL does not make it go unnoticed (docs/revocation.md, invalid CRL: fail).
        for (crls, ocsp) in [
            (["intermediate-wrong-signer"], ["good-leaf-good"]),
            (["intermediate-current", "intermediate-wrong-signer"], [String]()),
        ] {
            for options: RevocationOptions in [[], [.requirePositiveResponse]] {
                let evaluation = try Kit.trust(Kit.goodLeaf, options: options, crls: crls + ["root-empty"], ocsp: ocsp).evaluate()
                assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revocationInformationInvalid"])
                XCTAssertTrue(Kit.firstFailure(evaluation).contains("signature"), Kit.firstFailure(evaluation))
                // The status itself is the valid source's.
                XCTAssertEqual(Kit.status(evaluation, 0), .good(source: ocsp.isEmpty ? .suppliedCRL : .suppliedOCSP))
            }
        }
        // Under [.ocsp] CRLs are not looked at, forged or not.
        assertTrusted(try Kit.trust(Kit.goodLeaf, options: [.ocsp], crls: ["intermediate-wrong-signer"], ocsp: ["good-leaf-good"]).evaluate())
        // A revoked certificate stays revoked (the decisive failure).
        let revoked = try Kit.trust(Kit.revokedLeaf, options: [], crls: ["intermediate-current", "intermediate-wrong-signer"]).evaluate()
        assertNotTrusted(revoked, .fatalTrustFailure, failures: ["0:revoked"])
    }

    // MARK: When evaluate(fetchingWith:cache:) fetches

    private func fetcherServingFixtures() throws -> RecordingFetcher {
        RecordingFetcher(
            crls: [Kit.crlURL: try TestCertificates.bytes("revocation/intermediate-current.crl")],
            ocsp: [Kit.ocspURL: try TestCertificates.bytes("revocation/revoked-leaf-revoked.ocsp")])
    }

    func testNetworkAccessDisabledNeverCallsTheFetcher() async throws {
        for options: RevocationOptions in [
            [.networkAccessDisabled], [.ocsp, .crl, .networkAccessDisabled, .requirePositiveResponse],
            [.crl, .preferCRL, .networkAccessDisabled],
        ] {
            let fetcher = try fetcherServingFixtures()
            let trust = try Kit.trust(Kit.revokedLeaf, options: options)
            let evaluation = await trust.evaluate(fetchingWith: fetcher, cache: nil)
            XCTAssertEqual(fetcher.calls, [], "\(options)")
            XCTAssertEqual(failureSummary(evaluation), failureSummary(trust.evaluate()))
            XCTAssertFalse(failureSummary(evaluation).contains("0:revoked"))
        }
        // Control: without the flag the same fetcher is asked, and its answer is used.
        let fetcher = try fetcherServingFixtures()
        let trust = try Kit.trust(Kit.revokedLeaf, options: [])
        let evaluation = await trust.evaluate(fetchingWith: fetcher, cache: nil)
        XCTAssertFalse(fetcher.calls.isEmpty)
        assertNotTrusted(evaluation, .fatalTrustFailure, failures: ["0:revoked"])
    }

    func testNetworkAccessDisabledInAnyRevocationPolicyWins() async throws {
        let fetcher = try fetcherServingFixtures()
        let trust = try TestCertificates.trust(
            [Kit.revokedLeaf, Kit.intermediate],
            policies: [
                .ssl(server: true, hostname: TestCertificates.host), .revocation([.ocsp]),
                .revocation([.networkAccessDisabled]),
            ])
        _ = await trust.evaluate(fetchingWith: fetcher, cache: nil)
        XCTAssertEqual(fetcher.calls, [])
    }

    func testDefaultOrderAsksOCSPFirstAndStopsWhenItAnswers() async throws {
        let fetcher = try fetcherServingFixtures()
        let trust = try Kit.trust(Kit.revokedLeaf, options: [])
        let evaluation = await trust.evaluate(fetchingWith: fetcher, cache: nil)
        XCTAssertEqual(fetcher.calls.map(\.kind), ["ocsp"])
        XCTAssertEqual(fetcher.calls.map(\.url), [Kit.ocspURL])
        // The request is a plain SHA-1 CertID request for the leaf, issued by the intermediate.
        let leaf = try TestCertificates.certificate(Kit.revokedLeaf)
        let issuer = try TestCertificates.certificate(Kit.intermediate)
        XCTAssertEqual(fetcher.calls.first?.request, OCSPRequest(certIDs: [OCSPCertID(certificate: leaf, issuer: issuer)]).derEncoded)
        XCTAssertEqual(Kit.status(evaluation, 0), .revoked(source: .fetchedOCSP(url: Kit.ocspURL), time: Kit.revocationDate, reason: .keyCompromise))
        XCTAssertTrue(evaluation.failures.first?.description.contains("OCSP http://ocsp.swifttrust.test") == true, "\(evaluation)")
    }

    func testPreferCRLAsksForTheCRLFirst() async throws {
        let fetcher = try fetcherServingFixtures()
        let trust = try Kit.trust(Kit.revokedLeaf, options: [.preferCRL])
        let evaluation = await trust.evaluate(fetchingWith: fetcher, cache: nil)
        XCTAssertEqual(fetcher.calls.map(\.kind), ["crl"])
        XCTAssertEqual(fetcher.calls.map(\.url), [Kit.crlURL])
        XCTAssertEqual(Kit.status(evaluation, 0), .revoked(source: .fetchedCRL(url: Kit.crlURL), time: Kit.revocationDate, reason: .keyCompromise))
        XCTAssertTrue(
            evaluation.failures.first?.description.contains("CRL http://crl.swifttrust.test/ecdsa-intermediate.crl") == true,
            "\(evaluation)")
    }

    func testOnlyTheEnabledMethodIsFetched() async throws {
        let crlOnly = try fetcherServingFixtures()
        _ = try await Kit.trust(Kit.revokedLeaf, options: [.crl]).evaluate(fetchingWith: crlOnly, cache: nil)
        XCTAssertEqual(crlOnly.calls.map(\.kind), ["crl"])
        let ocspOnly = RecordingFetcher()
        _ = try await Kit.trust(Kit.revokedLeaf, options: [.ocsp, .preferCRL]).evaluate(fetchingWith: ocspOnly, cache: nil)
        XCTAssertEqual(ocspOnly.calls.map(\.kind), ["ocsp"])
    }

    func testFailedOCSPFetchFallsBackToTheCRL() async throws {
        let fetcher = RecordingFetcher(crls: [Kit.crlURL: try TestCertificates.bytes("revocation/intermediate-current.crl")])
        let trust = try Kit.trust(Kit.revokedLeaf, options: [])
        let evaluation = await trust.evaluate(fetchingWith: fetcher, cache: nil)
        XCTAssertEqual(fetcher.calls.map(\.kind), ["ocsp", "crl"])
        XCTAssertEqual(Kit.status(evaluation, 0), .revoked(source: .fetchedCRL(url: Kit.crlURL), time: Kit.revocationDate, reason: .keyCompromise))
        // Garbage from the responder is no answer either.
        let garbage = RecordingFetcher(
            crls: [Kit.crlURL: try TestCertificates.bytes("revocation/intermediate-current.crl")],
            ocsp: [Kit.ocspURL: [0x30, 0x00]])
        let second = try await Kit.trust(Kit.revokedLeaf, options: []).evaluate(fetchingWith: garbage, cache: nil)
        XCTAssertEqual(garbage.calls.map(\.kind), ["ocsp", "crl"])
        assertNotTrusted(second, .fatalTrustFailure, failures: ["0:revoked"])
    }

    func testOCSPResponseWithoutAnAnswerFallsBackToTheCRL() async throws {
        // "tryLater", a stale response and a response about another certificate parse, but give no
        // answer for the certificate: the CRL must still be asked.
        let noAnswers: [(String, [UInt8])] = [
            ("tryLater", [0x30, 0x03, 0x0A, 0x01, 0x03]),
            ("stale", try TestCertificates.bytes("revocation/good-leaf-expired.ocsp")),
            ("other certificate", try TestCertificates.bytes("revocation/revoked-leaf-revoked.ocsp")),
        ]
        for (name, ocsp) in noAnswers {
            let fetcher = RecordingFetcher(
                crls: [Kit.crlURL: try TestCertificates.bytes("revocation/intermediate-current.crl")],
                ocsp: [Kit.ocspURL: ocsp])
            let trust = try Kit.trust(Kit.goodLeaf, options: [.requirePositiveResponse])
            trust.setCRLs([try Kit.crl("root-empty")])
            let evaluation = await trust.evaluate(fetchingWith: fetcher, cache: nil)
            XCTAssertEqual(fetcher.calls.map(\.kind), ["ocsp", "crl"], name)
            assertTrusted(evaluation)
            XCTAssertEqual(Kit.status(evaluation, 0), .good(source: .fetchedCRL(url: Kit.crlURL)), name)
        }
    }

    func testNoFetchWhenEverythingIsKnown() async throws {
        let fetcher = try fetcherServingFixtures()
        let trust = try Kit.trust(Kit.goodLeaf, options: [], crls: ["root-empty"], ocsp: ["good-leaf-good"])
        let evaluation = await trust.evaluate(fetchingWith: fetcher, cache: nil)
        XCTAssertEqual(fetcher.calls, [])
        assertTrusted(evaluation)
    }

    func testNoFetchWithoutRevocationPolicyOrAnchor() async throws {
        let fetcher = try fetcherServingFixtures()
        let plain = try TestCertificates.trust([Kit.revokedLeaf, Kit.intermediate])
        assertTrusted(await plain.evaluate(fetchingWith: fetcher, cache: nil))
        XCTAssertEqual(fetcher.calls, [])

        // No path to an anchor: nothing to check, nothing fetched.
        let unanchored = try TestCertificates.trust(
            [Kit.revokedLeaf, Kit.intermediate], anchors: ["rsa/root.pem"],
            policies: [.ssl(server: true, hostname: TestCertificates.host), .revocation([])])
        let evaluation = await unanchored.evaluate(fetchingWith: fetcher, cache: nil)
        XCTAssertFalse(evaluation.isTrusted)
        XCTAssertEqual(fetcher.calls, [])
    }

    func testFetchFailureIsUnknown() async throws {
        let fetcher = RecordingFetcher()
        let soft = try await Kit.trust(Kit.revokedLeaf, options: []).evaluate(fetchingWith: fetcher, cache: nil)
        assertTrusted(soft)
        XCTAssertEqual(fetcher.calls.map(\.kind), ["ocsp", "crl"])
        let hard = try await Kit.trust(Kit.goodLeaf, options: [.requirePositiveResponse], crls: ["root-empty"]).evaluate(
            fetchingWith: fetcher, cache: nil)
        assertNotTrusted(hard, .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
    }

    func testFetchedAnswerIsKeptForLaterEvaluations() async throws {
        let fetcher = try fetcherServingFixtures()
        let trust = try Kit.trust(Kit.revokedLeaf, options: [])
        _ = await trust.evaluate(fetchingWith: fetcher, cache: nil)
        // The synchronous evaluate() never fetches, but uses what was fetched.
        assertNotTrusted(trust.evaluate(), .fatalTrustFailure, failures: ["0:revoked"])
        XCTAssertEqual(fetcher.calls.count, 1)
        // A second fetching evaluation has nothing unknown about the leaf left to fetch.
        _ = await trust.evaluate(fetchingWith: fetcher, cache: nil)
        XCTAssertEqual(fetcher.calls.count, 1)
    }
}
