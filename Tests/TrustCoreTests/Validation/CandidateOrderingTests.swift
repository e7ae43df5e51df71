import Foundation
@testable import TrustCore
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 18, budgets: look-alike issuers (the genuine intermediate's subject and subjectKeyIdentifier,
/// another key) sent ahead of the genuine one. The builder spends signature checks only where cheap
/// evidence cannot tell the candidates apart, and what the default budget allows is exact:
/// docs/robustness.md.
final class CandidateOrderingTests: XCTestCase {
    private func cert(_ path: String) throws -> Certificate { try TestCertificates.certificate(path) }

    /// `count` look-alikes of ecdsa/intermediate.pem: its subject and subjectKeyIdentifier, intermediate
    /// 2's key (or the keys in `keys`, SubjectPublicKeyInfo DER, one per look-alike), optionally
    /// expired long before the verify date. The leaf's signature does not verify under any of them.
    private func lookAlikes(_ count: Int, keys: [[UInt8]]? = nil, expired: Bool = false) throws -> [Certificate] {
        let genuine = try cert("ecdsa/intermediate.pem")
        let other = try cert("ecdsa/intermediate2.pem")
        let genuineSKI = try XCTUnwrap(genuine.extensions.subjectKeyIdentifier?.keyIdentifier)
        let otherSKI = try XCTUnwrap(other.extensions.subjectKeyIdentifier?.keyIdentifier)
        XCTAssertEqual(genuineSKI.count, otherSKI.count)
        // Intermediate 2 with the genuine intermediate's key identifier (same length: a byte substitution).
        var der = other.derEncoded
        let start = try XCTUnwrap(der.indices.first { der[$0...].starts(with: otherSKI) })
        der.replaceSubrange(start..<(start + otherSKI.count), with: genuineSKI)
        var template = EditableCertificate(try Certificate(derEncoded: der))
        template.subject = EditableCertificate(genuine).subject
        let spkiIndex = template.serialIndex + 5
        return try (0..<count).map { index in
            var copy = template
            copy.setSerial(UInt32(index))
            if let keys { copy.fields[spkiIndex] = keys[index] }
            if expired {
                // Validity 2001-01-01 … 2002-01-01 (UTCTime).
                copy.fields[template.serialIndex + 3] = TestDER.sequence([
                    TestDER.tlv(0x17, Array("010101000000Z".utf8)), TestDER.tlv(0x17, Array("020101000000Z".utf8)),
                ])
            }
            let certificate = try copy.parse()
            XCTAssertEqual(certificate.extensions.subjectKeyIdentifier?.keyIdentifier, genuineSKI)
            return certificate
        }
    }

    /// `count` distinct P-256 public keys (SubjectPublicKeyInfo DER), generated with the openssl CLI.
    private func freshKeys(_ count: Int) throws -> [[UInt8]] {
        guard let openssl = OpenSSLVerifyDifferentialTests.opensslPath else { throw XCTSkip("openssl is not installed") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lookalike-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = """
            for i in $(seq 1 \(count)); do
              "\(openssl)" ecparam -name prime256v1 -genkey -noout -out "\(directory.path)/k$i.pem" &&
              "\(openssl)" pkey -in "\(directory.path)/k$i.pem" -pubout -outform DER -out "\(directory.path)/p$i.der" || exit 1
            done
            """
        let run = try OpenSSLVerifyDifferentialTests.run("/bin/sh", ["-c", script])
        XCTAssertEqual(run.status, 0, run.output)
        return try (1...count).map { [UInt8](try Data(contentsOf: directory.appendingPathComponent("p\($0).der"))) }
    }

    /// The leaf alone, with `pool` then the genuine intermediate as the intermediates to build from.
    private func trust(lookAlikesFirst pool: [Certificate]) throws -> ServerTrust {
        let trust = try TestCertificates.trust(["ecdsa/leaf.pem"])
        trust.additionalIntermediates = pool + [try cert("ecdsa/intermediate.pem")]
        return trust
    }

    func testLookAlikesSharingOneWrongKeyCostOneSignatureCheck() throws {
        // 150 ahead of the genuine issuer: before, each cost a signature check and the default budget
        // (100) ran out first. The first one's failure decides the other 149 (same key, same leaf).
        let evaluation = try trust(lookAlikesFirst: try lookAlikes(150)).evaluate()
        assertTrusted(evaluation, chain: [try cert("ecdsa/leaf.pem"), try cert("ecdsa/intermediate.pem"), try cert("ecdsa/root.pem")])
        XCTAssertEqual(evaluation.signatureChecks, 3)
        XCTAssertEqual(evaluation.attempts.filter { $0.outcome == .rejectedIssuer }.count, 150)
    }

    func testExpiredLookAlikesAreTriedAfterTheGenuineIssuer() throws {
        // Expired at the verify date, which path validation rejects (RFC 5280 §6.1.3 (a)(2)): the
        // genuine issuer, valid, is the first candidate tried.
        let evaluation = try trust(lookAlikesFirst: try lookAlikes(150, expired: true)).evaluate()
        assertTrusted(evaluation)
        XCTAssertEqual(evaluation.attempts.map(\.outcome), [.valid])
        XCTAssertEqual(evaluation.signatureChecks, 2)
    }

    func testTheDefaultBudgetAllowsNinetyEightIndistinguishableLookAlikesAheadOfTheGenuineIssuer() throws {
        // Valid look-alikes with distinct keys: nothing but a signature check tells them apart. The
        // default 100 checks pay for 98 of them plus the genuine chain's two.
        XCTAssertEqual(VerificationBudget.default.signatureChecks, 100)
        let keys = try freshKeys(99)
        let allowed = try trust(lookAlikesFirst: try lookAlikes(98, keys: keys)).evaluate()
        assertTrusted(allowed)
        XCTAssertEqual(allowed.signatureChecks, 100)

        let tooMany = try trust(lookAlikesFirst: try lookAlikes(99, keys: keys)).evaluate()
        XCTAssertFalse(tooMany.isTrusted)
        XCTAssertEqual(tooMany.result, .fatalTrustFailure)
        // Fail closed, with the reason of its own: the budget, not "untrusted", and not the leaf's
        // signature, which only the look-alikes failed to verify.
        XCTAssertEqual(tooMany.failures.map(\.reason), [.budgetExhausted(resource: .signatureChecks, limit: 100)], "\(tooMany)")
        // The 99 look-alikes and the leaf's genuine issuer used the 100 checks: the search stopped one
        // short of the root, and the chain reported is where it stopped.
        XCTAssertEqual(tooMany.chain, [try cert("ecdsa/leaf.pem"), try cert("ecdsa/intermediate.pem")])
        XCTAssertEqual(tooMany.attempts.last?.outcome, .budgetExhausted)
    }
}
