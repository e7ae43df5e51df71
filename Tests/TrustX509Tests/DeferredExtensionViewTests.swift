import TrustDER
@testable import TrustX509
import TrustTestSupport
import XCTest

private typealias B = DERBuilder

/// The views that allocate or are large (extKeyUsage, subjectAltName, nameConstraints,
/// certificatePolicies, policyMappings, authorityKeyIdentifier, issuerAltName, cRLDistributionPoints, authorityInfoAccess, the TLS feature) are
/// checked when a certificate is parsed and decoded on first use (issue 17's lazy parse). The check
/// and the decoding are one code path; these tests hold them to it: over real and mutated values,
/// checking and decoding accept exactly the same inputs, a certificate parses exactly when its
/// value checks and then presents the view, and a malformed value is still a parse error.
final class DeferredExtensionViewTests: XCTestCase {
    /// A deferred extension's OID, the way each mode reads its value (throws, or returns whether
    /// it produced a view) and whether a parsed certificate presents its view.
    private struct DeferredKind {
        let oid: String
        let name: String
        let read: (ArraySlice<UInt8>, Bool) throws -> Bool
        let hasView: (Extensions) -> Bool
    }

    private let kinds = [
        DeferredKind(
            oid: TestOID.authorityInfoAccess, name: "authorityInfoAccess",
            read: { value, building in
                try AuthorityInformationAccess.read(value, building: building) != nil
            }, hasView: { $0.authorityInformationAccess != nil }),
        DeferredKind(
            oid: TestOID.crlDistributionPoints, name: "cRLDistributionPoints",
            read: { value, building in
                try CRLDistributionPoints.read(value, building: building) != nil
            }, hasView: { $0.crlDistributionPoints != nil }),
        DeferredKind(
            oid: TestOID.issuerAltName, name: "issuerAltName",
            read: { value, building in
                // Checking yields no names; decoding yields at least one (GeneralNames is never empty).
                try !GeneralName.readSequence(value, building: building).isEmpty
            }, hasView: { $0.issuerAlternativeNames != nil }),
        DeferredKind(
            oid: TestOID.extKeyUsage, name: "extKeyUsage",
            read: { value, building in
                try ExtendedKeyUsage.read(value, building: building) != nil
            }, hasView: { $0.extendedKeyUsage != nil }),
        DeferredKind(
            oid: TestOID.subjectAltName, name: "subjectAltName",
            read: { value, building in
                // Leniently, as the certificate parse and the view do: a non-ASCII dNSName is a defect.
                try !GeneralName.readSequence(value, building: building) { _ in }.isEmpty
            }, hasView: { $0.subjectAlternativeNames != nil }),
        DeferredKind(
            oid: TestOID.nameConstraints, name: "nameConstraints",
            read: { value, building in
                try NameConstraints.read(value, building: building) != nil
            }, hasView: { $0.nameConstraints != nil }),
        DeferredKind(
            oid: TestOID.certificatePolicies, name: "certificatePolicies",
            read: { value, building in
                try CertificatePolicies.read(value, building: building) != nil
            }, hasView: { $0.certificatePolicies != nil }),
        DeferredKind(
            oid: TestOID.policyMappings, name: "policyMappings",
            read: { value, building in
                try PolicyMappings.read(value, building: building) != nil
            }, hasView: { $0.policyMappings != nil }),
        DeferredKind(
            oid: TestOID.authorityKeyIdentifier, name: "authorityKeyIdentifier",
            read: { value, building in
                try AuthorityKeyIdentifier.read(value, building: building).view != nil
            }, hasView: { $0.authorityKeyIdentifier != nil }),
        DeferredKind(
            oid: TestOID.tlsFeature, name: "tlsFeature",
            read: { value, building in
                try TLSFeature.read(value, building: building) != nil
            }, hasView: { $0.tlsFeature != nil }),
    ]

    /// Real values from the test certificates, plus hand-built ones reaching every branch (a
    /// cRLIssuer with reasons, a nameRelativeToCRLIssuer, each GeneralName form).
    private func seedValues(for kind: DeferredKind) throws -> [[UInt8]] {
        var values: [[UInt8]] = []
        for path in [
            "ecdsa/leaf.pem", "rsa/leaf.pem", "scenarios/cross-leaf.pem", "scenarios/nc-leaf-ok.pem",
            "scenarios/leaf-policies.pem", "scenarios/nc-intermediate.pem", "scenarios/leaf-must-staple.pem",
        ] {
            let certificate = try TestCertificates.certificate(path)
            if let ext = certificate.extensions.all.first(where: { $0.oid.dotted == kind.oid }) { values.append(Array(ext.value)) }
        }
        let issuerName = B.name([(TestOID.commonName, "CRL Issuer")])
        let everyForm = [
            B.uri("http://ca.swifttrust.test/"), B.dnsName("ca.swifttrust.test"), B.rfc822Name("ca@swifttrust.test"),
            B.context(7, constructed: false, [192, 0, 2, 1]), B.context(4, constructed: true, issuerName),
            B.context(8, constructed: false, B.oidContent("1.3.6.1.4.1.55555.1")),
        ]
        switch kind.oid {
        case TestOID.crlDistributionPoints:
            values.append(
                B.sequence(
                    B.sequence(
                        B.context(1, constructed: false, [0x06, 0x40]),
                        B.context(2, constructed: true, B.context(4, constructed: true, issuerName)))))
            values.append(
                B.sequence(
                    B.sequence(
                        B.context(
                            0, constructed: true,
                            B.context(1, constructed: true, B.set([B.attribute(TestOID.commonName, B.utf8String("x"))]))))))
            values.append(B.sequence(B.sequence(B.context(0, constructed: true, B.context(0, constructed: true, everyForm.joined().map { $0 })))))
        case TestOID.authorityInfoAccess:
            values.append(B.sequence(everyForm.map { B.sequence(B.oid("1.3.6.1.5.5.7.48.2"), $0) }))
        case TestOID.extKeyUsage:
            values.append(B.sequence(B.oid(TestOID.serverAuth), B.oid(TestOID.clientAuth), B.oid("1.3.6.1.4.1.55555.1")))
        case TestOID.subjectAltName:
            values.append(B.sequence(everyForm + [B.context(2, constructed: false, [0x78, 0xC3, 0xA9])]))
        case TestOID.nameConstraints:
            values.append(
                B.sequence(
                    B.context(
                        0, constructed: true,
                        B.sequence(B.dnsName("swifttrust.test"))
                            + B.sequence(B.ipAddress([10, 0, 0, 0, 255, 0, 0, 0]))),
                    B.context(
                        1, constructed: true,
                        B.sequence(B.rfc822Name("ca@swifttrust.test"))
                            + B.sequence(B.directoryName(issuerName)))))
        case TestOID.certificatePolicies:
            // A qualifier, and more policies than are compared one by one (the hash-set path).
            values.append(
                B.sequence(
                    B.sequence(B.oid("2.23.140.1.2.1")),
                    B.sequence(
                        B.oid("1.3.6.1.4.1.55555.2"),
                        B.sequence(B.sequence(B.oid("1.3.6.1.5.5.7.2.1"), B.ia5String("http://cps.test"))))))
            values.append(B.sequence((1...10).map { B.sequence(B.oid("1.3.6.1.4.1.55555.\($0)")) }))
        case TestOID.policyMappings:
            values.append(
                B.sequence(
                    B.sequence(B.oid("1.3.6.1.4.1.55555.1"), B.oid("1.3.6.1.4.1.55555.2")),
                    B.sequence(B.oid("1.3.6.1.4.1.55555.3"), B.oid("1.3.6.1.4.1.55555.4"))))
        case TestOID.authorityKeyIdentifier:
            values.append(
                B.sequence(
                    B.context(0, constructed: false, [1, 2, 3, 4]),
                    B.context(1, constructed: true, B.directoryName(issuerName) + B.uri("http://ca.swifttrust.test/")),
                    B.context(2, constructed: false, [0x01, 0x00])))
        case TestOID.tlsFeature:
            values.append(B.sequence(B.integer(5), B.integer(17)))
            values.append(B.sequence((1...12).map { B.integer(UInt64($0) * 1_000) }))
        default:
            values.append(B.sequence(everyForm))
        }
        return values
    }

    /// Each value, every single-byte change at each position (four ways) and every truncation.
    private func mutations(of value: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = [value]
        for index in value.indices {
            for change: (UInt8) -> UInt8 in [{ $0 ^ 0x01 }, { $0 ^ 0x80 }, { _ in 0x00 }, { _ in 0xFF }] {
                var mutated = value
                mutated[index] = change(mutated[index])
                out.append(mutated)
            }
            out.append(Array(value[..<index]))
        }
        return out
    }

    func testCheckingAndDecodingAcceptExactlyTheSameValues() throws {
        for kind in kinds {
            var accepted = 0, rejected = 0
            for seed in try seedValues(for: kind) {
                for candidate in mutations(of: seed) {
                    let value = candidate[...]
                    let checked = Result { try kind.read(value, false) }
                    let decoded = Result { try kind.read(value, true) }
                    switch (checked, decoded) {
                    case (.success(let checkView), .success(let decodeView)):
                        XCTAssertFalse(checkView, "\(kind.name): checking made a view")
                        XCTAssertTrue(decodeView, "\(kind.name): decoding made none")
                        accepted += 1
                    case (.failure, .failure):
                        rejected += 1
                    default:
                        XCTFail("\(kind.name): checking and decoding disagree on \(candidate)")
                    }
                }
            }
            // Both outcomes were exercised.
            XCTAssertGreaterThan(accepted, 3, kind.name)
            XCTAssertGreaterThan(rejected, 100, kind.name)
        }
    }

    func testACertificateParsesExactlyWhenItsDeferredExtensionChecksAndThenDecodesIt() throws {
        for kind in kinds {
            let seed = try XCTUnwrap(try seedValues(for: kind).last)
            for candidate in mutations(of: seed).prefix(200) {
                var template = try CertificateTemplate.load()
                template.setExtension(kind.oid, value: candidate)
                let checks = (try? kind.read(candidate[...], false)) != nil
                do {
                    let certificate = try template.parse()
                    XCTAssertTrue(checks, "\(kind.name): parsed although the value does not check: \(candidate)")
                    XCTAssertTrue(kind.hasView(certificate.extensions), "\(kind.name): no view for \(candidate)")
                } catch {
                    XCTAssertFalse(checks, "\(kind.name): refused although the value checks: \(error)")
                    if case let .malformedExtension(name, _, _) = error.reason { XCTAssertEqual(name, kind.name) }
                }
            }
        }
    }

    func testMalformedDeferredExtensionsAreParseErrors() throws {
        let cases: [(String, [UInt8], String)] = [
            (TestOID.authorityInfoAccess, B.sequence(), "authorityInfoAccess"),
            (
                TestOID.authorityInfoAccess, B.sequence(B.sequence(B.oid("1.3.6.1.5.5.7.48.1"), B.context(6, constructed: false, [0xC3, 0xA9]))),
                "authorityInfoAccess"
            ),
            (TestOID.crlDistributionPoints, B.sequence(), "cRLDistributionPoints"),
            (
                TestOID.crlDistributionPoints, B.sequence(B.sequence(B.context(0, constructed: true, B.context(0, constructed: true, [])))),
                "cRLDistributionPoints"
            ),
            (TestOID.issuerAltName, B.sequence(), "issuerAltName"),
            (TestOID.issuerAltName, B.sequence(B.context(9, constructed: false, [1])), "issuerAltName"),
            (TestOID.extKeyUsage, B.sequence(), "extKeyUsage"),
            (TestOID.subjectAltName, B.sequence(), "subjectAltName"),
            (TestOID.nameConstraints, B.sequence(), "nameConstraints"),
            (TestOID.nameConstraints, B.sequence(B.context(0, constructed: true, [])), "nameConstraints"),
            (
                TestOID.certificatePolicies, B.sequence(B.sequence(B.oid("2.23.140.1.2.1")), B.sequence(B.oid("2.23.140.1.2.1"))),
                "certificatePolicies"
            ),
            (
                TestOID.certificatePolicies, B.sequence((1...10).map { B.sequence(B.oid("1.3.6.1.4.1.55555.\($0 % 9)")) }),
                "certificatePolicies"
            ),
            (TestOID.policyMappings, B.sequence(), "policyMappings"),
            (TestOID.authorityKeyIdentifier, B.sequence(B.context(2, constructed: false, [0x01])), "authorityKeyIdentifier"),
            (TestOID.tlsFeature, B.sequence(B.integer(70_000)), "tlsFeature"),
        ]
        for (oid, value, name) in cases {
            var template = try CertificateTemplate.load()
            template.setExtension(oid, value: value)
            assertX509Error(try template.parse(), name) { error in
                guard case let .malformedExtension(actual, _, _) = error.reason else { return XCTFail("\(name): \(error)") }
                XCTAssertEqual(actual, name)
            }
        }
    }

    /// Fail closed: a validation view whose value does not decode (never expected, as the value
    /// passed the same code at parse time) is recorded, not read as absent; path validation then
    /// rejects the certificate. Real certificates decode every view.
    func testAValidationViewThatDoesNotDecodeIsRecorded() throws {
        let leaf = try TestCertificates.certificate("scenarios/nc-intermediate.pem")
        XCTAssertNil(leaf.extensions.undecodableValidationView)
        let real = { (kind: ExtensionKind) in leaf.extensions.data.value(of: kind) }
        let present = leaf.extensions.data.presentKinds
        XCTAssertNil(ValidationViews(present: present, values: real).undecodable)
        XCTAssertNotNil(ValidationViews(present: present, values: real).nameConstraints)
        for kind in [
            ExtensionKind.nameConstraints, .extendedKeyUsage, .subjectAltName, .certificatePolicies, .policyMappings,
            .authorityKeyIdentifier,
        ] {
            // A value that does not decode, and a present kind whose value cannot be found.
            let views = ValidationViews(present: present | kind.bit) { $0 == kind ? [0x04, 0x00][...] : real($0) }
            XCTAssertEqual(views.undecodable, kind)
            XCTAssertEqual(ValidationViews(present: kind.bit) { _ in nil }.undecodable, kind)
        }
        for path in try TestCertificates.certificateFiles() {
            for certificate in try TestCertificates.certificates(path) {
                XCTAssertNil(certificate.extensions.undecodableValidationView, path)
            }
        }
    }
}
