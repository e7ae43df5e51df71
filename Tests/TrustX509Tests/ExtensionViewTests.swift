import Foundation
import TrustCrypto
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

/// The typed extension views, against the committed TestCertificates and hand-built DER.
final class ExtensionViewTests: XCTestCase {
    typealias B = DERBuilder

    private func certificate(_ path: String) throws -> Certificate { try TestCertificates.certificate(path) }

    private func oid(_ dotted: String) -> ASN1ObjectIdentifier { ASN1ObjectIdentifier(dotted: dotted)! }

    // MARK: - Real certificates

    func testBasicConstraints() throws {
        let intermediate = try certificate("ecdsa/intermediate.pem")
        XCTAssertEqual(intermediate.extensions.basicConstraints, try basicConstraints(isCA: true, pathLength: 0))
        XCTAssertEqual(intermediate.extensions[OID.basicConstraints]?.isCritical, true)
        XCTAssertTrue(intermediate.isCA)

        let root = try certificate("ecdsa/root.pem")
        XCTAssertEqual(root.extensions.basicConstraints?.isCA, true)
        XCTAssertNil(root.extensions.basicConstraints?.pathLengthConstraint)
        XCTAssertNil(try certificate("ecdsa/intermediate2.pem").extensions.basicConstraints?.pathLengthConstraint)
        XCTAssertEqual(try certificate("rsa/intermediate.pem").extensions.basicConstraints?.pathLengthConstraint, 0)
        XCTAssertEqual(try certificate("ed25519/intermediate.pem").extensions.basicConstraints?.pathLengthConstraint, 0)

        // CA:FALSE is encoded as an empty SEQUENCE (30 00): present, but not a CA.
        let leaf = try certificate("ecdsa/leaf.pem")
        XCTAssertEqual(leaf.extensions[OID.basicConstraints]?.value.elementsEqual([0x30, 0x00]), true)
        XCTAssertEqual(leaf.extensions.basicConstraints?.isCA, false)
        XCTAssertNil(leaf.extensions.basicConstraints?.pathLengthConstraint)
        XCTAssertFalse(leaf.isCA)
        XCTAssertEqual(try certificate("scenarios/not-ca-intermediate.pem").extensions.basicConstraints?.isCA, false)
        XCTAssertTrue(try certificate("scenarios/leaf-is-ca.pem").isCA)
    }

    /// A BasicConstraints value via a parsed hand-built extension (the type has no public initialiser).
    private func basicConstraints(isCA: Bool, pathLength: UInt64?) throws -> BasicConstraints? {
        var template = try CertificateTemplate.load()
        var fields: [[UInt8]] = []
        if isCA { fields.append(B.boolean(true)) }
        if let pathLength { fields.append(B.integer(pathLength)) }
        template.setExtension(TestOID.basicConstraints, critical: true, value: B.sequence(fields))
        return try template.parse().extensions.basicConstraints
    }

    func testKeyUsage() throws {
        let leaf = try certificate("ecdsa/leaf.pem")
        XCTAssertEqual(leaf.extensions.keyUsage, .digitalSignature)
        XCTAssertEqual(leaf.extensions.keyUsage?.description, "digitalSignature")
        XCTAssertEqual(leaf.extensions[OID.keyUsage]?.isCritical, true)
        XCTAssertEqual(try certificate("rsa/leaf.pem").extensions.keyUsage, [.digitalSignature, .keyEncipherment])
        let root = try certificate("ecdsa/root.pem")
        XCTAssertEqual(root.extensions.keyUsage, [.keyCertSign, .cRLSign])
        XCTAssertEqual(root.extensions.keyUsage?.description, "keyCertSign, cRLSign")
        XCTAssertEqual(try certificate("scenarios/no-keycertsign-intermediate.pem").extensions.keyUsage, .digitalSignature)
        XCTAssertEqual(try certificate("scenarios/leaf-is-ca.pem").extensions.keyUsage, [.digitalSignature, .keyCertSign])

        // decipherOnly is bit 8: a two-octet BIT STRING with 7 unused bits.
        var template = try CertificateTemplate.load()
        template.setExtension(TestOID.keyUsage, critical: true, value: B.bitString([0x08, 0x80], unusedBits: 7))
        XCTAssertEqual(try template.parse().extensions.keyUsage, [.keyAgreement, .decipherOnly])
    }

    func testExtendedKeyUsage() throws {
        let leaf = try certificate("ecdsa/leaf.pem")
        XCTAssertEqual(leaf.extensions.extendedKeyUsage?.purposes, [OID.serverAuth])
        XCTAssertEqual(leaf.extensions.extendedKeyUsage?.contains(OID.serverAuth), true)
        XCTAssertEqual(leaf.extensions.extendedKeyUsage?.contains(OID.clientAuth), false)
        XCTAssertEqual(leaf.extensions[OID.extendedKeyUsage]?.isCritical, false)

        let client = try certificate("ecdsa/leaf-client.pem")
        XCTAssertEqual(client.extensions.extendedKeyUsage?.purposes, [OID.clientAuth])
        XCTAssertEqual(client.extensions.subjectAlternativeNames, [.rfc822Name("user@swifttrust.test")])
        XCTAssertEqual(client.dnsNames, [])

        XCTAssertEqual(try certificate("ecdsa/leaf-no-serverauth.pem").extensions.extendedKeyUsage?.purposes, [OID.clientAuth])
        XCTAssertEqual(
            try certificate("scenarios/eku-codesigning-intermediate.pem").extensions.extendedKeyUsage?.purposes,
            [OID.codeSigning])
        XCTAssertNil(try certificate("ecdsa/root.pem").extensions.extendedKeyUsage)
    }

    func testSubjectAlternativeNames() throws {
        XCTAssertEqual(try certificate("ecdsa/leaf.pem").dnsNames, ["www.swifttrust.test"])
        XCTAssertEqual(
            try certificate("ecdsa/leaf-multi-dns.pem").dnsNames,
            ["api.swifttrust.test", "www.swifttrust.test", "swifttrust.test"])
        XCTAssertEqual(try certificate("ecdsa/leaf-wildcard.pem").dnsNames, ["*.swifttrust.test"])
        XCTAssertNil(try certificate("ecdsa/leaf-no-san.pem").extensions.subjectAlternativeNames)

        let ipLeaf = try certificate("ecdsa/leaf-ip.pem")
        XCTAssertEqual(ipLeaf.dnsNames, [])
        XCTAssertEqual(ipLeaf.ipAddresses.map(Array.init), [[192, 0, 2, 10], bytes(hex: "20010db8000000000000000000000010")])
        XCTAssertEqual(ipLeaf.extensions.subjectAlternativeNames?.map(\.description), ["IP:192.0.2.10", "IP:2001:db8::10"])
        XCTAssertEqual(ipLeaf.ipAddresses.map(GeneralName.formatIP), ["192.0.2.10", "2001:db8::10"])

        let outside = try certificate("scenarios/nc-leaf-ip-outside.pem")
        XCTAssertEqual(
            outside.extensions.subjectAlternativeNames?.map(\.description),
            ["DNS:www.swifttrust.test", "IP:198.51.100.1"])
    }

    func testSubjectAlternativeNamesOfEveryKind() throws {
        var template = try CertificateTemplate.load()
        let directory = B.name([(TestOID.organizationName, "SwiftTrust"), (TestOID.commonName, "Dir")])
        template.setExtension(
            TestOID.subjectAltName,
            value: B.sequence(
                B.dnsName("a.swifttrust.test"),
                B.rfc822Name("x@swifttrust.test"),
                B.uri("https://swifttrust.test/path"),
                B.ipAddress([198, 51, 100, 7]),
                B.directoryName(directory),
                B.context(8, constructed: false, B.oidContent("1.2.3.4")),
                B.context(0, constructed: true, B.oid("1.3.6.1.4.1.311.20.2.3") + B.explicit(0, B.utf8String("upn")))
            ))
        let names = try XCTUnwrap(try template.parse().extensions.subjectAlternativeNames)
        XCTAssertEqual(
            names.map(\.description),
            [
                "DNS:a.swifttrust.test", "email:x@swifttrust.test", "URI:https://swifttrust.test/path",
                "IP:198.51.100.7", "DirName:CN=Dir,O=SwiftTrust", "RID:1.2.3.4", "othername:1.3.6.1.4.1.311.20.2.3",
            ])
        guard case let .directoryName(name) = names[4] else { return XCTFail("not a directoryName") }
        XCTAssertEqual(name, try DistinguishedName(der: directory))
        guard case let .otherName(typeID, value) = names[6] else { return XCTFail("not an otherName") }
        XCTAssertEqual(typeID.dotted, "1.3.6.1.4.1.311.20.2.3")
        XCTAssertEqual(Array(value), B.utf8String("upn"))

        // GeneralNames must not be empty.
        template.setExtension(TestOID.subjectAltName, value: B.sequence())
        assertMalformed(template, name: "subjectAltName")
    }

    func testIssuerAlternativeNames() throws {
        XCTAssertNil(try certificate("ecdsa/leaf.pem").extensions.issuerAlternativeNames)
        var template = try CertificateTemplate.load()
        template.setExtension(TestOID.issuerAltName, value: B.sequence(B.uri("http://ca.swifttrust.test/")))
        XCTAssertEqual(try template.parse().extensions.issuerAlternativeNames, [.uniformResourceIdentifier("http://ca.swifttrust.test/")])
    }

    func testNameConstraints() throws {
        let intermediate = try certificate("scenarios/nc-intermediate.pem")
        let constraints = try XCTUnwrap(intermediate.extensions.nameConstraints)
        XCTAssertTrue(constraints.hasPermittedSubtrees)
        XCTAssertEqual(
            constraints.permittedSubtrees, [.dnsName("swifttrust.test"), .ipAddress(ArraySlice<UInt8>([192, 0, 2, 0, 255, 255, 255, 0]))])
        XCTAssertEqual(constraints.permittedSubtrees.map(\.description), ["DNS:swifttrust.test", "IP:192.0.2.0/255.255.255.0"])
        XCTAssertEqual(constraints.excludedSubtrees, [.dnsName("bad.swifttrust.test")])
        XCTAssertEqual(intermediate.extensions[OID.nameConstraints]?.isCritical, true)
        XCTAssertNil(try certificate("ecdsa/intermediate.pem").extensions.nameConstraints)

        // Excluded only.
        var template = try CertificateTemplate.load("ecdsa/intermediate.pem")
        template.setExtension(
            TestOID.nameConstraints, critical: true,
            value: B.sequence(
                B.context(
                    1, constructed: true, B.sequence(B.ipAddress(bytes(hex: "20010db8000000000000000000000000 ffffffff000000000000000000000000"))))
            ))
        let excludedOnly = try XCTUnwrap(try template.parse().extensions.nameConstraints)
        XCTAssertFalse(excludedOnly.hasPermittedSubtrees)
        XCTAssertEqual(excludedOnly.permittedSubtrees, [])
        XCTAssertEqual(excludedOnly.excludedSubtrees.map(\.description), ["IP:2001:db8::/ffff:ffff::"])
    }

    func testCertificatePolicies() throws {
        let leaf = try certificate("scenarios/leaf-policies.pem")
        let policies = try XCTUnwrap(leaf.extensions.certificatePolicies)
        XCTAssertEqual(policies.identifiers, [oid("2.23.140.1.2.1")])
        XCTAssertNil(policies.policies.first?.qualifiers)
        XCTAssertNil(try certificate("ecdsa/intermediate.pem").extensions.certificatePolicies)

        // With a CPS qualifier, kept raw.
        var template = try CertificateTemplate.load()
        let qualifiers = B.sequence(B.sequence(B.oid("1.3.6.1.5.5.7.2.1"), B.ia5String("https://cps.swifttrust.test")))
        template.setExtension(
            TestOID.certificatePolicies,
            value: B.sequence(
                B.sequence(B.oid("2.5.29.32.0"), qualifiers),
                B.sequence(B.oid("2.23.140.1.2.2"))
            ))
        let parsed = try XCTUnwrap(try template.parse().extensions.certificatePolicies)
        XCTAssertEqual(parsed.identifiers, [OID.anyPolicy, oid("2.23.140.1.2.2")])
        XCTAssertEqual(parsed.policies[0].qualifiers.map(Array.init), qualifiers)
        XCTAssertNil(parsed.policies[1].qualifiers)
    }

    func testPolicyMappings() throws {
        var template = try CertificateTemplate.load("ecdsa/intermediate.pem")
        template.setExtension(
            TestOID.policyMappings, critical: true,
            value: B.sequence(
                B.sequence(B.oid("2.23.140.1.2.1"), B.oid("1.3.6.1.4.1.55555.2.1")),
                B.sequence(B.oid("2.23.140.1.2.2"), B.oid("1.3.6.1.4.1.55555.2.2"))
            ))
        let mappings = try XCTUnwrap(try template.parse().extensions.policyMappings).mappings
        XCTAssertEqual(mappings.map(\.issuerDomainPolicy.dotted), ["2.23.140.1.2.1", "2.23.140.1.2.2"])
        XCTAssertEqual(mappings.map(\.subjectDomainPolicy.dotted), ["1.3.6.1.4.1.55555.2.1", "1.3.6.1.4.1.55555.2.2"])

        template.setExtension(TestOID.policyMappings, critical: true, value: B.sequence())
        assertMalformed(template, name: "policyMappings")
        XCTAssertNil(try certificate("ecdsa/intermediate.pem").extensions.policyMappings)
    }

    func testPolicyConstraints() throws {
        var template = try CertificateTemplate.load("ecdsa/intermediate.pem")
        template.setExtension(
            TestOID.policyConstraints, critical: true,
            value: B.sequence(
                B.context(0, constructed: false, [0x00]), B.context(1, constructed: false, [0x02])
            ))
        let both = try XCTUnwrap(try template.parse().extensions.policyConstraints)
        XCTAssertEqual(both.requireExplicitPolicy, 0)
        XCTAssertEqual(both.inhibitPolicyMapping, 2)

        template.setExtension(TestOID.policyConstraints, critical: true, value: B.sequence(B.context(1, constructed: false, [0x01])))
        let inhibitOnly = try XCTUnwrap(try template.parse().extensions.policyConstraints)
        XCTAssertNil(inhibitOnly.requireExplicitPolicy)
        XCTAssertEqual(inhibitOnly.inhibitPolicyMapping, 1)
        XCTAssertNil(try certificate("ecdsa/intermediate.pem").extensions.policyConstraints)
    }

    func testInhibitAnyPolicy() throws {
        var template = try CertificateTemplate.load("ecdsa/intermediate.pem")
        template.setExtension(TestOID.inhibitAnyPolicy, critical: true, value: B.integer(3))
        XCTAssertEqual(try template.parse().extensions.inhibitAnyPolicy?.skipCerts, 3)
        template.setExtension(TestOID.inhibitAnyPolicy, critical: true, value: [0x02, 0x01, 0xFF]) // -1
        assertMalformed(template, name: "inhibitAnyPolicy")
        XCTAssertNil(try certificate("ecdsa/intermediate.pem").extensions.inhibitAnyPolicy)
    }

    func testCRLDistributionPoints() throws {
        let leaf = try certificate("ecdsa/leaf.pem")
        let points = try XCTUnwrap(leaf.extensions.crlDistributionPoints).points
        XCTAssertEqual(points.count, 1)
        XCTAssertEqual(points.first?.uris, ["http://crl.swifttrust.test/ecdsa-intermediate.crl"])
        XCTAssertNil(points.first?.reasons)
        XCTAssertNil(points.first?.crlIssuer)
        XCTAssertEqual(
            try certificate("rsa/leaf.pem").extensions.crlDistributionPoints?.points.first?.uris,
            ["http://crl.swifttrust.test/rsa-intermediate.crl"])
        XCTAssertEqual(
            try certificate("scenarios/nc-leaf-ok.pem").extensions.crlDistributionPoints?.points.first?.uris,
            ["http://crl.swifttrust.test/nc-intermediate.crl"])
        XCTAssertNil(try certificate("ecdsa/self-signed-leaf.pem").extensions.crlDistributionPoints)

        // cRLIssuer only, with reasons.
        var template = try CertificateTemplate.load()
        let issuerName = B.name([(TestOID.commonName, "CRL Issuer")])
        template.setExtension(
            TestOID.crlDistributionPoints,
            value: B.sequence(
                B.sequence(
                    B.context(1, constructed: false, [0x06, 0x40]),
                    B.context(2, constructed: true, B.directoryName(issuerName))
                )))
        let point = try XCTUnwrap(try template.parse().extensions.crlDistributionPoints?.points.first)
        XCTAssertNil(point.name)
        XCTAssertEqual(point.uris, [])
        // BIT STRING 06 40: six unused bits, then bit 1 (keyCompromise) set.
        XCTAssertEqual(point.reasons, [.keyCompromise])
        XCTAssertEqual(point.crlIssuer, [.directoryName(try DistinguishedName(der: issuerName))])

        // Neither a name nor a cRLIssuer.
        template.setExtension(TestOID.crlDistributionPoints, value: B.sequence(B.sequence()))
        assertMalformed(template, name: "cRLDistributionPoints")
    }

    func testAuthorityInformationAccess() throws {
        let aia = try XCTUnwrap(try certificate("ecdsa/leaf.pem").extensions.authorityInformationAccess)
        XCTAssertEqual(aia.ocspURIs, ["http://ocsp.swifttrust.test"])
        XCTAssertEqual(aia.caIssuersURIs, ["http://ca.swifttrust.test/ecdsa-intermediate.crt"])
        XCTAssertEqual(aia.descriptions.map(\.method), [OID.accessOCSP, OID.accessCAIssuers])
        XCTAssertEqual(
            try certificate("scenarios/cross-leaf.pem").extensions.authorityInformationAccess?.caIssuersURIs,
            ["http://ca.swifttrust.test/cross-intermediate.crt"])
        XCTAssertNil(try certificate("ecdsa/root.pem").extensions.authorityInformationAccess)
    }

    func testKeyIdentifiers() throws {
        let leaf = try certificate("ecdsa/leaf.pem")
        let intermediate = try certificate("ecdsa/intermediate.pem")
        let root = try certificate("ecdsa/root.pem")
        let aki = try XCTUnwrap(leaf.extensions.authorityKeyIdentifier)
        XCTAssertNil(aki.authorityCertIssuer)
        XCTAssertNil(aki.authorityCertSerialNumber)
        let intermediateSKI = try XCTUnwrap(intermediate.extensions.subjectKeyIdentifier?.keyIdentifier)
        XCTAssertEqual(aki.keyIdentifier.map(Array.init), Array(intermediateSKI))
        XCTAssertEqual(
            intermediate.extensions.authorityKeyIdentifier?.keyIdentifier.map(Array.init),
            root.extensions.subjectKeyIdentifier.map { Array($0.keyIdentifier) })
        XCTAssertNil(root.extensions.authorityKeyIdentifier)
        XCTAssertNil(try certificate("ecdsa/self-signed-leaf.pem").extensions.authorityKeyIdentifier)
        // OpenSSL's default key identifier: SHA-1 of the subjectPublicKey bits.
        for cert in [leaf, intermediate, root] {
            XCTAssertEqual(
                cert.extensions.subjectKeyIdentifier.map { Array($0.keyIdentifier) },
                Digest.sha1(Array(cert.publicKeyInfo.keyBytes)), cert.description)
        }
        // The v1 CA has no SKI; its leaf's AKI is still the SHA-1 of its key.
        let v1 = try certificate("scenarios/v1-intermediate.pem")
        XCTAssertEqual(
            try certificate("scenarios/leaf-under-v1.pem").extensions.authorityKeyIdentifier?.keyIdentifier.map(Array.init),
            Digest.sha1(Array(v1.publicKeyInfo.keyBytes)))

        // AKI with issuer and serial.
        var template = try CertificateTemplate.load()
        let issuerName = B.name([(TestOID.commonName, "Issuer")])
        template.setExtension(
            TestOID.authorityKeyIdentifier,
            value: B.sequence(
                B.context(0, constructed: false, [1, 2, 3]),
                B.context(1, constructed: true, B.directoryName(issuerName)),
                B.context(2, constructed: false, [0x00, 0x80])
            ))
        let full = try XCTUnwrap(try template.parse().extensions.authorityKeyIdentifier)
        XCTAssertEqual(full.keyIdentifier.map(Array.init), [1, 2, 3])
        XCTAssertEqual(full.authorityCertIssuer, [.directoryName(try DistinguishedName(der: issuerName))])
        XCTAssertEqual(full.authorityCertSerialNumber.map(Array.init), [0x00, 0x80])
    }

    func testTLSFeature() throws {
        let mustStaple = try certificate("scenarios/leaf-must-staple.pem")
        let feature = try XCTUnwrap(mustStaple.extensions.tlsFeature)
        XCTAssertEqual(feature.features, [5])
        XCTAssertTrue(feature.requiresOCSPStapling)
        XCTAssertEqual(mustStaple.extensions[OID.tlsFeature]?.isCritical, false)
        XCTAssertNil(try certificate("ecdsa/leaf.pem").extensions.tlsFeature)

        var template = try CertificateTemplate.load()
        template.setExtension(TestOID.tlsFeature, value: B.sequence(B.integer(17)))
        let other = try XCTUnwrap(try template.parse().extensions.tlsFeature)
        XCTAssertEqual(other.features, [17])
        XCTAssertFalse(other.requiresOCSPStapling)
    }

    func testSignedCertificateTimestampsAreKeptRaw() throws {
        XCTAssertNil(try certificate("ecdsa/leaf.pem").extensions.signedCertificateTimestamps)
        var template = try CertificateTemplate.load()
        let list: [UInt8] = [0x00, 0x04, 0x00, 0x02, 0xAB, 0xCD]
        template.setExtension(TestOID.sctList, value: B.octetString(list))
        let certificate = try template.parse()
        XCTAssertEqual(certificate.extensions.signedCertificateTimestamps.map(Array.init), list)
        XCTAssertEqual(certificate.extensions[OID.sctList]?.name, "signedCertificateTimestampList")
        // The extnValue must hold an OCTET STRING.
        template.setExtension(TestOID.sctList, value: B.sequence())
        assertMalformed(template, name: "signedCertificateTimestampList")
    }

    func testV1IntermediateHasNoExtensions() throws {
        let v1 = try certificate("scenarios/v1-intermediate.pem")
        XCTAssertEqual(v1.version, 1)
        XCTAssertEqual(v1.extensions.all, [])
        XCTAssertNil(v1.extensions.basicConstraints)
        XCTAssertNil(v1.extensions.keyUsage)
        XCTAssertNil(v1.extensions.subjectKeyIdentifier)
        XCTAssertFalse(v1.isCA)
        XCTAssertEqual(try certificate("ecdsa/leaf.pem").version, 3)
    }

    func testPublicKeyDescriptions() throws {
        XCTAssertEqual(try certificate("scenarios/leaf-rsa1024.pem").publicKeyDescription?.description, "RSA 1024")
        XCTAssertEqual(try certificate("rsa/leaf.pem").publicKeyDescription?.description, "RSA 2048")
        XCTAssertEqual(try certificate("ecdsa/leaf.pem").publicKeyDescription?.description, "ECDSA P-256")
        XCTAssertEqual(try certificate("ed25519/leaf.pem").publicKeyDescription?.description, "Ed25519")
        XCTAssertEqual(try certificate("scenarios/leaf-rsa1024.pem").publicKeyInfo.algorithm.description, "rsaEncryption")
        XCTAssertEqual(try certificate("ecdsa/leaf.pem").publicKeyInfo.algorithm.description, "id-ecPublicKey")
    }

    func testSignatureAlgorithmIdentifiers() throws {
        XCTAssertEqual(try certificate("ecdsa/leaf.pem").signatureAlgorithmIdentifier.description, "ecdsa-with-SHA256")
        XCTAssertEqual(try certificate("scenarios/leaf-sha1.pem").signatureAlgorithmIdentifier.description, "ecdsa-with-SHA1")
        XCTAssertEqual(try certificate("rsa/leaf.pem").signatureAlgorithmIdentifier.description, "sha256WithRSAEncryption")
        XCTAssertEqual(try certificate("scenarios/leaf-pss.pem").signatureAlgorithmIdentifier.description, "rsassaPss")
        XCTAssertEqual(try certificate("ed25519/leaf.pem").signatureAlgorithmIdentifier.description, "Ed25519")
    }

    func testUnknownCriticalExtensionFromTestCertificates() throws {
        let leaf = try certificate("scenarios/unknown-critical-ext-leaf.pem")
        let unknown = try XCTUnwrap(leaf.extensions[oid("1.3.6.1.4.1.55555.1")])
        XCTAssertTrue(unknown.isCritical)
        XCTAssertEqual(Array(unknown.value), [0x05, 0x00])
        XCTAssertEqual(unknown.name, "1.3.6.1.4.1.55555.1")
        let understood: Set<ASN1ObjectIdentifier> = [OID.basicConstraints, OID.keyUsage, OID.extendedKeyUsage, OID.subjectAltName]
        XCTAssertEqual(leaf.extensions.criticalExtensions(notIn: understood).map(\.oid), [unknown.oid])
        XCTAssertEqual(try certificate("ecdsa/leaf.pem").extensions.criticalExtensions(notIn: understood), [])
    }

    func testExtensionListKeepsOrderAndOffsets() throws {
        let leaf = try certificate("ecdsa/leaf.der")
        XCTAssertEqual(
            leaf.extensions.all.map(\.name),
            [
                "basicConstraints", "keyUsage", "extKeyUsage", "subjectAltName", "subjectKeyIdentifier",
                "authorityKeyIdentifier", "cRLDistributionPoints", "authorityInfoAccess",
            ])
        // Offsets are absolute positions of each Extension SEQUENCE in the certificate DER, as
        // `openssl asn1parse` reports them (they move with every regeneration: serial and key lengths vary).
        XCTAssertEqual(leaf.extensions.all.map(\.offset), try opensslExtensionOffsets("ecdsa/leaf.der"))
        for ext in leaf.extensions.all {
            XCTAssertEqual(leaf.derEncoded[ext.offset], 0x30)
            XCTAssertTrue(leaf.derEncoded[ext.value.indices].elementsEqual(ext.value))
        }
        // Each extension's OID, criticality and value, written back as an Extension, are exactly
        // the bytes at its offset (a critical one among them: the limbo-style unknown extension).
        var withCritical = try CertificateTemplate.load()
        withCritical.extensions =
            (withCritical.extensions ?? []) + [DERBuilder.extension("1.3.6.1.4.1.55555.1", critical: true, value: [0x05, 0x00])]
        let critical = try withCritical.parse()
        XCTAssertEqual(critical.extensions.all.last?.isCritical, true)
        for certificate in [leaf, critical] {
            for ext in certificate.extensions.all {
                let rewritten = DERWriter.tlv(
                    identifier: 0x30,
                    content: DERWriter.tlv(identifier: 0x06, content: Array(ext.oid.bytes))
                        + (ext.isCritical ? [0x01, 0x01, 0xFF] : []) + DERWriter.tlv(identifier: 0x04, content: Array(ext.value)))
                XCTAssertEqual(Array(certificate.derEncoded[ext.offset..<(ext.offset + rewritten.count)]), rewritten, ext.name)
            }
        }
    }

    /// The offset of every Extension SEQUENCE of the DER certificate at `relativePath`, from
    /// `openssl asn1parse`: the depth-4 elements inside the tbsCertificate's `[3]` (depth 2) field.
    private func opensslExtensionOffsets(_ relativePath: String) throws -> [Int] {
        let text = try OpenSSLFacts.run(["asn1parse", "-inform", "DER", "-in", TestCertificates.url(relativePath).path])
        // Lines look like "  295:d=4  hl=2 l=  12 cons: SEQUENCE".
        let elements: [(offset: Int, depth: Int, line: Substring)] = text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ":", maxSplits: 1)
            guard fields.count == 2, let offset = Int(fields[0].trimmingCharacters(in: .whitespaces)),
                let depthField = fields[1].split(separator: " ").first, depthField.hasPrefix("d="),
                let depth = Int(depthField.dropFirst(2))
            else { return nil }
            return (offset, depth, line)
        }
        let start = try XCTUnwrap(elements.firstIndex { $0.depth == 2 && $0.line.contains("cont [ 3 ]") }, text)
        return elements[(start + 1)...].prefix { $0.depth > 2 }.filter { $0.depth == 4 }.map(\.offset)
    }

    // MARK: - Hand-built rejections

    /// Asserts the template's certificate is rejected as a malformed `name` extension at that extension's offset.
    private func assertMalformed(_ template: CertificateTemplate, name: String, file: StaticString = #filePath, line: UInt = #line) {
        let der = template.der
        let extensionIndex = template.extensionOIDs.firstIndex { OID.name(of: oid($0)) == name }
        let expectedOffset = extensionIndex.flatMap { lastOffset(of: template.extensions![$0], in: der) }
        assertX509Error(try Certificate(derEncoded: der), name, file: file, line: line) { error in
            guard case let .malformedExtension(actualName, underlying, offset) = error.reason else {
                return XCTFail("expected malformed \(name), got \(error)", file: file, line: line)
            }
            XCTAssertEqual(actualName, name, file: file, line: line)
            XCTAssertFalse(underlying.isEmpty, file: file, line: line)
            XCTAssertEqual(offset, expectedOffset, file: file, line: line)
            XCTAssertEqual(error.offset, expectedOffset, file: file, line: line)
        }
    }

    func testTemplateReencodesTheOriginalExactly() throws {
        let original = try TestCertificates.bytes("ecdsa/leaf.der")
        let template = try CertificateTemplate(der: original)
        XCTAssertEqual(template.der, original)
        XCTAssertEqual(template.extensionOIDs.count, 8)
        XCTAssertEqual(try template.parse().derEncoded, original)
        let v1 = try CertificateTemplate.load("scenarios/v1-intermediate.pem")
        XCTAssertNil(v1.version)
        XCTAssertNil(v1.extensions)
        XCTAssertEqual(v1.der, try TestCertificates.certificate("scenarios/v1-intermediate.pem").derEncoded)
    }

    func testDuplicateExtensionIsRejected() throws {
        var template = try CertificateTemplate.load()
        let keyUsage = try XCTUnwrap(template.extensions?[1])
        template.extensions?.append(keyUsage)
        let der = template.der
        assertX509Error(try Certificate(derEncoded: der)) { error in
            XCTAssertEqual(error.reason, .duplicateExtension(oid: "keyUsage", offset: lastOffset(of: keyUsage, in: der)!))
        }
        // Also when the two copies differ.
        var other = try CertificateTemplate.load()
        other.extensions?.append(B.extension(TestOID.subjectAltName, value: B.sequence(B.dnsName("other.swifttrust.test"))))
        assertX509Error(try other.parse()) { error in
            guard case .duplicateExtension = error.reason else { return XCTFail("\(error)") }
        }
    }

    func testExplicitCriticalFalseIsReadAsNotCriticalAndRecorded() throws {
        // DER omits DEFAULT FALSE (X.690 §11.5); Apple's SecCertificateParse (DERParseBooleanWithDefault),
        // OpenSSL and Go read it written out as FALSE. So do we, recording an encoding finding.
        var template = try CertificateTemplate.load()
        let san = B.extension(TestOID.subjectAltName, critical: false, value: B.sequence(B.dnsName("www.swifttrust.test")))
        template.replaceExtension(TestOID.subjectAltName, with: san)
        let der = template.der
        let extensionOffset = try XCTUnwrap(lastOffset(of: san, in: der))
        let certificate = try Certificate(derEncoded: der)
        XCTAssertEqual(certificate.extensions[OID.subjectAltName]?.isCritical, false)
        XCTAssertEqual(certificate.dnsNames, ["www.swifttrust.test"])
        // The BOOLEAN follows the SEQUENCE header (2 octets) and the OID (5 octets).
        XCTAssertEqual(certificate.encodingFindings, [.explicitCriticalFalse(extensionName: "subjectAltName", offset: extensionOffset + 7)])
        XCTAssertEqual(certificate.semanticDefects, [])
        // A BOOLEAN that is neither 0x00 nor 0xFF is not DER and stays refused, as Apple's DERParseBoolean refuses it.
        template.replaceExtension(
            TestOID.subjectAltName,
            with: B.sequence(
                B.oid(TestOID.subjectAltName), [0x01, 0x01, 0x01], B.octetString(B.sequence(B.dnsName("www.swifttrust.test")))))
        XCTAssertThrowsError(try template.parse())
        // Explicit TRUE is fine, and no finding.
        template.replaceExtension(
            TestOID.subjectAltName,
            with: B.extension(TestOID.subjectAltName, critical: true, value: B.sequence(B.dnsName("www.swifttrust.test"))))
        let critical = try template.parse()
        XCTAssertEqual(critical.extensions[OID.subjectAltName]?.isCritical, true)
        XCTAssertEqual(critical.encodingFindings, [])
    }

    func testACertificateWithoutDEFAULTValuesHasNoEncodingFindings() throws {
        for file in try TestCertificates.certificateFiles() {
            for certificate in try TestCertificates.certificates(file) {
                XCTAssertEqual(certificate.encodingFindings, [], file)
            }
        }
    }

    func testEmptyExtensionsSequenceIsRejected() throws {
        var template = try CertificateTemplate.load()
        template.extensions = []
        let der = template.der
        let emptySequenceOffset = try XCTUnwrap(lastOffset(of: [0xA3, 0x02, 0x30, 0x00], in: der)) + 2
        assertX509Error(try Certificate(derEncoded: der)) { error in
            guard case let .invalidStructure(what, offset) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(what.contains("empty"), what)
            XCTAssertEqual(offset, emptySequenceOffset)
        }
        // An empty [3] (no SEQUENCE inside) is rejected too.
        template.rawExtensionsField = [0xA3, 0x00]
        XCTAssertThrowsError(try template.parse())
    }

    func testBasicConstraintsWithExplicitCAFalseIsReadAsNotACAAndRecorded() throws {
        // Apple's SecCEPBasicConstraints reads cA with DERParseBooleanWithDefault: FALSE written out is
        // not a CA. DER omits it (X.690 §11.5), so it is an encoding finding.
        var template = try CertificateTemplate.load()
        let value = B.sequence(B.boolean(false))
        template.setExtension(TestOID.basicConstraints, critical: true, value: value)
        let der = template.der
        let certificate = try Certificate(derEncoded: der)
        XCTAssertEqual(certificate.extensions.basicConstraints?.isCA, false)
        XCTAssertNil(certificate.extensions.basicConstraints?.pathLengthConstraint)
        XCTAssertFalse(certificate.isCA)
        // The BOOLEAN is the first element inside the SEQUENCE (a 2-octet header) in the extnValue.
        let valueOffset = try XCTUnwrap(lastOffset(of: B.octetString(value), in: der)) + 2
        XCTAssertEqual(certificate.encodingFindings, [.explicitCAFalse(offset: valueOffset + 2)])
        // A non-DER BOOLEAN stays refused (Apple's DERParseBoolean accepts only 0x00 and 0xFF).
        template.setExtension(TestOID.basicConstraints, critical: true, value: B.sequence([0x01, 0x01, 0x01]))
        assertMalformed(template, name: "basicConstraints")
        template.setExtension(TestOID.basicConstraints, critical: true, value: B.sequence(B.boolean(true), B.integer(0), B.null))
        assertMalformed(template, name: "basicConstraints")
    }

    func testKeyUsageWithoutBitsOrWithUnknownBitsIsRejectedAndTrailingZeroBitsAreTolerated() throws {
        var template = try CertificateTemplate.load()
        // No bits at all.
        template.setExtension(TestOID.keyUsage, critical: true, value: B.bitString([]))
        assertMalformed(template, name: "keyUsage")
        // One octet, all bits zero.
        template.setExtension(TestOID.keyUsage, critical: true, value: B.bitString([0x00], unusedBits: 7))
        assertMalformed(template, name: "keyUsage")
        // A bit beyond decipherOnly (bit 9) is set.
        template.setExtension(TestOID.keyUsage, critical: true, value: B.bitString([0x80, 0x40], unusedBits: 6))
        assertMalformed(template, name: "keyUsage")
        // Trailing zero bits (non-canonical per X.690 §11.2.2, but carried by deployed roots) keep the value.
        template.setExtension(TestOID.keyUsage, critical: true, value: B.bitString([0x80, 0x00]))
        XCTAssertEqual(try template.parse().extensions.keyUsage, .digitalSignature)
        template.setExtension(TestOID.keyUsage, critical: true, value: B.bitString([0x80], unusedBits: 0))
        XCTAssertEqual(try template.parse().extensions.keyUsage, .digitalSignature)
        // The canonical encoding is accepted.
        template.setExtension(TestOID.keyUsage, critical: true, value: B.bitString([0x80], unusedBits: 7))
        XCTAssertEqual(try template.parse().extensions.keyUsage, .digitalSignature)
    }

    func testEmptyExtendedKeyUsageIsRejected() throws {
        var template = try CertificateTemplate.load()
        template.setExtension(TestOID.extKeyUsage, value: B.sequence())
        assertMalformed(template, name: "extKeyUsage")
    }

    func testEmptyNameConstraintsAreRejected() throws {
        var template = try CertificateTemplate.load("ecdsa/intermediate.pem")
        template.setExtension(TestOID.nameConstraints, critical: true, value: B.sequence())
        assertMalformed(template, name: "nameConstraints")
        // An empty permitted list is rejected as well.
        template.setExtension(TestOID.nameConstraints, critical: true, value: B.sequence(B.context(0, constructed: true, [])))
        assertMalformed(template, name: "nameConstraints")
        // maximum must be absent (RFC 5280 §4.2.1.10), as Apple's parseGeneralSubtrees requires.
        template.setExtension(
            TestOID.nameConstraints, critical: true,
            value: B.sequence(
                B.context(0, constructed: true, B.sequence(B.dnsName("swifttrust.test"), B.context(1, constructed: false, [0x01])))))
        assertMalformed(template, name: "nameConstraints")
        // minimum must be 0: any other value is refused, as Apple refuses it.
        for minimum: [UInt8] in [[0x01], [0xFF], [0x00, 0x00]] {
            template.setExtension(
                TestOID.nameConstraints, critical: true,
                value: B.sequence(
                    B.context(0, constructed: true, B.sequence(B.dnsName("swifttrust.test"), B.context(0, constructed: false, minimum)))))
            assertMalformed(template, name: "nameConstraints")
        }
    }

    func testGeneralSubtreeWithExplicitMinimumZeroIsReadAsOmittedAndRecorded() throws {
        // minimum DEFAULT 0 written out: Apple's parseGeneralSubtrees accepts it ("absence equivalent
        // to present and 0"); DER omits it (X.690 §11.5), so it is an encoding finding.
        var template = try CertificateTemplate.load("ecdsa/intermediate.pem")
        let minimum = B.context(0, constructed: false, [0x00])
        let subtree = B.sequence(B.dnsName("swifttrust.test"), minimum)
        template.setExtension(
            TestOID.nameConstraints, critical: true,
            value: B.sequence(
                B.context(0, constructed: true, subtree), B.context(1, constructed: true, B.sequence(B.dnsName("bad.swifttrust.test")))))
        let der = template.der
        let certificate = try Certificate(derEncoded: der)
        let constraints = try XCTUnwrap(certificate.extensions.nameConstraints)
        XCTAssertEqual(constraints.permittedSubtrees, [.dnsName("swifttrust.test")])
        XCTAssertEqual(constraints.excludedSubtrees, [.dnsName("bad.swifttrust.test")])
        let minimumOffset = try XCTUnwrap(lastOffset(of: subtree, in: der)) + subtree.count - minimum.count
        XCTAssertEqual(certificate.encodingFindings, [.explicitSubtreeMinimumZero(offset: minimumOffset)])
    }

    func testAuthorityKeyIdentifierWithIssuerButNoSerialIsRejected() throws {
        var template = try CertificateTemplate.load()
        template.setExtension(
            TestOID.authorityKeyIdentifier,
            value: B.sequence(
                B.context(0, constructed: false, [1, 2, 3]),
                B.context(1, constructed: true, B.directoryName(B.name([(TestOID.commonName, "Issuer")])))
            ))
        assertMalformed(template, name: "authorityKeyIdentifier")
        // Serial without issuer.
        template.setExtension(TestOID.authorityKeyIdentifier, value: B.sequence(B.context(2, constructed: false, [0x01])))
        assertMalformed(template, name: "authorityKeyIdentifier")
    }

    func testCertificatePoliciesWithDuplicateOIDIsRejected() throws {
        var template = try CertificateTemplate.load()
        template.setExtension(
            TestOID.certificatePolicies,
            value: B.sequence(
                B.sequence(B.oid("2.23.140.1.2.1")), B.sequence(B.oid("2.23.140.1.2.1"))
            ))
        assertMalformed(template, name: "certificatePolicies")
        template.setExtension(TestOID.certificatePolicies, value: B.sequence())
        assertMalformed(template, name: "certificatePolicies")
    }

    func testEmptyPolicyConstraintsAreRejected() throws {
        var template = try CertificateTemplate.load("ecdsa/intermediate.pem")
        template.setExtension(TestOID.policyConstraints, critical: true, value: B.sequence())
        assertMalformed(template, name: "policyConstraints")
    }

    func testUnknownExtensionsAreKeptRawWithCriticality() throws {
        var template = try CertificateTemplate.load()
        template.setExtension("1.3.6.1.4.1.55555.7", critical: true, value: [0x04, 0x02, 0xCA, 0xFE])
        template.setExtension("1.3.6.1.4.1.55555.8", value: [0x05, 0x00])
        let certificate = try template.parse()
        let critical = try XCTUnwrap(certificate.extensions[oid("1.3.6.1.4.1.55555.7")])
        XCTAssertTrue(critical.isCritical)
        XCTAssertEqual(Array(critical.value), [0x04, 0x02, 0xCA, 0xFE])
        let plain = try XCTUnwrap(certificate.extensions[oid("1.3.6.1.4.1.55555.8")])
        XCTAssertFalse(plain.isCritical)
        XCTAssertEqual(Array(plain.value), [0x05, 0x00])
        XCTAssertEqual(certificate.extensions.all.count, 10)
        XCTAssertEqual(certificate.extensions.all.suffix(2).map(\.oid.dotted), ["1.3.6.1.4.1.55555.7", "1.3.6.1.4.1.55555.8"])
        let known: Set<ASN1ObjectIdentifier> = Set(certificate.extensions.all.prefix(8).map(\.oid))
        XCTAssertEqual(certificate.extensions.criticalExtensions(notIn: known).map(\.oid.dotted), ["1.3.6.1.4.1.55555.7"])
        // Known views are unaffected.
        XCTAssertEqual(certificate.dnsNames, ["www.swifttrust.test"])
    }

    func testExtensionsRequireVersion3() throws {
        // v1: version omitted.
        var template = try CertificateTemplate.load()
        template.version = nil
        assertX509Error(try template.parse()) { error in
            guard case let .invalidStructure(what, _) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(what.contains("version 3"), what)
        }
        // v2.
        template.version = B.explicit(0, B.integer(1))
        assertX509Error(try template.parse()) { error in
            guard case .invalidStructure = error.reason else { return XCTFail("\(error)") }
        }
        // v2 without extensions parses.
        template.extensions = nil
        XCTAssertEqual(try template.parse().version, 2)
        // v1 explicitly encoded as 0 is not DER (DEFAULT).
        template.version = B.explicit(0, B.integer(0))
        XCTAssertThrowsError(try template.parse())
    }

    func testSignatureBitStringWithUnusedBitsIsADefect() throws {
        var template = try CertificateTemplate.load()
        let element = try DERReader.parseSingle(template.signatureValue)
        var octets = Array(try element.bitString().bytes)
        octets[octets.count - 1] &= 0xFE // keep the padding bit zero so only the unused-bits rule applies
        template.signatureValue = B.bitString(octets, unusedBits: 1)
        // PKITS's BadSignedCACert is built so; OpenSSL and pyca parse it and fail its signature.
        XCTAssertEqual(
            try template.parse().semanticDefects,
            [.signatureNotWholeOctets(offset: template.der.count - template.signatureValue.count)])
        // Non-zero padding bits are a DER error.
        octets[octets.count - 1] |= 0x01
        template.signatureValue = B.bitString(octets, unusedBits: 1)
        assertX509Error(try template.parse()) { error in
            guard case let .der(derError) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(derError.rule, .invalidBitString)
        }
    }
}
