import Foundation
import OpenSSLServerSupport
@testable import TrustCore
import TrustDER
import TrustTestSupport
import TrustX509
import XCTest

/// Issue 43, item 1: a nameConstraints otherName base whose value lacks its `[0] EXPLICIT` wrapper
/// (``OtherNameConstraintFixtures``, from scripts/generate-othername-constraint-certificates) is
/// read as Apple reads it, recorded as an ``EncodingFinding``, and judged by its criticality as
/// Apple judges it:
///
/// - Apple's `parseGeneralSubtrees` (SecCertificate.c) keeps each base undecoded, so the extension
///   parses critical or not; trustd's nameconstraints.c never decodes an otherName (it compares
///   rfc822Name, dNSName, directoryName, URI and iPAddress bases only).
/// - A trusted anchor's subtrees seed the state without `SecNameConstraintsAreSubtreesSupported`
///   (SecPolicyCheckBasicCertificateProcessing), so a critical one on the anchor is trusted too.
/// - An intermediate's critical extension with an otherName base fails
///   `kSecPolicyCheckNameConstraints` (`!SecNameConstraintsAreSubtreesSupported && critical`):
///   ``ProfileRule/nameConstraintsFormsSupported``, the same verdict as for a well-formed otherName.
final class OtherNameConstraintEncodingTests: XCTestCase {
    private let host = TestCertificates.host
    /// Microsoft's user principal name, the otherName type of the constraint.
    private let upn = ASN1ObjectIdentifier(dotted: "1.3.6.1.4.1.311.20.2.3")

    /// `leaf` and `intermediates` (of the fixtures) under `anchor` (of the fixtures, or the corpus's
    /// ECDSA root with `corpusAnchor`), for `host` under `profile` (nil: Apple's SSL policy), at the
    /// corpus's verify date.
    private func trust(
        _ leaf: String, intermediates: [String] = [], anchor: String? = nil, host: String? = nil,
        profile: TrustProfile? = nil
    ) throws -> ServerTrust {
        let host = host ?? self.host
        let policy: TrustPolicy = profile.map { .profile($0, purpose: .serverAuth, hostname: host) } ?? .ssl(server: true, hostname: host)
        let trust = ServerTrust(certificates: try ([leaf] + intermediates).map(OtherNameConstraintFixtures.certificate), policies: [policy])
        trust.setAnchorCertificates([try anchor.map(OtherNameConstraintFixtures.certificate) ?? TestCertificates.certificate("ecdsa/root.pem")])
        trust.verifyDate = TestCertificates.verifyDate
        return trust
    }

    func testTheConstraintParsesWithTheUnwrappedValueAsItsValueAndAFinding() throws {
        let root = try OtherNameConstraintFixtures.certificate("root.pem")
        let upn = try XCTUnwrap(upn)
        // The value as the certificate holds it: UTF8String "swifttrust.test" right after the OID.
        let value: [UInt8] = [0x0C, 0x0F] + Array("swifttrust.test".utf8)
        XCTAssertEqual(root.extensions.nameConstraints?.permittedSubtrees.count, 2)
        guard case let .otherName(typeID, read)? = root.extensions.nameConstraints?.permittedSubtrees.first else {
            return XCTFail("\(String(describing: root.extensions.nameConstraints))")
        }
        XCTAssertEqual(typeID, upn)
        XCTAssertEqual(Array(read), value)
        XCTAssertEqual(root.extensions.nameConstraints?.permittedSubtrees.last, .dnsName("swifttrust.test"))
        XCTAssertEqual(root.extensions.criticality(of: .nameConstraints), false)
        // The finding points at the value: the UTF8String that follows the type-id's encoding.
        let oid: [UInt8] = [0x06, 0x0A, 0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x14, 0x02, 0x03]
        let der = root.derEncoded
        let start = try XCTUnwrap(
            (0...(der.count - oid.count - value.count)).first {
                Array(der[$0..<($0 + oid.count + value.count)]) == oid + value
            })
        XCTAssertEqual(root.encodingFindings, [.unwrappedOtherNameValue(offset: start + oid.count)])
        XCTAssertFalse(root.encodingFindings[0].isDefaultValueWrittenOut)
        XCTAssertEqual(root.semanticDefects, [])
        XCTAssertTrue(root.encodingFindings[0].description.contains("[0] EXPLICIT"), root.encodingFindings[0].description)
    }

    func testAWellFormedOtherNameConstraintHasNoFinding() throws {
        // The same constraint with the wrapper (A0 11 { UTF8String }): no finding, the same value.
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let utf8: [UInt8] = [0x0C, 0x0F] + Array("swifttrust.test".utf8)
        let otherName: [UInt8] = [0xA0, 0x1F, 0x06, 0x0A, 0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x14, 0x02, 0x03, 0xA0, 0x11] + utf8
        let constraints: [UInt8] = [0x30, 0x25, 0xA0, 0x23, 0x30, 0x21] + otherName
        let hex = constraints.map { String(format: "%02x", $0) }.joined(separator: ":")
        let ca = try issuer.issue(
            commonName: "Wrapped otherName CA",
            extensions: [
                "basicConstraints = critical, CA:TRUE", "keyUsage = critical, keyCertSign, cRLSign",
                "nameConstraints = DER:\(hex)", "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid",
            ], by: .root, key: "keys/ecdsa/intermediate2.key.pem"
        ).certificate
        XCTAssertEqual(ca.encodingFindings, [])
        guard case let .otherName(_, value)? = ca.extensions.nameConstraints?.permittedSubtrees.first else {
            return XCTFail("\(String(describing: ca.extensions.nameConstraints))")
        }
        XCTAssertEqual(Array(value), utf8)
    }

    func testANonCriticalConstraintOnTheAnchorIsTrustedAndStillConstrainsDNSNames() throws {
        assertTrusted(try trust("leaf.pem", anchor: "root.pem").evaluate())
        // The dNSName subtree beside the otherName one still applies.
        let outside = try trust("leaf-outside.pem", anchor: "root.pem", host: "www.example.org").evaluate()
        XCTAssertFalse(outside.isTrusted)
        XCTAssertEqual(failureSummary(outside), ["0:nameConstraintViolation"])
    }

    func testACriticalConstraintOnTheAnchorIsTrustedAsAppleTrustsIt() throws {
        // The anchor's constraints seed Apple's state unasked; its otherName base constrains only
        // otherName names, and the leaf has none.
        let root = try OtherNameConstraintFixtures.certificate("critical-root.pem")
        XCTAssertEqual(root.extensions.criticality(of: .nameConstraints), true)
        XCTAssertEqual(root.encodingFindings.count, 1)
        for profile in [TrustProfile.ssl, .basicX509, .webPKI, .rfc5280, .rfc5280Strict] {
            assertTrusted(try trust("critical-leaf.pem", anchor: "critical-root.pem", profile: profile).evaluate())
        }
        assertTrusted(try trust("critical-leaf.pem", anchor: "critical-root.pem").evaluate())
    }

    func testACriticalConstraintOnAnIntermediateFailsAsApplesSubtreesSupportedFailsIt() throws {
        let intermediate = try OtherNameConstraintFixtures.certificate("intermediate.pem")
        XCTAssertEqual(intermediate.encodingFindings.count, 1)
        for profile in [TrustProfile.ssl, .basicX509, .webPKI] {
            let evaluation = try trust(
                "intermediate-leaf.pem", intermediates: ["intermediate.pem"],
                profile: profile
            ).evaluate()
            XCTAssertFalse(evaluation.isTrusted, "\(profile)")
            let violations = evaluation.failures.compactMap { failure -> ProfileViolation? in
                if case let .profileViolation(violation) = failure.reason, failure.certificateIndex == 1 { violation } else { nil }
            }
            XCTAssertEqual(
                violations, [ProfileViolation(.nameConstraintsFormsSupported, .unsupportedCriticalNameConstraint(form: "otherName"))],
                "\(profile): \(evaluation.failures)")
        }
        // RFC 5280 itself asks only that a name of the form be processed or refused (§4.2.1.10): the
        // leaf has none, so the rfc5280 profile trusts the chain.
        assertTrusted(
            try trust(
                "intermediate-leaf.pem", intermediates: ["intermediate.pem"],
                profile: .rfc5280
            ).evaluate())
    }

    func testAnOtherNameWithoutWrapperStaysRefusedOutsideNameConstraints() throws {
        // subjectAltName: GeneralNames { otherName { UPN, UTF8String } } without the wrapper. Only the
        // nameConstraints reading is lenient (Apple's reason there: its subtree bases are never decoded).
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let utf8: [UInt8] = [0x0C, 0x0F] + Array("swifttrust.test".utf8)
        let san: [UInt8] = [0x30, 0x1F, 0xA0, 0x1D, 0x06, 0x0A, 0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x14, 0x02, 0x03] + utf8
        let hex = san.map { String(format: "%02x", $0) }.joined(separator: ":")
        XCTAssertThrowsError(
            try issuer.issue(
                commonName: host,
                extensions: [
                    "basicConstraints = critical, CA:FALSE", "subjectAltName = DER:\(hex)",
                ])
        ) { error in
            guard let error = error as? X509Error, case .malformedExtension(name: "subjectAltName", _, _) = error.reason else {
                return XCTFail("\(error)")
            }
        }
    }
}
