import Foundation
@testable import TrustCore
@testable import TrustDiagnostics
import TrustDER
import TrustX509
import OpenSSLServerSupport
import TrustTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 18, linear time: for each dimension of hostile input, doubling the input at most doubles the
/// work (docs/robustness.md has the table). Work is counted, not timed, wherever our code does it:
/// ``WorkCounter`` steps (index lookups, candidate handling, and everything drawn from the
/// ``VerificationBudget``, e.g. one name-constraint comparison per name and subtree). Parsing is done
/// in TrustDER / TrustX509, which count nothing; there the work is this thread's CPU time (not
/// wall time), the least of several runs, since this machine offers no instruction counter.
///
/// Every input is generated here: certificates re-encoded from TestCertificates/ (signatures then no
/// longer verify, which is irrelevant to the work measured) or issued with the openssl CLI.
final class LinearWorkTests: XCTestCase {
    /// Doubling the input: the work must not grow faster than this (linear: 2, quadratic: 4).
    private static let countedGrowthLimit = 2.5
    /// CPU time is noisier than a count (a loaded machine measured 3.4 for a doubling), so timed
    /// dimensions quadruple their input: linear grows 4×, quadratic 16×; this limit sits between.
    private static let timedGrowthLimit = 8.0

    private func cert(_ path: String) throws -> Certificate { try TestCertificates.certificate(path) }
    private func root() throws -> Certificate { try cert("ecdsa/root.pem") }

    // MARK: - Measuring

    private func steps(_ body: () throws -> Void) rethrows -> Int {
        let counter = WorkCounter()
        try counter.counting { try body() }
        return counter.steps
    }

    /// This thread's CPU time for `small` and for `large`, each the least of seven runs, the runs
    /// interleaved so that a burst of load on the machine hits both alike.
    private func cpuSeconds(_ small: () throws -> Void, _ large: () throws -> Void) rethrows -> (small: Double, large: Double) {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        func measure(_ body: () throws -> Void) rethrows -> Double {
            let start = now()
            try body()
            return now() - start
        }
        var best = (small: Double.infinity, large: Double.infinity)
        for _ in 0..<7 {
            best.small = min(best.small, try measure(small))
            best.large = min(best.large, try measure(large))
        }
        return best
    }

    /// Work grew with the input (so the dimension is really measured) but by at most `limit`.
    private func assertGrowth(
        _ small: Double, _ large: Double, limit: Double, _ dimension: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertGreaterThan(small, 0, dimension, file: file, line: line)
        XCTAssertGreaterThan(large, small, "\(dimension): the work does not depend on the input", file: file, line: line)
        XCTAssertLessThanOrEqual(
            large / small, limit, "\(dimension): growing the input multiplied the work by \(large / small)",
            file: file, line: line)
    }

    // MARK: - Inputs

    private static func fillerName(_ index: Int) -> [UInt8] {
        TestDER.printableName([(TestDER.organizationName, "SwiftTrust"), (TestDER.commonName, "filler \(index)")])
    }

    /// `count` certificates in the wrong order, as scripts/generate-wrong-order-chain writes them: the
    /// leaf's issuer, a ladder of fillers ("filler i" issued by "filler i+1", the lowest carrying the
    /// issuer's name) from its top down, and the leaf last.
    private func wrongOrderChain(_ count: Int) throws -> [Certificate] {
        let intermediate = try cert("ecdsa/intermediate.pem")
        let template = EditableCertificate(intermediate)
        let ladder = try (0..<(count - 2)).map { index in
            var rung = template
            rung.setSerial(UInt32(index + 1))
            if index > 0 { rung.subject = LinearWorkTests.fillerName(index) }
            rung.issuer = LinearWorkTests.fillerName(index + 1)
            return try rung.parse()
        }
        return [intermediate] + ladder.reversed() + [try cert("ecdsa/leaf.pem")]
    }

    /// DER content octets of the OID 1.3.6.1.4.1.55555.`arc`.
    private static func privateOID(_ arc: Int) -> [UInt8] {
        var tail: [UInt8] = [UInt8(arc & 0x7F)]
        var rest = arc >> 7
        while rest > 0 {
            tail.insert(UInt8(0x80 | (rest & 0x7F)), at: 0)
            rest >>= 7
        }
        return [0x2B, 0x06, 0x01, 0x04, 0x01, 0x83, 0xB2, 0x03] + tail
    }

    /// The ECDSA leaf with `count` more (unknown, non-critical) extensions.
    private func leaf(withExtraExtensions count: Int) throws -> Certificate {
        var leaf = EditableCertificate(try cert("ecdsa/leaf.pem"))
        let last = leaf.fields.count - 1
        let wrapper = TestDER.element(in: ArraySlice(leaf.fields[last]), at: 0)
        XCTAssertEqual(wrapper.tag, 0xA3)
        let existing = TestDER.children(TestDER.element(in: wrapper.content, at: wrapper.content.startIndex).content)
        let extra = (0..<count).map { TestDER.sequence([TestDER.tlv(0x06, LinearWorkTests.privateOID($0)), TestDER.tlv(0x04, [])]) }
        leaf.fields[last] = TestDER.tlv(0xA3, TestDER.sequence(existing.map { Array($0.encoded) } + extra))
        return try leaf.parse()
    }

    /// The ECDSA leaf with a subject of `count` single-attribute RDNs.
    private func leaf(withSubjectRDNs count: Int) throws -> Certificate {
        var leaf = EditableCertificate(try cert("ecdsa/leaf.pem"))
        leaf.subject = TestDER.printableName((0..<count).map { (TestDER.commonName, "n\($0)") })
        return try leaf.parse()
    }

    /// A v2 CRL of the ECDSA intermediate listing `count` serial numbers (unsigned: parsing is measured).
    private func crlDER(entries count: Int) throws -> [UInt8] {
        let intermediate = EditableCertificate(try cert("ecdsa/intermediate.pem"))
        let time = TestDER.tlv(0x17, Array("260101000000Z".utf8))
        let revoked = (0..<count).map { (index: Int) -> [UInt8] in
            let serial: [UInt8] = [
                0x01, UInt8(truncatingIfNeeded: index >> 16), UInt8(truncatingIfNeeded: index >> 8),
                UInt8(truncatingIfNeeded: index),
            ]
            return TestDER.sequence([TestDER.tlv(0x02, serial), time])
        }
        let tbs = TestDER.sequence([
            TestDER.tlv(0x02, [0x01]), intermediate.signatureAlgorithm, intermediate.subject, time,
            TestDER.tlv(0x17, Array("270101000000Z".utf8)), TestDER.sequence(revoked),
        ])
        return TestDER.sequence([tbs, intermediate.signatureAlgorithm, TestDER.tlv(0x03, [0x00, 0x30, 0x00])])
    }

    // MARK: - Presented certificates

    func testLeafOrderingIsLinearInThePresentedCertificates() throws {
        let small = try wrongOrderChain(1000), large = try wrongOrderChain(2000)
        var ordered: [Certificate] = []
        let smallSteps = steps { ordered = LeafOrdering.leafFirst(small, limit: .max) }
        XCTAssertEqual(ordered.first, try cert("ecdsa/leaf.pem"))
        let largeSteps = steps { ordered = LeafOrdering.leafFirst(large, limit: .max) }
        XCTAssertEqual(ordered.first, try cert("ecdsa/leaf.pem"))
        XCTAssertEqual(ordered.count, 2000)
        assertGrowth(Double(smallSteps), Double(largeSteps), limit: LinearWorkTests.countedGrowthLimit, "presented certificates (ordering)")
    }

    func testChainDiagnosticsAreLinearInThePresentedCertificates() throws {
        // What `trustctl chain` does with a file: reorder, evaluate, explain. Within the cap.
        func explain(_ received: [Certificate]) throws -> ChainDiagnostics {
            let trust = ServerTrust(certificates: LeafOrdering.leafFirst(received), policies: [.ssl(server: true, hostname: TestCertificates.host)])
            trust.setAnchorCertificates([try root()])
            trust.verifyDate = TestCertificates.verifyDate
            return ChainDiagnostics(trust: trust, host: TestCertificates.host, verifyDate: TestCertificates.verifyDate, asReceived: received)
        }
        let small = try wrongOrderChain(120), large = try wrongOrderChain(240)
        var diagnostics: ChainDiagnostics?
        let smallSteps = try steps { diagnostics = try explain(small) }
        XCTAssertEqual(diagnostics?.trusted, true)
        let largeSteps = try steps { diagnostics = try explain(large) }
        XCTAssertEqual(diagnostics?.trusted, true)
        XCTAssertEqual(diagnostics?.presented.count, 240)
        assertGrowth(Double(smallSteps), Double(largeSteps), limit: LinearWorkTests.countedGrowthLimit, "presented certificates (diagnostics)")
    }

    func testMoreCertificatesThanTheCapAreRejectedWithTheirOwnReason() throws {
        let limit = VerificationBudget.default.maximumPresentedCertificates
        let atTheCap = try wrongOrderChain(limit)
        let trust = ServerTrust(certificates: LeafOrdering.leafFirst(atTheCap), policies: [.ssl(server: true, hostname: TestCertificates.host)])
        trust.setAnchorCertificates([try root()])
        trust.verifyDate = TestCertificates.verifyDate
        assertTrusted(trust.evaluate())

        let overTheCap = try wrongOrderChain(limit + 1)
        // Beyond the cap the order is left alone: an evaluation rejects the list whatever its order.
        XCTAssertEqual(LeafOrdering.leafFirst(overTheCap), overTheCap)
        let rejected = ServerTrust(certificates: overTheCap, policies: [.ssl(server: true, hostname: TestCertificates.host)])
        rejected.setAnchorCertificates([try root()])
        rejected.verifyDate = TestCertificates.verifyDate
        let evaluation = rejected.evaluate()
        XCTAssertEqual(evaluation.failures.map(\.reason), [.tooManyCertificates(presented: limit + 1, limit: limit)])
        XCTAssertEqual(evaluation.result, .fatalTrustFailure)
        XCTAssertEqual(evaluation.signatureChecks, 0)
        let diagnostics = ChainDiagnostics(trust: rejected, host: TestCertificates.host, verifyDate: TestCertificates.verifyDate)
        XCTAssertEqual(diagnostics.findings.map(\.code), ["too-many-certificates"])

        // The cap is the budget's: a caller can raise it.
        rejected.options.budget = VerificationBudget(maximumPresentedCertificates: limit + 1)
        XCTAssertFalse(rejected.evaluate().failures.contains { if case .tooManyCertificates = $0.reason { true } else { false } })
    }

    // MARK: - Pool size

    func testPathBuildingIsLinearInThePoolOfAnchorsAndIntermediates() throws {
        // `count` anchors and `count` intermediates named as the leaf's issuer (another key, another
        // key identifier), and the genuine intermediate last.
        var work: [Double] = []
        func evaluate(_ count: Int) throws -> TrustEvaluation {
            let leafIssuer = EditableCertificate(try cert("ecdsa/leaf.pem")).issuer
            var template = EditableCertificate(try cert("ecdsa/intermediate2.pem"))
            template.subject = leafIssuer
            let pool = try (0..<(2 * count)).map { index in
                var copy = template
                copy.setSerial(UInt32(index))
                return try copy.parse()
            }
            let trust = try TestCertificates.trust(["ecdsa/leaf.pem"])
            trust.setAnchorCertificates([try root()] + pool.prefix(count))
            trust.additionalIntermediates = pool.suffix(count) + [try cert("ecdsa/intermediate.pem")]
            var evaluation: TrustEvaluation?
            work.append(Double(steps { evaluation = trust.evaluate() }))
            return try XCTUnwrap(evaluation)
        }
        assertTrusted(try evaluate(500))
        assertTrusted(try evaluate(1000))
        assertGrowth(work[0], work[1], limit: LinearWorkTests.countedGrowthLimit, "anchor and intermediate pool")
    }

    // MARK: - Names and name constraints (counted comparisons)

    /// Steps to evaluate a leaf with `sans` DNS names under a CA with `subtrees` permitted DNS subtrees.
    private func nameConstraintWork(sans: Int, subtrees: Int, issuer: inout OpenSSLIssuer) throws -> Double {
        let constraints = (0..<subtrees).map { $0 == 0 ? "permitted;DNS:swifttrust.test" : "permitted;DNS:zone\($0).example" }
        let ca = try issuer.issue(
            commonName: "Constrained CA \(sans) \(subtrees)",
            extensions: OpenSSLIssuer.constrainedCAExtensions(constraints.joined(separator: ", ")),
            by: .root, key: "keys/ecdsa/intermediate2.key.pem")
        let leaf = try issuer.issue(
            commonName: "leaf",
            extensions: OpenSSLIssuer.leafExtensions(
                subjectAltNames: (0..<sans).map { "DNS:host\($0).swifttrust.test" }), by: ca.authority
        ).certificate
        let trust = try OpenSSLIssuer.trust(leaf, intermediates: [ca.certificate], policies: [.ssl(server: true, hostname: nil)])
        var evaluation: TrustEvaluation?
        let counted = steps { evaluation = trust.evaluate() }
        assertTrusted(try XCTUnwrap(evaluation))
        return Double(counted)
    }

    func testNameConstraintWorkIsLinearInTheSANs() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let small = try nameConstraintWork(sans: 200, subtrees: 4, issuer: &issuer)
        let large = try nameConstraintWork(sans: 400, subtrees: 4, issuer: &issuer)
        assertGrowth(small, large, limit: LinearWorkTests.countedGrowthLimit, "subjectAltName entries")
    }

    func testNameConstraintWorkIsLinearInTheSubtrees() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let small = try nameConstraintWork(sans: 4, subtrees: 200, issuer: &issuer)
        let large = try nameConstraintWork(sans: 4, subtrees: 400, issuer: &issuer)
        assertGrowth(small, large, limit: LinearWorkTests.countedGrowthLimit, "name-constraint subtrees")
    }

    // MARK: - Parsing dimensions (CPU time)

    /// Parsing `der` and evaluating it as the leaf of the ECDSA chain.
    private func parseAndEvaluate(_ der: [UInt8]) throws {
        let leaf = try Certificate(derEncoded: der)
        let trust = ServerTrust(
            certificates: [leaf, try cert("ecdsa/intermediate.pem")], policies: [.ssl(server: true, hostname: TestCertificates.host)])
        trust.setAnchorCertificates([try root()])
        trust.verifyDate = TestCertificates.verifyDate
        XCTAssertFalse(trust.evaluate().isTrusted) // re-encoded: its signature no longer verifies
    }

    func testCertificateWorkIsLinearInTheExtensions() throws {
        let small = try leaf(withExtraExtensions: 1000).derEncoded, large = try leaf(withExtraExtensions: 4000).derEncoded
        let time = try cpuSeconds({ try parseAndEvaluate(small) }, { try parseAndEvaluate(large) })
        assertGrowth(time.small, time.large, limit: LinearWorkTests.timedGrowthLimit, "extensions per certificate (×4)")
    }

    func testCertificateWorkIsLinearInTheSubjectRDNs() throws {
        let small = try leaf(withSubjectRDNs: 1000).derEncoded, large = try leaf(withSubjectRDNs: 4000).derEncoded
        let time = try cpuSeconds({ try parseAndEvaluate(small) }, { try parseAndEvaluate(large) })
        assertGrowth(time.small, time.large, limit: LinearWorkTests.timedGrowthLimit, "RDNs per name (×4)")
    }

    func testCRLWorkIsLinearInTheEntries() throws {
        let small = try crlDER(entries: 5_000), large = try crlDER(entries: 20_000)
        func parseAndLookUp(_ der: [UInt8]) throws {
            let crl = try CertificateRevocationList(derEncoded: der)
            XCTAssertNotNil(crl.entry(forSerialNumber: [0x01, 0x00, 0x00, 0x07]))
            XCTAssertNil(crl.entry(forSerialNumber: [0x02]))
        }
        let time = try cpuSeconds({ try parseAndLookUp(small) }, { try parseAndLookUp(large) })
        assertGrowth(time.small, time.large, limit: LinearWorkTests.timedGrowthLimit, "CRL entries (×4)")
    }
}
