import Foundation
import TrustCrypto
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

/// Every committed test certificate parses; every malformed input is rejected for the right reason.
final class TestCertificatesParseTests: XCTestCase {
    /// Files holding more than one certificate (TestCertificates/README.md); every other file holds one.
    static let bundleCounts: [String: Int] = [
        "bundle-all-valid.pem": 7,
        "ecdsa/chain.pem": 2,
        "ecdsa/chain-intermediate2.pem": 2,
        "rsa/chain.pem": 2,
        "ed25519/chain.pem": 2,
        "scenarios/chain-wrong-order.pem": 2,
        "scenarios/chain-with-root.pem": 3,
        "scenarios/chain-with-duplicate.pem": 3,
        "scenarios/chain-leaf-only.pem": 1,
    ]

    /// The certificate files the catalogue (TestCertificates/README.md, written by the generator)
    /// documents: table rows whose first cell is one `.pem`/`.der` path, minus keys, `malformed/` and CRLs.
    private func cataloguedCertificateFiles() throws -> [String] {
        let readme = String(decoding: try TestCertificates.bytes("README.md"), as: UTF8.self)
        let paths = readme.split(separator: "\n").compactMap { line -> String? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard line.hasPrefix("| `"), cells.count > 2 else { return nil }
            let first = cells[1].trimmingCharacters(in: .whitespaces)
            guard first.count > 2, first.hasPrefix("`"), first.hasSuffix("`") else { return nil }
            let path = String(first.dropFirst().dropLast())
            guard !path.contains("`") else { return nil } // a cell naming several files (the CRL table)
            return path
        }
        return paths.filter { path in
            (path.hasSuffix(".pem") || path.hasSuffix(".der"))
                && !path.hasPrefix("keys/") && !path.contains("/keys/") && !path.hasPrefix("malformed/")
                && !path.hasSuffix(".crl.pem")
        }.sorted()
    }

    func testDiscoversTheCertificateFiles() throws {
        let files = try TestCertificates.certificateFiles()
        // Exactly the documented files: the number grows as scenarios are added, so it comes from the catalogue.
        let catalogued = try cataloguedCertificateFiles()
        XCTAssertEqual(Set(catalogued).count, catalogued.count, "the catalogue lists a file twice")
        XCTAssertEqual(files.count, catalogued.count, "\(files)")
        XCTAssertEqual(files, catalogued)
        XCTAssertTrue(files.contains("ecdsa/leaf.der"))
        XCTAssertTrue(files.contains("bundle-all-valid.pem"))
        XCTAssertFalse(files.contains { $0.hasPrefix("keys/") || $0.hasPrefix("malformed/") })
        for path in Self.bundleCounts.keys { XCTAssertTrue(files.contains(path), "missing \(path)") }
    }

    func testEveryCertificateFileParses() throws {
        let files = try TestCertificates.certificateFiles()
        XCTAssertFalse(files.isEmpty)
        for path in files {
            let bytes = try TestCertificates.bytes(path)
            do {
                let certificates = try Certificate.loadAll(from: bytes)
                XCTAssertEqual(certificates.count, Self.bundleCounts[path] ?? 1, path)
                for (index, certificate) in certificates.enumerated() {
                    let context = "\(path) #\(index + 1)"
                    XCTAssertTrue([1, 3].contains(certificate.version), context)
                    XCTAssertFalse(certificate.subject.isEmpty, context)
                    XCTAssertFalse(certificate.issuer.isEmpty, context)
                    XCTAssertLessThan(certificate.notBefore, certificate.notAfter, context)
                    XCTAssertFalse(certificate.serialNumberIsNegative, context)
                    XCTAssertFalse(certificate.serialNumberIsZero, context)
                    XCTAssertFalse(certificate.serialNumberIsOverlong, context)
                    XCTAssertFalse(certificate.signature.isEmpty, context)
                    XCTAssertNotNil(certificate.publicKeyDescription, context)
                    // A copy whose libcrypto key is built first describes its key from that key's
                    // parse: the same description as the SPKI's own.
                    let keyFirst = try Certificate(derEncoded: certificate.derEncoded)
                    if let key = try? keyFirst.verificationKey() {
                        XCTAssertEqual(key.description, certificate.publicKeyDescription, context)
                        XCTAssertEqual(keyFirst.publicKeyDescription, certificate.publicKeyDescription, context)
                    }
                    // Re-parsing the kept DER yields the same certificate.
                    XCTAssertEqual(try Certificate(derEncoded: certificate.derEncoded), certificate, context)
                    // The tbsCertificate bytes are a slice of the DER starting right after the outer header.
                    XCTAssertTrue(
                        certificate.derEncoded[certificate.tbsCertificateBytes.indices]
                            .elementsEqual(certificate.tbsCertificateBytes), context)
                    XCTAssertEqual(certificate.tbsCertificateBytes.first, 0x30, context)
                }
            } catch {
                XCTFail("\(path): \(error)")
            }
        }
    }

    /// A certificate owns its bytes: two certificates parsed from one array (on two threads, say)
    /// must not share a buffer whose reference count every slice of both would update.
    func testCertificatesParsedFromOneArrayOwnTheirBytes() throws {
        let der = try TestCertificates.bytes("ecdsa/leaf.der")
        let first = try Certificate(derEncoded: der), second = try Certificate(derEncoded: der)
        let input = der.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let buffers = [first, second].map { $0.derEncoded.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        XCTAssertFalse(buffers.contains(input))
        XCTAssertNotEqual(buffers[0], buffers[1])
        XCTAssertEqual(first.derEncoded, der)
    }

    func testCacheKeyWordsAreTheDigestsWhicheverIsReadFirst() throws {
        for path in ["ecdsa/leaf.pem", "rsa/intermediate.pem"] {
            // Words first (they compute and store the digest), then the bytes; and the other way round.
            let wordsFirst = try TestCertificates.certificate(path)
            let words = wordsFirst.sha256Words, keyWords = wordsFirst.spkiSHA256Words
            XCTAssertEqual(words, DigestWords(wordsFirst.sha256Fingerprint))
            XCTAssertEqual(keyWords, DigestWords(wordsFirst.spkiSHA256))
            let bytesFirst = try TestCertificates.certificate(path)
            XCTAssertEqual(bytesFirst.sha256Fingerprint, Digest.sha256(bytesFirst.derEncoded))
            XCTAssertEqual(bytesFirst.spkiSHA256, Digest.sha256(bytesFirst.publicKeyInfo.der))
            XCTAssertEqual(bytesFirst.sha256Words, words)
            XCTAssertEqual(bytesFirst.spkiSHA256Words, keyWords)
        }
    }

    func testPEMAndDERCopiesOfTheLeafAreTheSameCertificate() throws {
        let fromDER = try TestCertificates.certificates("ecdsa/leaf.der")
        let fromPEM = try TestCertificates.certificates("ecdsa/leaf.pem")
        XCTAssertEqual(fromDER.count, 1)
        XCTAssertEqual(fromDER, fromPEM)
        XCTAssertEqual(fromDER.first?.derEncoded, try TestCertificates.bytes("ecdsa/leaf.der"))
        let text = try XCTUnwrap(String(data: Data(try TestCertificates.bytes("ecdsa/leaf.pem")), encoding: .utf8))
        XCTAssertEqual(try Certificate(pemEncoded: text), fromDER.first)
        XCTAssertEqual(try Certificate.loadAll(pem: text), fromDER)
    }

    func testBundlesHoldTheDocumentedCertificatesInOrder() throws {
        func load(_ paths: [String]) throws -> [Certificate] { try paths.map { try TestCertificates.certificate($0) } }
        XCTAssertEqual(try TestCertificates.certificates("ecdsa/chain.pem"), try load(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"]))
        XCTAssertEqual(
            try TestCertificates.certificates("ecdsa/chain-intermediate2.pem"),
            try load(["ecdsa/leaf-intermediate2.pem", "ecdsa/intermediate2.pem"]))
        XCTAssertEqual(try TestCertificates.certificates("rsa/chain.pem"), try load(["rsa/leaf.pem", "rsa/intermediate.pem"]))
        XCTAssertEqual(try TestCertificates.certificates("ed25519/chain.pem"), try load(["ed25519/leaf.pem", "ed25519/intermediate.pem"]))
        XCTAssertEqual(
            try TestCertificates.certificates("scenarios/chain-wrong-order.pem"),
            try load(["ecdsa/intermediate.pem", "ecdsa/leaf.pem"]))
        XCTAssertEqual(
            try TestCertificates.certificates("scenarios/chain-with-root.pem"),
            try load(["ecdsa/leaf.pem", "ecdsa/intermediate.pem", "ecdsa/root.pem"]))
        XCTAssertEqual(
            try TestCertificates.certificates("scenarios/chain-with-duplicate.pem"),
            try load(["ecdsa/leaf.pem", "ecdsa/intermediate.pem", "ecdsa/intermediate.pem"]))
        XCTAssertEqual(try TestCertificates.certificates("scenarios/chain-leaf-only.pem"), try load(["ecdsa/leaf.pem"]))
        // Commentary (`Bag Attributes`, `subject=` lines) between the blocks is ignored.
        XCTAssertEqual(
            try TestCertificates.certificates("bundle-all-valid.pem"),
            try load([
                "ecdsa/root.pem", "ecdsa/intermediate.pem", "ecdsa/leaf.pem",
                "rsa/root.pem", "rsa/intermediate.pem", "rsa/leaf.pem", "ed25519/leaf.pem",
            ]))
    }

    func testMalformedDirectoryHoldsExactlyTheDocumentedFiles() throws {
        let files = try TestCertificates.files(under: TestCertificates.url("malformed"))
        XCTAssertEqual(
            files,
            [
                "malformed/bad-base64.pem", "malformed/indefinite-length.der", "malformed/not-a-certificate.pem",
                "malformed/trailing-bytes.der", "malformed/truncated.der",
            ])
    }

    // MARK: - malformed/

    /// Loads `path` expecting failure and returns the loading error.
    private func loadingError(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> CertificateLoadingError? {
        let bytes = try TestCertificates.bytes(path)
        do {
            let certificates = try Certificate.loadAll(from: bytes)
            XCTFail("\(path) parsed as \(certificates.count) certificate(s)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testTruncatedDERIsRejectedAsTruncated() throws {
        let bytes = try TestCertificates.bytes("malformed/truncated.der")
        // The first half of ecdsa/leaf.der, whose length changes with every regeneration.
        let original = try TestCertificates.bytes("ecdsa/leaf.der")
        XCTAssertEqual(bytes.count, original.count / 2)
        XCTAssertEqual(bytes, Array(original.prefix(original.count / 2)))
        // The outer SEQUENCE's header: 30, then a long-form length (0x8N and N octets) for a certificate.
        XCTAssertEqual(original.first, 0x30)
        let lengthByte = try XCTUnwrap(original.dropFirst().first)
        XCTAssertEqual(lengthByte & 0x80, 0x80, "long-form length")
        let headerLength = 2 + Int(lengthByte & 0x7F)
        let error = try XCTUnwrap(try loadingError("malformed/truncated.der"))
        XCTAssertEqual(error.index, 0)
        guard case let .der(derError) = error.error.reason else { return XCTFail("not a DER error: \(error)") }
        XCTAssertEqual(derError.rule, .truncated)
        // The outer SEQUENCE header claims the whole certificate's content; only about half of it follows.
        XCTAssertEqual(derError.offset, headerLength)
        XCTAssertEqual(error.error.offset, headerLength)
        XCTAssertTrue(error.description.hasPrefix("certificate 0: truncated"), error.description)
    }

    func testTrailingBytesAreRejectedAtTheOriginalLength() throws {
        let original = try TestCertificates.bytes("ecdsa/leaf.der")
        let bytes = try TestCertificates.bytes("malformed/trailing-bytes.der")
        XCTAssertEqual(bytes, original + [0x05, 0x00])
        let error = try XCTUnwrap(try loadingError("malformed/trailing-bytes.der"))
        guard case let .der(derError) = error.error.reason else { return XCTFail("not a DER error: \(error)") }
        XCTAssertEqual(derError.rule, .trailingBytes)
        // The original length changes with every regeneration (serial and signature lengths vary).
        XCTAssertEqual(derError.offset, original.count)
        XCTAssertTrue(error.description.hasSuffix("at byte \(original.count)"), error.description)
        // The typed initialiser reports the same.
        assertX509Error(try Certificate(derEncoded: bytes)) { error in
            XCTAssertEqual(error.reason, .der(DERError(.trailingBytes, at: original.count)))
        }
    }

    func testIndefiniteLengthIsRejectedAtByteOne() throws {
        let bytes = try TestCertificates.bytes("malformed/indefinite-length.der")
        XCTAssertEqual(Array(bytes.prefix(2)), [0x30, 0x80])
        XCTAssertEqual(Array(bytes.suffix(2)), [0x00, 0x00])
        let error = try XCTUnwrap(try loadingError("malformed/indefinite-length.der"))
        XCTAssertEqual(error.index, 0)
        XCTAssertEqual(error.error.reason, .der(DERError(.indefiniteLength, at: 1)))
    }

    func testBadBase64IsAPEMError() throws {
        let error = try XCTUnwrap(try loadingError("malformed/bad-base64.pem"))
        XCTAssertNil(error.index, "a PEM error concerns the input as a whole")
        guard case let .pem(pemError) = error.error.reason else { return XCTFail("not a PEM error: \(error)") }
        // The `!` is on the second base64 line, which is line 3 of the file.
        XCTAssertEqual(pemError, .invalidBase64(label: "CERTIFICATE", line: 3))
        XCTAssertNil(error.error.offset)
    }

    func testPrivateKeyBlockIsAnUnexpectedPEMBlock() throws {
        let error = try XCTUnwrap(try loadingError("malformed/not-a-certificate.pem"))
        XCTAssertNil(error.index, "no certificate at all: the input as a whole is wrong")
        XCTAssertEqual(error.error.reason, .unexpectedPEMBlock(label: "PRIVATE KEY", line: 1))
        XCTAssertTrue(error.description.contains("PRIVATE KEY"), error.description)
        // Through the single-certificate initialiser as well.
        let text = try XCTUnwrap(String(data: Data(try TestCertificates.bytes("malformed/not-a-certificate.pem")), encoding: .utf8))
        assertX509Error(try Certificate(pemEncoded: text)) { error in
            XCTAssertEqual(error.reason, .unexpectedPEMBlock(label: "PRIVATE KEY", line: 1))
        }
    }

    func testNoMalformedFileParses() throws {
        for path in try TestCertificates.files(under: TestCertificates.url("malformed")) {
            XCTAssertThrowsError(try Certificate.loadAll(from: TestCertificates.bytes(path)), path)
        }
    }

    func testPrivateKeysAreNotCertificates() throws {
        let error = try XCTUnwrap(try loadingError("keys/ecdsa/leaf.key.pem"))
        XCTAssertEqual(error.error.reason, .unexpectedPEMBlock(label: "PRIVATE KEY", line: 1))
    }

    func testEmptyAndGarbageInputs() {
        XCTAssertThrowsError(try Certificate.loadAll(from: [])) { error in
            XCTAssertEqual((error as? CertificateLoadingError)?.error.reason, .empty)
        }
        XCTAssertThrowsError(try Certificate.loadAll(pem: "no PEM here\n")) { error in
            XCTAssertEqual((error as? CertificateLoadingError)?.error.reason, .pem(.noBlocks))
        }
        // A bundle whose second certificate is bad names position 1 (counted from 0).
        XCTAssertThrowsError(
            try Certificate.loadAll(
                pem: {
                    let good = PEM.encode((try? TestCertificates.bytes("ecdsa/leaf.der")) ?? [], label: "CERTIFICATE")
                    let bad = PEM.encode([0x30, 0x03, 0x02, 0x01, 0x01], label: "CERTIFICATE")
                    return good + bad
                }())
        ) { error in
            XCTAssertEqual((error as? CertificateLoadingError)?.index, 1)
            XCTAssertTrue("\(error)".hasPrefix("certificate 1: "), "\(error)")
        }
    }
}

extension TestCertificatesParseTests {
    /// A DER certificate is DER even when some field happens to contain a PEM BEGIN marker.
    func testDERCertificateContainingAPEMMarkerIsReadAsDER() throws {
        var template = try CertificateTemplate.load()
        template.setExtension(
            TestOID.subjectAltName,
            value: DERBuilder.sequence(
                DERBuilder.dnsName("www.swifttrust.test"),
                DERBuilder.uri("http://swifttrust.test/-----BEGIN CERTIFICATE-----")
            ))
        let der = template.der
        XCTAssertTrue(PEM.looksLikePEM(der))
        let certificates = try Certificate.loadAll(from: der)
        XCTAssertEqual(certificates.map(\.derEncoded), [der])
        XCTAssertEqual(
            certificates.first?.extensions.subjectAlternativeNames?.last,
            .uniformResourceIdentifier("http://swifttrust.test/-----BEGIN CERTIFICATE-----"))
    }

    /// PEM text (with explanatory text before the block) is still read as PEM.
    func testPEMWithLeadingTextIsReadAsPEM() throws {
        let leaf = try TestCertificates.bytes("ecdsa/leaf.der")
        for prefix in ["", "0 leading text\n", "subject=CN=x\n\n"] {
            let text = prefix + PEM.encode(leaf, label: "CERTIFICATE")
            XCTAssertEqual(try Certificate.loadAll(from: Array(text.utf8)).map(\.derEncoded), [leaf], prefix)
        }
    }
}

extension TestCertificatesParseTests {
    /// A combined file (text, an encrypted legacy key with RFC 1421 headers, text, the
    /// certificate) yields its certificate and names the block it skipped.
    func testCombinedCertificateAndKeyFileYieldsItsCertificate() throws {
        let loaded = try Certificate.load(from: try TestCertificates.bytes("rsa/leaf-and-key.pem"))
        XCTAssertEqual(loaded.certificates, [try TestCertificates.certificate("rsa/leaf.pem")])
        XCTAssertEqual(loaded.skippedBlocks.map(\.description), ["RSA PRIVATE KEY at line 3"])
        let text = try XCTUnwrap(String(data: Data(try TestCertificates.bytes("rsa/leaf-and-key.pem")), encoding: .utf8))
        XCTAssertEqual(try Certificate(pemEncoded: text), try TestCertificates.certificate("rsa/leaf.pem"))
    }

    /// A certificate file followed by its PKCS#8 key, the way servers keep them.
    func testCertificateFollowedByItsKeyYieldsTheCertificate() throws {
        let text = String(
            decoding: try TestCertificates.bytes("ecdsa/leaf.pem") + Array("\n".utf8) + (try TestCertificates.bytes("keys/ecdsa/leaf.key.pem")),
            as: UTF8.self)
        let loaded = try Certificate.load(pem: text)
        XCTAssertEqual(loaded.certificates, [try TestCertificates.certificate("ecdsa/leaf.pem")])
        XCTAssertEqual(loaded.skippedBlocks.map(\.label), ["PRIVATE KEY"])
    }

    /// The Alamofire-style certificate parses without defects and keeps both encodings.
    func testAbsentInnerRSAParametersParseWithoutDefects() throws {
        let certificate = try TestCertificates.certificate("rsa/leaf-params-absent.pem")
        XCTAssertEqual(certificate.semanticDefects, [])
        XCTAssertNil(certificate.tbsSignatureAlgorithmIdentifier.parameters)
        XCTAssertEqual(certificate.signatureAlgorithmIdentifier.parameters.map(Array.init), [0x05, 0x00])
        XCTAssertEqual(try certificate.signatureAlgorithm(), .rsaPKCS1v15(.sha256))
        // Same key and names as rsa/leaf.pem, different bytes.
        let original = try TestCertificates.certificate("rsa/leaf.pem")
        XCTAssertEqual(certificate.publicKeyInfo, original.publicKeyInfo)
        XCTAssertEqual(certificate.subject, original.subject)
        XCTAssertNotEqual(certificate, original)
    }
}
