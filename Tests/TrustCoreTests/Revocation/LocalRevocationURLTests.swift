import Foundation
import OpenSSLServerSupport
import TrustCore
import TrustHTTP
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 40 item 3, the decision (docs/revocation.md, "Local addresses"): the CRL and OCSP URLs of
/// a chain that validated to explicit anchors alone may reach a local address when the trust says
/// so (`revocationFetchesMayReachLocalAddresses`); not when the system store may anchor it too, not
/// by default, and never a caIssuers URL. The real HTTP client against a loopback responder.
final class LocalRevocationURLTests: XCTestCase {
    typealias Kit = RevocationKit
    private var responder: LoopbackResponder?

    override func tearDown() {
        responder?.stop()
        responder = nil
        super.tearDown()
    }

    /// Sends every request to `target` through `base`, keeping the base's local-address judgement
    /// (its allowance is asked for through `allowingLocalAddresses()`, as the evaluation asks it).
    struct RoutingFetcher: RevocationFetcher {
        let base: HTTPRevocationFetcher
        let target: String

        func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] { try await base.fetch(request.redirected(to: target)) }
        func fetchIssuerCertificates(from url: String) async throws -> [UInt8] { try await base.fetchIssuerCertificates(from: target) }
        func allowingLocalAddresses() -> any RevocationFetcher {
            RoutingFetcher(base: base.allowing(localAddresses: true), target: target)
        }
    }

    private func serving(_ body: [UInt8]) throws -> (RoutingFetcher, LoopbackResponder) {
        let responder = try LoopbackResponder(.answers(body: body))
        self.responder = responder
        let fetcher = RoutingFetcher(base: HTTPRevocationFetcher(timeout: 3), target: "http://127.0.0.1:\(responder.port)/ca.crl")
        return (fetcher, responder)
    }

    private func isRefusedAsLocal(_ failures: [FetchFailure]) -> Bool {
        failures.contains { if case .localDestinationRefused = $0.reason { true } else { false } }
    }

    func testCRLURLsOfAChainValidatedToExplicitAnchorsAloneMayReachLocalAddresses() async throws {
        let (fetcher, responder) = try serving(try TestCertificates.bytes("revocation/intermediate-current.crl"))
        let trust = try Kit.trust(Kit.goodLeaf, options: [.crl])
        trust.revocationFetchesMayReachLocalAddresses = true
        let evaluation = await trust.evaluate(fetchingWith: fetcher, cache: nil)
        XCTAssertEqual(Kit.status(evaluation, 0), .good(source: .fetchedCRL(url: Kit.crlURL)), "\(evaluation.fetchFailures)")
        XCTAssertEqual(responder.accepted, 1)
    }

    func testNotWithoutTheAllowanceNorWhenTheSystemStoreMayAnchorTheChain() async throws {
        let (fetcher, responder) = try serving(try TestCertificates.bytes("revocation/intermediate-current.crl"))
        let byDefault = await (try Kit.trust(Kit.goodLeaf, options: [.crl])).evaluate(fetchingWith: fetcher, cache: nil)
        XCTAssertTrue(isRefusedAsLocal(byDefault.fetchFailures), "\(byDefault.fetchFailures)")

        let alsoSystem = try Kit.trust(Kit.goodLeaf, options: [.crl])
        alsoSystem.revocationFetchesMayReachLocalAddresses = true
        alsoSystem.anchorsOnly = false
        let evaluation = await alsoSystem.evaluate(fetchingWith: fetcher, cache: nil)
        XCTAssertTrue(Kit.isUnknown(Kit.status(evaluation, 0)))
        XCTAssertTrue(isRefusedAsLocal(evaluation.fetchFailures), "\(evaluation.fetchFailures)")
        XCTAssertEqual(responder.accepted, 0)
    }

    func testCAIssuersURLsNeverGetTheAllowance() async throws {
        let (fetcher, responder) = try serving(Array(try TestCertificates.certificate("ecdsa/intermediate.pem").derEncoded))
        let trust = ServerTrust(
            certificates: try TestCertificates.certificates("ecdsa/leaf.pem"), policies: [.ssl(server: true, hostname: TestCertificates.host)])
        trust.setAnchorCertificates(try TestCertificates.certificates("ecdsa/root.pem"))
        trust.verifyDate = TestCertificates.verifyDate
        trust.revocationFetchesMayReachLocalAddresses = true
        let evaluation = await trust.evaluate(fetchingWith: fetcher, cache: nil)
        XCTAssertFalse(evaluation.isTrusted)
        XCTAssertEqual(evaluation.fetchFailures.map(\.purpose), [.caIssuers])
        XCTAssertTrue(isRefusedAsLocal(evaluation.fetchFailures), "\(evaluation.fetchFailures)")
        XCTAssertEqual(trust.fetchFailures, evaluation.fetchFailures, "kept on the trust")
        XCTAssertEqual(responder.accepted, 0)
    }
}
