import Foundation
import TrustCore
import TrustDER
import TrustX509
import OpenSSLServerSupport
import TrustTestSupport
import XCTest

/// RFC 5280 §6.3.3 on CRLs built for each rule (``TestCRLBuilder``) over certificates issued by the
/// openssl CLI (``OpenSSLIssuer``) under the committed ECDSA root and intermediate: CRL scope,
/// serial numbers as integers, directory-name and relative distribution points, CRLs signed by
/// another key of the CA, indirect CRLs, reason-partitioned CRLs, and unusable supplied CRLs.
final class RevocationScopeTests: XCTestCase {
    private var issuer: OpenSSLIssuer!
    private var root: Certificate!
    private var intermediate: Certificate!
    private let rootKey = TestCertificates.path("keys/ecdsa/root.key.pem")
    private let intermediateKey = TestCertificates.path("keys/ecdsa/intermediate.key.pem")
    /// Another key: for separate CRL-signing and indirect CRL issuer certificates.
    private let otherKey = TestCertificates.path("keys/ecdsa/intermediate2.key.pem")

    override func setUpWithError() throws {
        issuer = try OpenSSLIssuer()
        root = try TestCertificates.certificate("ecdsa/root.pem")
        intermediate = try TestCertificates.certificate("ecdsa/intermediate.pem")
    }

    override func tearDown() { issuer?.remove() }

    // MARK: - Helpers

    private static let leafExtensions = [
        "basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature",
        "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid",
    ]

    /// A leaf under the committed intermediate with `distributionPoints` (openssl crlDistributionPoints
    /// syntax; none when empty) and the config `sections` they refer to.
    private func leaf(distributionPoints: String? = nil, sections: [String] = [], serial: String? = nil) throws -> Certificate {
        let extensions = Self.leafExtensions + (distributionPoints.map { ["crlDistributionPoints = \($0)"] } ?? [])
        return try issuer.issue(commonName: "Revocation Scope Leaf", extensions: extensions, serial: serial, sections: sections).certificate
    }

    /// A certificate for `otherKey` issued by the root, with `subject` and cRLSign only.
    private func crlSigner(subject: [String]) throws -> Certificate {
        try issuer.issue(
            commonName: "",
            extensions: [
                "basicConstraints = critical, CA:FALSE", "keyUsage = critical, cRLSign",
                "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid",
            ],
            by: .root, key: "keys/ecdsa/intermediate2.key.pem", subject: subject
        ).certificate
    }

    /// A CRL of the intermediate, signed with its key.
    private func intermediateCRL(_ configure: (inout TestCRLBuilder) -> Void = { _ in }) throws -> CertificateRevocationList {
        var builder = TestCRLBuilder(issuer: intermediate.subject, authorityKeyIdentifier: ski(intermediate))
        configure(&builder)
        return try builder.signed(withKey: intermediateKey)
    }

    /// The root's CRL, revoking `serials` (by default none): the intermediate's status source.
    private func rootCRL(revoking serials: [[UInt8]] = []) throws -> CertificateRevocationList {
        var builder = TestCRLBuilder(issuer: root.subject, authorityKeyIdentifier: ski(root))
        builder.entries = serials.map { TestCRLBuilder.Entry(serial: $0, reason: 1) }
        return try builder.signed(withKey: rootKey)
    }

    private func ski(_ certificate: Certificate) -> [UInt8]? {
        certificate.extensions.subjectKeyIdentifier.map { Array($0.keyIdentifier) }
    }

    /// Evaluates `leaf` under the RFC 5280 profile with the CRLs and extra untrusted certificates,
    /// now, hard fail (unknown status rejected) unless `softFail`.
    private func evaluate(
        _ leaf: Certificate, crls: [CertificateRevocationList], pool: [Certificate] = [],
        softFail: Bool = false
    ) throws -> TrustEvaluation {
        let options: RevocationOptions = softFail ? [.crl, .networkAccessDisabled] : [.crl, .requirePositiveResponse, .networkAccessDisabled]
        let trust = try OpenSSLIssuer.trust(leaf, policies: [.basicX509, .revocation(options)])
        trust.additionalIntermediates = pool
        trust.setCRLs(crls)
        return trust.evaluate()
    }

    private func leafStatus(_ evaluation: TrustEvaluation) -> RevocationStatus? { RevocationKit.status(evaluation, 0) }

    private func isGood(_ status: RevocationStatus?) -> Bool { if case .good? = status { true } else { false } }
    private func isRevoked(_ status: RevocationStatus?) -> Bool { if case .revoked? = status { true } else { false } }

    private func failureReasons(_ evaluation: TrustEvaluation) -> [TrustFailureReason] { evaluation.failures.map(\.reason) }

    // MARK: - Serial numbers (issue 14 item 2)

    func testSerialNumbersCompareAsDERIntegers() throws {
        let leaf = try leaf(serial: "255")
        XCTAssertEqual(Array(leaf.serialNumber), [0x00, 0xFF])
        // -1 (FF) is not 255 (00 FF): the certificate is not revoked, and the CRL proves it.
        let minusOne = try evaluate(leaf, crls: [try intermediateCRL { $0.entries = [.init(serial: [0xFF], reason: 1)] }, try rootCRL()])
        XCTAssertTrue(minusOne.isTrusted, RevocationKit.firstFailure(minusOne))
        XCTAssertTrue(isGood(leafStatus(minusOne)))
        // 255 itself is.
        let revoked = try evaluate(leaf, crls: [try intermediateCRL { $0.entries = [.init(serial: [0x00, 0xFF], reason: 1)] }, try rootCRL()])
        XCTAssertFalse(revoked.isTrusted)
        XCTAssertTrue(isRevoked(leafStatus(revoked)))
    }

    // MARK: - Scope (items 1 and 3)

    func testCRLForAnotherDistributionPointProvesNothing() throws {
        let partition = TestCRLBuilder.uri("http://crl.swifttrust.test/partition-1.crl")
        let crl = try intermediateCRL { $0.issuingDistributionPoint = .init(fullName: [partition]) }
        // A certificate naming no distribution point is not covered by a partition's CRL: unknown,
        // so hard fail rejects (this was accepted as "good" before RFC 5280 §6.3.3 (b) was enforced).
        let plain = try evaluate(try leaf(), crls: [crl, try rootCRL()])
        XCTAssertFalse(plain.isTrusted)
        XCTAssertTrue(RevocationKit.isUnknown(leafStatus(plain)))
        XCTAssertTrue(RevocationKit.notes(leafStatus(plain)).contains { $0.contains("covers only distribution point") })
        // A certificate naming another point is not covered either.
        let other = try evaluate(try leaf(distributionPoints: "URI:http://crl.swifttrust.test/partition-2.crl"), crls: [crl, try rootCRL()])
        XCTAssertFalse(other.isTrusted)
        XCTAssertTrue(RevocationKit.notes(leafStatus(other)).contains { $0.contains("not the certificate's") })
        // Control: the certificate of that point is.
        let covered = try evaluate(try leaf(distributionPoints: "URI:http://crl.swifttrust.test/partition-1.crl"), crls: [crl, try rootCRL()])
        XCTAssertTrue(covered.isTrusted, RevocationKit.firstFailure(covered))
    }

    func testDirectoryNameDistributionPointsMatch() throws {
        let leaf = try leaf(
            distributionPoints: "dp", sections: ["[dp]", "fullname = dirName:dpname", "[dpname]", "O = SwiftTrust", "CN = Partition 7"])
        guard case let .fullName(names)? = leaf.extensions.crlDistributionPoints?.points.first?.name, let name = names.first,
            case let .directoryName(partition) = name
        else { return XCTFail("no directoryName distribution point") }
        let matching = try intermediateCRL { $0.issuingDistributionPoint = .init(fullName: [TestCRLBuilder.directoryName(partition)]) }
        let evaluation = try evaluate(leaf, crls: [matching, try rootCRL()])
        XCTAssertTrue(evaluation.isTrusted, RevocationKit.firstFailure(evaluation))
        // Another directory name is another partition.
        let otherName = try DistinguishedName(der: Array(intermediate.subject.der))
        let other = try intermediateCRL { $0.issuingDistributionPoint = .init(fullName: [TestCRLBuilder.directoryName(otherName)]) }
        XCTAssertTrue(RevocationKit.isUnknown(leafStatus(try evaluate(leaf, crls: [other, try rootCRL()]))))
    }

    func testNameRelativeToCRLIssuerIsResolvedAgainstTheIssuersName() throws {
        let leaf = try leaf(distributionPoints: "dp", sections: ["[dp]", "relativename = rel", "[rel]", "CN = Partition 7"])
        // Both relative.
        let relative = try intermediateCRL { $0.issuingDistributionPoint = .init(relativeName: TestCRLBuilder.commonName("Partition 7")) }
        XCTAssertTrue(isGood(leafStatus(try evaluate(leaf, crls: [relative, try rootCRL()]))))
        // The CRL spells the same point as a full directoryName: the issuer's name plus the relative name.
        let issuerContent = try DERReader.parseSingle(Array(intermediate.subject.der)).content
        let fullDER = DERWriter.tlv(
            identifier: 0x30, content: Array(issuerContent) + DERWriter.tlv(identifier: 0x31, content: TestCRLBuilder.commonName("Partition 7")))
        let fullName = try DistinguishedName(der: fullDER)
        let full = try intermediateCRL { $0.issuingDistributionPoint = .init(fullName: [TestCRLBuilder.directoryName(fullName)]) }
        XCTAssertTrue(isGood(leafStatus(try evaluate(leaf, crls: [full, try rootCRL()]))))
        // Another relative name does not match.
        let other = try intermediateCRL { $0.issuingDistributionPoint = .init(relativeName: TestCRLBuilder.commonName("Partition 8")) }
        XCTAssertTrue(RevocationKit.isUnknown(leafStatus(try evaluate(leaf, crls: [other, try rootCRL()]))))
    }

    // MARK: - Another key of the CA (item 4)

    func testCRLSignedByASeparateCRLSigningCertificateOfTheCA() throws {
        let leaf = try leaf()
        let signer = try crlSigner(subject: ["O = SwiftTrust", "CN = SwiftTrust Test Intermediate ECDSA"])
        XCTAssertEqual(signer.subject, intermediate.subject)
        var builder = TestCRLBuilder(issuer: intermediate.subject, authorityKeyIdentifier: ski(signer))
        builder.entries = []
        let crl = try builder.signed(withKey: otherKey)
        // §6.3.3 (f): the signer's own path to the same anchor validates (its status from the root CRL).
        let valid = try evaluate(leaf, crls: [crl, try rootCRL()], pool: [signer])
        XCTAssertTrue(valid.isTrusted, RevocationKit.firstFailure(valid))
        XCTAssertTrue(isGood(leafStatus(valid)))
        // Without the signer's certificate the CRL cannot be verified: no information.
        let unknown = try evaluate(leaf, crls: [crl, try rootCRL()])
        XCTAssertFalse(unknown.isTrusted)
        XCTAssertTrue(RevocationKit.notes(leafStatus(unknown)).contains { $0.contains("to verify it with") })
        // A revoked CRL signer vouches for nothing; the caller supplied that CRL, so it fails closed.
        let revokedSigner = try evaluate(leaf, crls: [crl, try rootCRL(revoking: [Array(signer.serialNumber)])], pool: [signer], softFail: true)
        XCTAssertFalse(revokedSigner.isTrusted)
        XCTAssertTrue(
            failureReasons(revokedSigner).contains {
                guard case let .revocationInformationInvalid(.suppliedCRLInvalid(_, _, false, .signersInvalid(problems))) = $0 else { return false }
                // The signer's own path fails on the signer: revoked by the root's CRL.
                return problems.contains {
                    guard case let .noValidPath(signer.subject, firstFailure?) = $0, firstFailure.certificateIndex == 0,
                        case .revoked = firstFailure.reason
                    else { return false }
                    return true
                }
            }, "\(revokedSigner.failures)")
    }

    // MARK: - Indirect CRLs (item 5)

    func testIndirectCRLNamedByTheDistributionPointsCRLIssuer() throws {
        let indirectSubject = ["O = SwiftTrust", "CN = Indirect CRL Issuer"]
        let leaf = try leaf(
            distributionPoints: "dp",
            sections: [
                "[dp]", "fullname = URI:http://crl.swifttrust.test/indirect.crl",
                "CRLissuer = dirName:indirect", "[indirect]",
            ] + indirectSubject)
        let crlIssuer = try crlSigner(subject: indirectSubject)
        let point = TestCRLBuilder.uri("http://crl.swifttrust.test/indirect.crl")
        func indirectCRL(_ entries: [TestCRLBuilder.Entry], indirect: Bool = true) throws -> CertificateRevocationList {
            var builder = TestCRLBuilder(issuer: crlIssuer.subject, authorityKeyIdentifier: ski(crlIssuer))
            builder.issuingDistributionPoint = .init(fullName: [point], indirect: indirect)
            builder.entries = entries
            return try builder.signed(withKey: otherKey)
        }
        let serial = Array(leaf.serialNumber)
        // The entry names the leaf's issuer (certificateIssuer, RFC 5280 §5.3.3): revoked.
        let revoked = try evaluate(
            leaf,
            crls: [
                try indirectCRL([.init(serial: serial, reason: 1, certificateIssuer: intermediate.subject)]),
                try rootCRL(),
            ], pool: [crlIssuer])
        XCTAssertTrue(isRevoked(leafStatus(revoked)), "\(String(describing: leafStatus(revoked)))")
        // The same serial without certificateIssuer is a certificate of the CRL issuer itself: good.
        let good = try evaluate(leaf, crls: [try indirectCRL([.init(serial: serial, reason: 1)]), try rootCRL()], pool: [crlIssuer])
        XCTAssertTrue(good.isTrusted, RevocationKit.firstFailure(good))
        // A CRL of the cRLIssuer that does not say it is indirect does not cover other CAs' certificates.
        let direct = try evaluate(leaf, crls: [try indirectCRL([], indirect: false), try rootCRL()], pool: [crlIssuer])
        XCTAssertFalse(direct.isTrusted)
        XCTAssertTrue(RevocationKit.notes(leafStatus(direct)).contains { $0.contains("not marked indirectCRL") })
    }

    // MARK: - Reasons (item 6)

    func testCRLsPartitionedByReasonAreCombinedUntilEveryReasonIsCovered() throws {
        let leaf = try leaf()
        // keyCompromise, cACompromise | the six others.
        let firstHalf: [UInt8] = [0x05, 0x60], secondHalf: [UInt8] = [0x07, 0x1F, 0x80]
        let first = try intermediateCRL { $0.issuingDistributionPoint = .init(onlySomeReasons: firstHalf) }
        let second = try intermediateCRL {
            $0.number = 2; $0.issuingDistributionPoint = .init(onlySomeReasons: secondHalf)
        }
        let both = try evaluate(leaf, crls: [first, second, try rootCRL()])
        XCTAssertTrue(both.isTrusted, RevocationKit.firstFailure(both))
        // One half proves nothing about the other reasons.
        let half = try evaluate(leaf, crls: [first, try rootCRL()])
        XCTAssertFalse(half.isTrusted)
        XCTAssertTrue(RevocationKit.notes(leafStatus(half)).contains { $0.contains("cover only the reasons") })
        // A revocation for a reason of the second half is found in the second CRL.
        let superseded = try intermediateCRL {
            $0.number = 2
            $0.issuingDistributionPoint = .init(onlySomeReasons: secondHalf)
            $0.entries = [.init(serial: Array(leaf.serialNumber), reason: 4)]
        }
        XCTAssertTrue(isRevoked(leafStatus(try evaluate(leaf, crls: [first, superseded, try rootCRL()]))))
    }

    // MARK: - Unusable supplied CRLs are verdicts (item 7)

    func testSuppliedCRLWithAnUnhandledCriticalEntryExtensionFailsClosed() throws {
        let leaf = try leaf()
        let crl = try intermediateCRL { $0.entries = [.init(serial: [0x01, 0x02], unknownCriticalExtension: true)] }
        XCTAssertEqual(crl.semanticDefects.count, 1)
        // Soft fail too: the caller's own CRL cannot be processed, so nothing is accepted on it.
        let evaluation = try evaluate(leaf, crls: [crl, try rootCRL()], softFail: true)
        XCTAssertFalse(evaluation.isTrusted)
        XCTAssertTrue(
            failureReasons(evaluation).contains {
                if case .revocationInformationInvalid(.suppliedCRLInvalid(_, _, false, .defect(.unhandledCriticalEntryExtension))) = $0 {
                    true
                } else {
                    false
                }
            }, "\(evaluation.failures)")
    }
}
