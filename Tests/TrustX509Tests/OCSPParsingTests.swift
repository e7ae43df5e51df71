import Foundation
import TrustCrypto
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

final class OCSPParsingTests: XCTestCase {
    private func response(_ name: String) throws -> OCSPResponse {
        try OCSPResponse(derEncoded: TestCertificates.bytes("revocation/\(name).ocsp"))
    }

    private let producedAt = RevocationFixtures.date(2026, 5, 31)
    private let nextUpdate = RevocationFixtures.date(2026, 6, 7)

    // MARK: Every fixture parses

    func testEveryResponseParses() throws {
        let intermediate = try TestCertificates.certificate("ecdsa/intermediate.pem")
        for name in RevocationFixtures.ocspNames {
            let der = try TestCertificates.bytes("revocation/\(name).ocsp")
            let parsed = try OCSPResponse(derEncoded: der)
            XCTAssertEqual(parsed.derEncoded, der, name)
            XCTAssertEqual(parsed.status, .successful, name)
            XCTAssertEqual(parsed.responses.count, 1, name)
            XCTAssertNil(parsed.nonce, "\(name): no nonce")
            XCTAssertEqual(try parsed.signatureAlgorithm(), .ecdsa(.sha256), name)
            XCTAssertFalse(parsed.signature.isEmpty, name)
            XCTAssertEqual(try RevocationTLV.parse(der).der, der, name)
            // tbsResponseData is exactly the ResponseData inside responseBytes' OCTET STRING.
            let basic = try RevocationTLV.parse(der)[1][0][1].parsedContent()
            XCTAssertEqual(Array(parsed.tbsResponseData), basic[0].der, name)
            // The CertID names the intermediate as issuer in every fixture (hash recomputed).
            let certID = try XCTUnwrap(parsed.responses.first?.certID)
            XCTAssertEqual(certID.issuerNameHash, Digest.hash(certID.hashAlgorithm, intermediate.subject.der), name)
            XCTAssertEqual(certID.issuerKeyHash, Digest.hash(certID.hashAlgorithm, intermediate.publicKeyInfo.keyBytes), name)
        }
    }

    // MARK: Fields

    func testGoodResponseFields() throws {
        let parsed = try response("good-leaf-good")
        let intermediate = try TestCertificates.certificate("ecdsa/intermediate.pem")
        let goodLeaf = try TestCertificates.certificate("revocation/good-leaf.pem")
        XCTAssertEqual(parsed.responderID, .byName(intermediate.subject))
        XCTAssertEqual(parsed.producedAt, producedAt)
        XCTAssertEqual(parsed.certificates, [])
        let single = try XCTUnwrap(parsed.responses.first)
        XCTAssertEqual(single.status, .good)
        XCTAssertEqual(single.thisUpdate, producedAt)
        XCTAssertEqual(single.nextUpdate, nextUpdate)
        XCTAssertEqual(single.certID.hashAlgorithm, .sha1)
        XCTAssertEqual(single.certID.serialNumber, try RevocationFixtures.goodLeafSerial())
        XCTAssertEqual(single.certID, OCSPCertID(certificate: goodLeaf, issuer: intermediate, hash: .sha1))
        XCTAssertTrue(single.certID.identifies(goodLeaf, issuedBy: intermediate))
        XCTAssertFalse(single.certID.identifies(try TestCertificates.certificate("revocation/revoked-leaf.pem"), issuedBy: intermediate))
        XCTAssertFalse(single.certID.identifies(goodLeaf, issuedBy: try TestCertificates.certificate("ecdsa/root.pem")))
        // Same name, different key: the issuerKeyHash does not match.
        XCTAssertFalse(single.certID.identifies(goodLeaf, issuedBy: try TestCertificates.certificate("revocation/crl-signer-other.pem")))
    }

    func testRevokedResponseFields() throws {
        let parsed = try response("revoked-leaf-revoked")
        let single = try XCTUnwrap(parsed.responses.first)
        XCTAssertEqual(single.status, .revoked(time: RevocationFixtures.revocationDate, reason: .keyCompromise))
        XCTAssertEqual(single.certID.serialNumber, try RevocationFixtures.revokedLeafSerial())
        XCTAssertEqual(single.thisUpdate, producedAt)
        XCTAssertEqual(single.nextUpdate, nextUpdate)
        XCTAssertEqual(parsed.certificates, [])
    }

    func testUnknownResponseFields() throws {
        let parsed = try response("unknown")
        let leaf = try TestCertificates.certificate("ecdsa/leaf.pem")
        let single = try XCTUnwrap(parsed.responses.first)
        XCTAssertEqual(single.status, .unknown)
        XCTAssertEqual(single.certID.serialNumber, Array(leaf.serialNumber))
        XCTAssertEqual(single.certID.serialNumber, try OpenSSLFacts.serialNumber("ecdsa/leaf.pem"))
        XCTAssertTrue(single.certID.identifies(leaf, issuedBy: try TestCertificates.certificate("ecdsa/intermediate.pem")))
    }

    func testExpiredResponseFields() throws {
        let parsed = try response("good-leaf-expired")
        XCTAssertEqual(parsed.producedAt, RevocationFixtures.date(2026, 5, 1))
        let single = try XCTUnwrap(parsed.responses.first)
        XCTAssertEqual(single.status, .good)
        XCTAssertEqual(single.thisUpdate, RevocationFixtures.date(2026, 5, 1))
        XCTAssertEqual(single.nextUpdate, RevocationFixtures.date(2026, 5, 8))
    }

    func testDelegatedAndUnauthorisedResponsesEmbedTheirSigner() throws {
        let responder = try TestCertificates.certificate("revocation/ocsp-responder.pem")
        let delegated = try response("good-leaf-delegated")
        XCTAssertEqual(delegated.responderID, .byName(responder.subject))
        XCTAssertEqual(delegated.certificates, [responder])
        XCTAssertEqual(delegated.responses.first?.status, .good)
        XCTAssertEqual(delegated.producedAt, producedAt)

        let unauthorisedSigner = try TestCertificates.certificate("revocation/unauthorised-responder.pem")
        let unauthorised = try response("good-leaf-unauthorised")
        XCTAssertEqual(unauthorised.responderID, .byName(unauthorisedSigner.subject))
        XCTAssertEqual(unauthorised.certificates, [unauthorisedSigner])
        XCTAssertEqual(unauthorised.responses.first?.status, .good)
    }

    func testSHA256CertID() throws {
        let parsed = try response("good-leaf-sha256-certid")
        let goodLeaf = try TestCertificates.certificate("revocation/good-leaf.pem")
        let intermediate = try TestCertificates.certificate("ecdsa/intermediate.pem")
        let certID = try XCTUnwrap(parsed.responses.first?.certID)
        XCTAssertEqual(certID.hashAlgorithm, .sha256)
        XCTAssertEqual(certID.issuerNameHash.count, 32)
        XCTAssertEqual(certID, OCSPCertID(certificate: goodLeaf, issuer: intermediate, hash: .sha256))
        XCTAssertNotEqual(certID, OCSPCertID(certificate: goodLeaf, issuer: intermediate, hash: .sha1))
        XCTAssertTrue(certID.identifies(goodLeaf, issuedBy: intermediate))
        XCTAssertEqual(parsed.responses.first?.status, .good)
    }

    func testResponderIDByKey() throws {
        // Re-encode good-leaf-good with responderID byKey (SHA-1 of the intermediate's key); the
        // signature no longer matches, but the structure parses.
        let intermediate = try TestCertificates.certificate("ecdsa/intermediate.pem")
        var tree = try RevocationTLV.parse(TestCertificates.bytes("revocation/good-leaf-good.ocsp"))
        var basic = try tree[1][0][1].parsedContent()
        XCTAssertEqual(basic[0][0].tag, 0xA1, "byName")
        let keyHash = Digest.sha1(intermediate.publicKeyInfo.keyBytes)
        basic[0][0] = .constructed(0xA2, [.octetString(keyHash)])
        tree[1][0][1] = .octetString(basic.der)
        let parsed = try OCSPResponse(derEncoded: tree.der)
        XCTAssertEqual(parsed.responderID, .byKey(keyHash))
    }

    // MARK: Non-successful statuses and malformed responses

    func testNonSuccessfulStatuses() throws {
        let cases: [(UInt8, OCSPResponse.ResponseStatus)] = [
            (1, .malformedRequest), (2, .internalError), (3, .tryLater), (5, .sigRequired), (6, .unauthorized),
        ]
        for (raw, expected) in cases {
            let der: [UInt8] = [0x30, 0x03, 0x0A, 0x01, raw]
            let parsed = try OCSPResponse(derEncoded: der)
            XCTAssertEqual(parsed.status, expected)
            XCTAssertNil(parsed.responderID)
            XCTAssertNil(parsed.producedAt)
            XCTAssertEqual(parsed.responses, [])
            XCTAssertEqual(parsed.certificates, [])
            XCTAssertTrue(parsed.signature.isEmpty)
            XCTAssertEqual(parsed.derEncoded, der)
        }
        XCTAssertEqual(try OCSPResponse(derEncoded: [0x30, 0x03, 0x0A, 0x01, 0x03]).status, .tryLater)
    }

    func testMalformedResponsesAreRejected() throws {
        // Status 4 is not used; 7 does not exist.
        for raw: UInt8 in [4, 7] {
            XCTAssertThrowsError(try OCSPResponse(derEncoded: [0x30, 0x03, 0x0A, 0x01, raw])) { error in
                XCTAssertTrue("\(error)".contains("invalid OCSPResponseStatus \(raw)"), "\(error)")
            }
        }
        // successful without responseBytes.
        XCTAssertThrowsError(try OCSPResponse(derEncoded: [0x30, 0x03, 0x0A, 0x01, 0x00])) { error in
            XCTAssertTrue("\(error)".contains("without responseBytes"), "\(error)")
        }
        // INTEGER instead of ENUMERATED.
        XCTAssertThrowsError(try OCSPResponse(derEncoded: [0x30, 0x03, 0x02, 0x01, 0x03]))
        // Truncated and trailing bytes.
        let der = try TestCertificates.bytes("revocation/good-leaf-good.ocsp")
        XCTAssertThrowsError(try OCSPResponse(derEncoded: Array(der.dropLast())))
        XCTAssertThrowsError(try OCSPResponse(derEncoded: der + [0]))

        // An unknown response type.
        var tree = try RevocationTLV.parse(der)
        tree[1][0][0] = .oid("1.3.6.1.5.5.7.48.1.99")
        XCTAssertThrowsError(try OCSPResponse(derEncoded: tree.der)) { error in
            XCTAssertTrue("\(error)".contains("unsupported OCSP response type"), "\(error)")
        }

        // A CertID hashed with an unsupported algorithm (MD5).
        var md5 = try RevocationTLV.parse(der)
        var basic = try md5[1][0][1].parsedContent()
        // ResponseData: responderID, producedAt, responses; responses[0] = SingleResponse; [0] = CertID.
        basic[0][2][0][0][0] = .sequence([.oid("1.2.840.113549.2.5"), .null])
        md5[1][0][1] = .octetString(basic.der)
        XCTAssertThrowsError(try OCSPResponse(derEncoded: md5.der)) { error in
            XCTAssertTrue("\(error)".contains("unsupported CertID hash"), "\(error)")
        }
    }

    func testCriticalExtensionsAndNonce() throws {
        let der = try TestCertificates.bytes("revocation/good-leaf-good.ocsp")
        func withResponseExtensions(_ extensions: [RevocationTLV]) throws -> [UInt8] {
            var tree = try RevocationTLV.parse(der)
            var basic = try tree[1][0][1].parsedContent()
            basic[0].children.append(.constructed(0xA1, [.sequence(extensions)]))
            tree[1][0][1] = .octetString(basic.der)
            return tree.der
        }
        let nonce: [UInt8] = Array(1...16)
        let withNonce = try OCSPResponse(
            derEncoded: try withResponseExtensions([
                .extension("1.3.6.1.5.5.7.48.1.2", critical: false, value: RevocationTLV.octetString(nonce).der)
            ]))
        XCTAssertEqual(withNonce.nonce, nonce)
        XCTAssertThrowsError(
            try OCSPResponse(
                derEncoded: try withResponseExtensions([
                    .extension("1.3.6.1.4.1.55555.7", critical: true, value: RevocationTLV.null.der)
                ]))
        ) { error in
            XCTAssertTrue("\(error)".contains("unknown critical OCSP response extension"), "\(error)")
        }
        // Control: the same extension, not critical, is ignored.
        XCTAssertNoThrow(
            try OCSPResponse(
                derEncoded: try withResponseExtensions([
                    .extension("1.3.6.1.4.1.55555.7", critical: false, value: RevocationTLV.null.der)
                ])))
    }

    func testDamagedInputNeverCrashes() throws {
        // Every truncation and every single-octet corruption of the small fixtures either parses or
        // throws; none may trap.
        var files = RevocationFixtures.ocspNames.map { "revocation/\($0).ocsp" }
        files += RevocationFixtures.crlNames.filter { $0 != "intermediate-large" }.map { "revocation/\($0).crl" }
        var parsedDamaged = 0
        for file in files {
            let der = try TestCertificates.bytes(file)
            let isCRL = file.hasSuffix(".crl")
            func attempt(_ bytes: [UInt8]) {
                if isCRL {
                    if (try? CertificateRevocationList(derEncoded: bytes)) != nil { parsedDamaged += 1 }
                } else {
                    if (try? OCSPResponse(derEncoded: bytes)) != nil { parsedDamaged += 1 }
                }
            }
            for length in 0..<der.count { attempt(Array(der.prefix(length))) }
            for index in der.indices {
                for mask: UInt8 in [0x01, 0x80, 0xFF] {
                    var damaged = der
                    damaged[index] ^= mask
                    attempt(damaged)
                }
            }
        }
        // Flips inside signatures, hashes, serials and strings still parse: the loop did run.
        XCTAssertGreaterThan(parsedDamaged, 0)
    }

    // MARK: OCSPRequest

    /// The nonce inside good-leaf.ocsp-request: tbsRequest [2] { Extensions { Extension { id, OCTET STRING { OCTET STRING nonce } } } }.
    private func requestNonce(_ request: RevocationTLV) throws -> [UInt8] {
        let tbs = request[0]
        let wrapper = try XCTUnwrap(tbs.children.first { $0.tag == 0xA2 })
        let nonceExtension = try XCTUnwrap(wrapper[0].children.first { $0[0] == .oid("1.3.6.1.5.5.7.48.1.2") })
        let inner = try nonceExtension[nonceExtension.children.count - 1].parsedContent()
        XCTAssertEqual(inner.tag, 0x04, "the nonce is an OCTET STRING inside the extnValue OCTET STRING")
        return inner.content
    }

    func testRequestMatchesOpenSSLByteForByte() throws {
        let file = try TestCertificates.bytes("revocation/good-leaf.ocsp-request")
        let fileTree = try RevocationTLV.parse(file)
        let nonce = try requestNonce(fileTree)
        XCTAssertEqual(nonce.count, 16)

        let goodLeaf = try TestCertificates.certificate("revocation/good-leaf.pem")
        let intermediate = try TestCertificates.certificate("ecdsa/intermediate.pem")
        let certID = OCSPCertID(certificate: goodLeaf, issuer: intermediate, hash: .sha1)
        let expected = try OpenSSLFacts.sha1CertID(certificate: "revocation/good-leaf.pem", issuer: "ecdsa/intermediate.pem")
        XCTAssertEqual(certID.issuerNameHash, expected.issuerNameHash)
        XCTAssertEqual(certID.issuerKeyHash, expected.issuerKeyHash)
        XCTAssertEqual(certID.serialNumber, try OpenSSLFacts.serialNumber("revocation/good-leaf.pem"))
        let request = OCSPRequest(certIDs: [certID], nonce: nonce)
        let ours = try RevocationTLV.parse(request.derEncoded)
        XCTAssertEqual(ours[0].der, fileTree[0].der, "the TBSRequest is byte for byte OpenSSL's")
        XCTAssertEqual(request.derEncoded, file, "an unsigned request is OCSPRequest { tbsRequest }: the whole file")
    }

    func testRequestShapes() throws {
        let goodLeaf = try TestCertificates.certificate("revocation/good-leaf.pem")
        let revokedLeaf = try TestCertificates.certificate("revocation/revoked-leaf.pem")
        let intermediate = try TestCertificates.certificate("ecdsa/intermediate.pem")
        let a = OCSPCertID(certificate: goodLeaf, issuer: intermediate)
        let b = OCSPCertID(certificate: revokedLeaf, issuer: intermediate, hash: .sha256)
        // No nonce: no requestExtensions at all.
        let plain = try RevocationTLV.parse(OCSPRequest(certIDs: [a]).derEncoded)
        XCTAssertEqual(plain.children.count, 1)
        XCTAssertEqual(plain[0].children.map(\.tag), [0x30])
        // Two CertIDs: two Requests, each SEQUENCE { CertID }; the SHA-256 one names sha256 with NULL parameters.
        let two = try RevocationTLV.parse(OCSPRequest(certIDs: [a, b]).derEncoded)
        XCTAssertEqual(two[0][0].children.count, 2)
        XCTAssertEqual(two[0][0][1].children.count, 1)
        XCTAssertEqual(two[0][0][1][0][0], .sequence([.oid("2.16.840.1.101.3.4.2.1"), .null]))
        XCTAssertEqual(two[0][0][1][0][3], .primitive(0x02, try RevocationFixtures.revokedLeafSerial()))
        XCTAssertEqual(two[0][0][1][0][1], .octetString(Digest.sha256(intermediate.subject.der)))
    }

    func testOpenSSLParsesOurRequest() throws {
        guard let openssl = OCSPParsingTests.executable("openssl") else { throw XCTSkip("openssl is not installed") }
        let goodLeaf = try TestCertificates.certificate("revocation/good-leaf.pem")
        let revokedLeaf = try TestCertificates.certificate("revocation/revoked-leaf.pem")
        let intermediate = try TestCertificates.certificate("ecdsa/intermediate.pem")
        let nonce: [UInt8] = [0xA5, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F]
        let request = OCSPRequest(
            certIDs: [
                OCSPCertID(certificate: goodLeaf, issuer: intermediate),
                OCSPCertID(certificate: revokedLeaf, issuer: intermediate, hash: .sha256),
            ],
            nonce: nonce)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocsp-req-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("request.der")
        try Data(request.derEncoded).write(to: path)

        let (status, output) = try OCSPParsingTests.run(openssl, ["ocsp", "-reqin", path.path, "-req_text"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("Hash Algorithm: sha1"), output)
        XCTAssertTrue(output.contains("Hash Algorithm: sha256"), output)
        XCTAssertTrue(output.contains("Serial Number: \(try OpenSSLFacts.serialNumberHex("revocation/good-leaf.pem"))"), output)
        XCTAssertTrue(output.contains("Serial Number: \(try OpenSSLFacts.serialNumberHex("revocation/revoked-leaf.pem"))"), output)
        // The SHA-1 CertID's issuerKeyHash, as openssl computes it for a request of its own.
        let sha1CertID = try OpenSSLFacts.sha1CertID(certificate: "revocation/good-leaf.pem", issuer: "ecdsa/intermediate.pem")
        XCTAssertTrue(output.contains("Issuer Key Hash: \(hexString(sha1CertID.issuerKeyHash).uppercased())"), output)
        XCTAssertTrue(output.contains("OCSP Nonce"), output)
        // OpenSSL prints the extnValue: OCTET STRING (04 10) wrapping the 16 nonce octets.
        XCTAssertTrue(output.contains("0410" + hexString(nonce).uppercased()), output)
        XCTAssertFalse(output.lowercased().contains("error"), output)
    }

    func testDERWriterEncodings() throws {
        // Short and long definite lengths, at their boundaries.
        for (count, header) in [
            (0, [0x04, 0x00]), (127, [0x04, 0x7F]), (128, [0x04, 0x81, 0x80]), (255, [0x04, 0x81, 0xFF]),
            (256, [0x04, 0x82, 0x01, 0x00]), (65_536, [0x04, 0x83, 0x01, 0x00, 0x00]),
        ] as [(Int, [UInt8])] {
            var writer = DERWriter()
            writer.writeOctetString([UInt8](repeating: 0xAB, count: count))
            XCTAssertEqual(Array(writer.bytes.prefix(header.count)), header, "length \(count)")
            XCTAssertEqual(writer.bytes.count, header.count + count)
            XCTAssertEqual(try DERReader.parseSingle(writer.bytes).content.count, count)
        }
        // Tags: context-specific constructed and primitive, application, private, and high tag numbers.
        var tags = DERWriter()
        tags.write(.context(2, constructed: true)) { $0.writeNull() }
        tags.write(.context(0, constructed: false), content: [])
        tags.write(DERTag(.application, number: 1, constructed: false), content: [0x01])
        tags.write(DERTag(.private, number: 30, constructed: true), content: [])
        tags.write(DERTag(.contextSpecific, number: 31, constructed: false), content: [])
        tags.write(DERTag(.contextSpecific, number: 201, constructed: true), content: [])
        tags.write(DERTag(.universal, number: 16_384, constructed: false), content: [])
        XCTAssertEqual(
            tags.bytes,
            [
                0xA2, 0x02, 0x05, 0x00, 0x80, 0x00, 0x41, 0x01, 0x01, 0xFE, 0x00,
                0x9F, 0x1F, 0x00, 0xBF, 0x81, 0x49, 0x00, 0x1F, 0x81, 0x80, 0x00, 0x00,
            ])
        // Nested structures, OIDs, integers and pre-encoded elements.
        var nested = DERWriter()
        nested.sequence { outer in
            outer.write(ASN1ObjectIdentifier(dotted: "1.3.14.3.2.26")!)
            outer.writeIntegerBytes([0x00, 0x80])
            outer.writeEncoded([0x05, 0x00])
        }
        XCTAssertEqual(nested.bytes, [0x30, 0x0D, 0x06, 0x05, 0x2B, 0x0E, 0x03, 0x02, 0x1A, 0x02, 0x02, 0x00, 0x80, 0x05, 0x00])
        let element = try DERReader.parseSingle(nested.bytes)
        XCTAssertEqual(element.tag, .sequence)
    }

    // MARK: Process helpers

    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
