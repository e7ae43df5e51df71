import Foundation
import TrustCore
import TrustHTTP
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

/// What `evaluate(fetchingWith:cache:)` may fetch, and what becomes of what it fetched
/// (docs/revocation.md, "Network"): only for a chain valid apart from revocation, only that chain's
/// URLs; a fetched document that fails verification is no information; fetched information is kept
/// per URL, not accumulated.
final class RevocationFetchScopeTests: XCTestCase {
    typealias Kit = RevocationKit

    private var server: LoopbackServer?

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    // MARK: Blind SSRF

    /// Certificates whose AIA and CRL DP URLs point at a loopback server this test watches.
    private func watchedURLs() throws -> (ocsp: String, crl: String, server: LoopbackServer) {
        let (server, port) = try LoopbackServer.fileServer(directory: TestCertificates.path("revocation"))
        self.server = server
        return ("http://127.0.0.1:\(port)/ocsp", "http://127.0.0.1:\(port)/intermediate-current.crl", server)
    }

    func testChainsThatFailValidationAreNeverFetchedFor() async throws {
        let (ocsp, crl, server) = try watchedURLs()
        let http = HTTPRevocationFetcher(timeout: 3, allowsLocalAddresses: true)
        // A "leaf" anyone can make: the good leaf's contents with the attacker's URLs, signed by a key
        // that is not the intermediate's.
        let forged = try CertificateForge.reissue(Kit.goodLeaf, ocspURL: ocsp, crlURL: crl, signingKey: "revocation/keys/good-leaf.key.pem")
        let genuine = try CertificateForge.reissue(Kit.goodLeaf, ocspURL: ocsp, crlURL: crl, signingKey: "keys/ecdsa/intermediate.key.pem")

        let forgedEvaluation = await (try Kit.trust(forged, options: [])).evaluate(fetchingWith: http, cache: nil)
        XCTAssertTrue(failureSummary(forgedEvaluation).contains("0:signatureInvalid"), "\(forgedEvaluation)")

        // Correctly signed, but for another host, or expired at the verify date: not valid either.
        let wrongHost = try Kit.trust(genuine, options: [])
        wrongHost.policies = [.ssl(server: true, hostname: "api.swifttrust.test"), .revocation([])]
        let wrongHostEvaluation = await wrongHost.evaluate(fetchingWith: http, cache: nil)
        XCTAssertTrue(failureSummary(wrongHostEvaluation).contains("0:hostnameMismatch"), "\(wrongHostEvaluation)")
        let expired = try Kit.trust(genuine, options: [])
        expired.verifyDate = Date(timeIntervalSince1970: 4_102_444_800) // 2100-01-01
        let expiredEvaluation = await expired.evaluate(fetchingWith: http, cache: nil)
        XCTAssertTrue(failureSummary(expiredEvaluation).contains("0:expired"), "\(expiredEvaluation)")

        // Hard fail too: "revocation unavailable" on top of another failure is no reason to fetch.
        let hard = await (try Kit.trust(forged, options: [.requirePositiveResponse], crls: ["root-empty"])).evaluate(fetchingWith: http, cache: nil)
        XCTAssertFalse(hard.isTrusted)

        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertEqual(server.requestCount, 0, "requests made for invalid chains: \(server.errorText)")

        // Control: the same URLs in a chain that is valid apart from revocation are fetched.
        let valid = await (try Kit.trust(genuine, options: [])).evaluate(fetchingWith: http, cache: nil)
        assertTrusted(valid)
        XCTAssertEqual(Kit.status(valid, 0), .good(source: .fetchedCRL(url: crl)))
        XCTAssertTrue(server.waitForLines(containing: "GET /intermediate-current.crl", count: 1, seconds: 3), server.errorText)
        XCTAssertEqual(server.lines(containing: "\"POST /ocsp"), 1, "the OCSP responder was asked first: " + server.errorText)
    }

    func testHardFailWithOnlyUnavailableStatusesStillFetches() async throws {
        // Failing only because revocation status is unavailable is "valid apart from revocation".
        let fetcher = RecordingFetcher(crls: [Kit.crlURL: try TestCertificates.bytes("revocation/intermediate-current.crl")])
        let trust = try Kit.trust(Kit.goodLeaf, options: [.crl, .requirePositiveResponse], crls: ["root-empty"])
        assertNotTrusted(trust.evaluate(), .recoverableTrustFailure, failures: ["0:revocationUnavailable"])
        assertTrusted(await trust.evaluate(fetchingWith: fetcher, cache: nil))
        XCTAssertEqual(fetcher.calls.map(\.url), [Kit.crlURL])
    }

    // MARK: Fetched documents that fail verification

    func testFetchedCRLFailingVerificationIsNotFatalEvenBesideGoodOCSP() async throws {
        // The CRL is tried first (preferCRL), fails its signature check, and OCSP then proves good.
        let fetcher = RecordingFetcher(
            crls: [Kit.crlURL: try TestCertificates.bytes("revocation/intermediate-wrong-signer.crl")],
            ocsp: [Kit.ocspURL: try TestCertificates.bytes("revocation/good-leaf-good.ocsp")])
        let trust = try Kit.trust(Kit.goodLeaf, options: [.preferCRL, .requirePositiveResponse], crls: ["root-empty"])
        let evaluation = await trust.evaluate(fetchingWith: fetcher, cache: nil)
        assertTrusted(evaluation)
        XCTAssertEqual(fetcher.calls.map(\.kind), ["crl", "ocsp"])
        XCTAssertEqual(Kit.status(evaluation, 0), .good(source: .fetchedOCSP(url: Kit.ocspURL)))
        // Reported: the status of the leaf names the rejected CRL and why.
        let notes = evaluation.revocationStatuses.first { $0.index == 0 }?.notes ?? []
        XCTAssertTrue(notes.contains { $0.contains("CRL \(Kit.crlURL) ignored") && $0.contains("signature") }, "\(notes)")
        // The same CRL supplied by the caller still fails closed.
        trust.setCRLs([try Kit.crl("root-empty"), try Kit.crl("intermediate-wrong-signer")])
        assertNotTrusted(await trust.evaluate(fetchingWith: fetcher, cache: nil), .fatalTrustFailure, failures: ["0:revocationInformationInvalid"])
    }

    func testFetchedOCSPResponseFailingVerificationIsNoInformation() async throws {
        // Signed by a certificate without id-kp-OCSPSigning: ignored, the CRL decides.
        let fetcher = RecordingFetcher(
            crls: [Kit.crlURL: try TestCertificates.bytes("revocation/intermediate-current.crl")],
            ocsp: [Kit.ocspURL: try TestCertificates.bytes("revocation/good-leaf-unauthorised.ocsp")])
        let evaluation = await (try Kit.trust(Kit.goodLeaf, options: [.requirePositiveResponse], crls: ["root-empty"]))
            .evaluate(fetchingWith: fetcher, cache: nil)
        assertTrusted(evaluation)
        XCTAssertEqual(fetcher.calls.map(\.kind), ["ocsp", "crl"])
        XCTAssertEqual(Kit.status(evaluation, 0), .good(source: .fetchedCRL(url: Kit.crlURL)))
        let notes = evaluation.revocationStatuses.first { $0.index == 0 }?.notes ?? []
        XCTAssertTrue(notes.contains { $0.contains("OCSP \(Kit.ocspURL) ignored") && $0.contains("OCSPSigning") }, "\(notes)")
    }

    // MARK: What is kept on the trust

    func testReusedTrustKeepsOneAnswerPerURL() async throws {
        // A verified response that answers "unknown": every fetching evaluation asks again. What the
        // trust keeps is replaced per URL, not accumulated.
        let unknown = try OCSPForge.resign("good-leaf-good") { data in data[2][0][1] = .primitive(0x82, []) }
        let fetcher = RecordingFetcher(ocsp: [Kit.ocspURL: unknown.derEncoded])
        let trust = try Kit.trust(Kit.goodLeaf, options: [.ocsp])
        for round in 1...4 {
            let evaluation = await trust.evaluate(fetchingWith: fetcher, cache: nil)
            XCTAssertEqual(fetcher.calls.count, round)
            let notes = Kit.notes(Kit.status(evaluation, 0)).filter { $0.contains("does not know") }
            XCTAssertEqual(notes.count, 1, "round \(round): \(notes)")
        }
        // The synchronous evaluation sees the kept answer once as well.
        XCTAssertEqual(Kit.notes(Kit.status(trust.evaluate(), 0)).filter { $0.contains("does not know") }.count, 1)
    }

    func testConcurrentFetchingEvaluationsOfOneTrustAgree() async throws {
        let fetcher = RecordingFetcher(ocsp: [Kit.ocspURL: try TestCertificates.bytes("revocation/revoked-leaf-revoked.ocsp")])
        let trust = try Kit.trust(Kit.revokedLeaf, options: [.ocsp])
        let summaries = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<16 { group.addTask { failureSummary(await trust.evaluate(fetchingWith: fetcher, cache: nil)) } }
            return await group.reduce(into: [[String]]()) { $0.append($1) }
        }
        XCTAssertEqual(summaries.count, 16)
        XCTAssertTrue(summaries.allSatisfy { $0 == ["0:revoked"] }, "\(summaries)")
        XCTAssertEqual(failureSummary(trust.evaluate()), ["0:revoked"])
    }
}
