import TrustDER
@testable import TrustX509
import TrustTestSupport
import XCTest

/// What certificate parse errors quote and where they point (issue 18, error messages).
final class ErrorMessageTests: XCTestCase {
    private typealias B = DERBuilder

    func testLongObjectIdentifierIsCappedInAParseError() throws {
        // A policy OID of 20,000 arcs listed twice: about 40 KB of dotted text, inside the 64 KiB size cap.
        let longOID = "1.2." + Array(repeating: "1", count: 20_000).joined(separator: ".")
        var template = try CertificateTemplate.load()
        template.setExtension(TestOID.certificatePolicies, value: B.sequence(B.sequence(B.oid(longOID)), B.sequence(B.oid(longOID))))
        XCTAssertThrowsError(try Certificate(derEncoded: template.der)) { error in
            let text = String(describing: error)
            XCTAssertLessThan(text.count, 1_000, String(text.prefix(200)))
            XCTAssertTrue(text.contains("… (20002 arcs)"), text)
            XCTAssertTrue(text.contains("certificatePolicies"), text)
        }
    }
}

/// Errors in PEM input name the block and say that byte offsets count from its decoded bytes.
final class PEMLocationErrorMessageTests: XCTestCase {
    private let truncatedLeaf: () throws -> [UInt8] = { Array(try TestCertificates.bytes("ecdsa/leaf.der").prefix(300)) }

    func testCertificateErrorNamesTheBlockAndWhatTheOffsetCountsFrom() throws {
        let good = try String(decoding: TestCertificates.bytes("ecdsa/leaf.pem"), as: UTF8.self)
        let goodLines = good.split(separator: "\n").count
        let text = good + PEM.encode(try truncatedLeaf(), label: "CERTIFICATE")
        XCTAssertThrowsError(try Certificate.loadAll(pem: text)) { error in
            let loading = error as? CertificateLoadingError
            XCTAssertEqual(loading?.index, 1)
            let block = loading?.error.pemBlock
            XCTAssertEqual([block?.index, block?.line], [1, goodLines + 1])
            XCTAssertEqual(block?.label, "CERTIFICATE")
            // The offending byte's line: 64 base64 characters (48 bytes) a line after the BEGIN marker.
            guard let offset = loading?.error.offset else { return XCTFail("no offset in \(error)") }
            let line = goodLines + 2 + offset / 48
            XCTAssertTrue(
                "\(error)".hasSuffix(
                    "(in PEM block 1 (BEGIN CERTIFICATE at line \(goodLines + 1)); byte offsets count from the start of its decoded bytes; "
                        + "byte \(offset) is on line \(line))"), "\(error)")
        }
        // The single-certificate PEM initializer names its block too.
        XCTAssertThrowsError(try Certificate(pemEncoded: PEM.encode(try truncatedLeaf(), label: "CERTIFICATE"))) { error in
            let block = (error as? X509Error)?.pemBlock
            XCTAssertEqual([block?.index, block?.line], [0, 1])
        }
        // DER input has no block.
        XCTAssertThrowsError(try Certificate.load(from: try truncatedLeaf())) { error in
            XCTAssertNil((error as? CertificateLoadingError)?.error.pemBlock)
            XCTAssertFalse("\(error)".contains("PEM block"), "\(error)")
        }
    }

    func testCRLErrorNamesTheBlock() throws {
        let good = try TestCertificates.bytes("revocation/intermediate-current.crl.pem")
        let goodLines = String(decoding: good, as: UTF8.self).split(separator: "\n").count
        let crl = try TestCertificates.bytes("revocation/root-empty.crl")
        let bad = Array(PEM.encode(crl.prefix(crl.count - 10), label: "X509 CRL").utf8)
        XCTAssertThrowsError(try CertificateRevocationList.loadAll(from: good + bad)) { error in
            let x509 = error as? X509Error
            guard case let .der(der)? = x509?.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(der.rule, .truncated)
            XCTAssertEqual([x509?.pemBlock?.index, x509?.pemBlock?.line], [1, goodLines + 1])
            XCTAssertEqual(x509?.pemBlock?.label, "X509 CRL")
            XCTAssertTrue("\(error)".contains("in PEM block 1 (BEGIN X509 CRL at line \(goodLines + 1))"), "\(error)")
        }
    }
}

/// RFC 8410 §3: Ed25519 and Ed448 key AlgorithmIdentifiers have no parameters; a certificate whose
/// key has them is refused when read (it used to parse and fail only in verification).
final class EdwardsKeyParametersTests: XCTestCase {
    private typealias B = DERBuilder

    func testEd25519KeyWithParametersIsAParseError() throws {
        var template = try CertificateTemplate.load("ed25519/leaf.pem")
        XCTAssertNoThrow(try Certificate(derEncoded: template.der))
        let spki = try DERReader.parseSingle(template.subjectPublicKeyInfo)
        var fields = try spki.children()
        let algorithm = try fields.read(.sequence)
        let key = try fields.read(.bitString)
        XCTAssertEqual(Array(algorithm.encoded), B.sequence(B.oid("1.3.101.112")))
        for parameters in [[0x05, 0x00], B.sequence(B.sequence(B.sequence([])))] {
            template.subjectPublicKeyInfo = B.sequence(B.sequence(B.oid("1.3.101.112"), parameters), Array(key.encoded))
            let der = template.der
            let expectedOffset = try XCTUnwrap(lastOffset(of: template.subjectPublicKeyInfo, in: der)) + 2
            XCTAssertThrowsError(try Certificate(derEncoded: der)) { error in
                guard case let .invalidStructure(what, offset)? = (error as? X509Error)?.reason else { return XCTFail("\(error)") }
                XCTAssertEqual(what, "Ed25519 key algorithm parameters must be absent (RFC 8410 §3)")
                XCTAssertEqual(offset, expectedOffset)
            }
        }
    }

    func testDecodedBytesMapToTheirLinesWhateverTheLineLengths() throws {
        // Uneven base64 lines (as hand-edited files have): 8, 4 and 12 characters = 6, 3 and 9 bytes.
        let der = Array(0..<18).map(UInt8.init)
        let body = Base64.encode(der)
        let lines = [String(body.prefix(8)), String(body.dropFirst(8).prefix(4)), String(body.dropFirst(12))]
        let text = "junk\n-----BEGIN DATA-----\n" + lines.joined(separator: "\n") + "\n-----END DATA-----\n"
        let block = try XCTUnwrap(try PEM.decode(text).first)
        XCTAssertEqual(block.der, der)
        XCTAssertEqual(block.bodyLayout.lineNumbers, [3, 4, 5])
        XCTAssertEqual(
            (0..<18).map { block.bodyLayout.line(ofDecodedByte: $0) ?? 0 },
            [3, 3, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5])
        XCTAssertNil(block.bodyLayout.line(ofDecodedByte: 18))
        XCTAssertNil(block.bodyLayout.line(ofDecodedByte: -1))
    }
}
