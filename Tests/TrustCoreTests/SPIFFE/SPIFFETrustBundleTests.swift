import Foundation
import OpenSSLServerSupport
import TrustCore
import TrustX509
import XCTest

/// The SPIFFE bundle readers (SPIFFE_Trust_Domain_and_Bundle.md §4, X509-SVID.md §6): what a JWK
/// Set yields, what it passes over, and the bounds and rules that refuse a file.
final class SPIFFETrustBundleTests: XCTestCase {
    let domain = try! SPIFFETrustDomain("example.org")

    /// The base64 DER of `certificate`, as `x5c` holds it.
    func x5c(_ certificate: Certificate) -> String { Data(certificate.derEncoded).base64EncodedString() }

    func load(_ json: String, trustDomain: SPIFFETrustDomain? = nil) throws(SPIFFEBundleError) -> SPIFFETrustBundle {
        try SPIFFETrustBundle(json: Data(json.utf8), trustDomain: trustDomain ?? domain, file: "bundle.json")
    }

    /// The rule `json` breaks.
    func rule(of json: String, file: StaticString = #filePath, line: UInt = #line) -> SPIFFEBundleError? {
        do throws(SPIFFEBundleError) {
            let bundle = try load(json)
            XCTFail("loaded \(bundle)", file: file, line: line)
            return nil
        } catch {
            XCTAssertEqual(error.file, "bundle.json", file: file, line: line)
            return error
        }
    }

    func testTheBundleSPIFFEPKIWritesYieldsItsRoot() throws {
        let pki = try SPIFFEFixtures.pki()
        let bundle = try SPIFFETrustBundle(jsonFile: pki.example.bundleJSONPath, trustDomain: domain)
        XCTAssertEqual(bundle.trustDomain, domain)
        XCTAssertEqual(bundle.x509Authorities, [pki.example.root])
        XCTAssertEqual(bundle.sequenceNumber, 1)
        XCTAssertEqual(bundle.refreshHintSeconds, 300)
        XCTAssertEqual(bundle.ignoredEntries, [SPIFFEBundleIgnoredEntry(index: 1, reason: .jwtSVID)])
        let pem = try SPIFFETrustBundle(pemFile: pki.other.bundlePEMPath, trustDomain: try SPIFFETrustDomain("other.example"))
        XCTAssertEqual(pem.x509Authorities, [pki.other.root])
        XCTAssertNil(pem.sequenceNumber)
    }

    /// Without a trust domain, the one its authorities' SPIFFE IDs name (X509-SVID §3.2).
    func testTheTrustDomainTheAuthoritiesName() throws {
        let pki = try SPIFFEFixtures.pki()
        XCTAssertEqual(try SPIFFETrustBundle(jsonFile: pki.other.bundleJSONPath, trustDomain: nil).trustDomain.name, "other.example")
        let mixed =
            #"{"keys": [{"use": "x509-svid", "kty": "EC", "x5c": ["\#(x5c(pki.example.root))"]},"#
            + #" {"use": "x509-svid", "kty": "EC", "x5c": ["\#(x5c(pki.other.root))"]}]}"#
        XCTAssertThrowsError(try SPIFFETrustBundle(json: Data(mixed.utf8), trustDomain: nil)) { error in
            guard case .trustDomainUnknown? = (error as? SPIFFEBundleError)?.rule else { return XCTFail("\(error)") }
        }
        // A server leaf names a path, not a trust domain's own ID... but a certificate without any URI names nothing.
        let unnamed = #"{"keys": [{"use": "x509-svid", "kty": "EC", "x5c": ["\#(x5c(pki.credential(.noURI).certificate))"]}]}"#
        XCTAssertThrowsError(try SPIFFETrustBundle(json: Data(unnamed.utf8), trustDomain: nil)) { error in
            guard case .trustDomainUnknown? = (error as? SPIFFEBundleError)?.rule else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try SPIFFETrustBundle(json: Data(#"{"keys": []}"#.utf8), trustDomain: nil))
    }

    /// §4.2 and X509-SVID §6.2: entries of other uses, unknown key types and without x5c are passed
    /// over; of several x5c values the first counts.
    func testEntriesThatArePassedOver() throws {
        let pki = try SPIFFEFixtures.pki()
        let root = x5c(pki.example.root), other = x5c(pki.other.root)
        let bundle = try load(
            """
            {"keys": [
              {"kty": "EC", "x5c": ["\(other)"]},
              {"use": "wit-svid", "kty": "EC", "x5c": ["\(other)"]},
              {"use": "X509-SVID", "kty": "EC", "x5c": ["\(other)"]},
              {"use": "x509-svid", "x5c": ["\(other)"]},
              {"use": "x509-svid", "kty": "oct", "x5c": ["\(other)"]},
              {"use": "x509-svid", "kty": "EC"},
              {"use": "x509-svid", "kty": "EC", "x5c": []},
              {"use": "jwt-svid", "kty": "EC", "x5c": 42, "kid": {"odd": true}},
              {"use": "x509-svid", "kty": "RSA", "x5c": ["\(root)", "\(other)"]},
              {"use": "x509-svid", "kty": "EC", "x5c": ["\(root)"]}
            ], "extension_parameter": {"anything": [1, 2]}}
            """)
        XCTAssertEqual(bundle.x509Authorities, [pki.example.root])
        XCTAssertEqual(
            bundle.ignoredEntries.map(\.reason),
            [
                .missingUse, .unknownUse("wit-svid"), .unknownUse("X509-SVID"), .missingKeyType, .unknownKeyType("oct"), .noCertificate,
                .noCertificate, .jwtSVID, .extraCertificates(count: 2),
            ])
        XCTAssertEqual(bundle.ignoredEntries.map(\.index), [0, 1, 2, 3, 4, 5, 6, 7, 8])
    }

    /// §4.1.3: an empty key set is a bundle that trusts nothing of its trust domain.
    func testAnEmptyKeySetTrustsNothing() throws {
        let bundle = try load(#"{"keys": []}"#)
        XCTAssertEqual(bundle.x509Authorities, [])
        let pki = try SPIFFEFixtures.pki()
        let set = SPIFFETrustBundleSet([bundle])
        XCTAssertEqual(try set.anchors(for: pki.server.certificate), [])
        XCTAssertFalse(SPIFFEFixtures.evaluate(pki.server, anchors: try set.anchors(for: pki.server.certificate)).isTrusted)
    }

    func testDocumentRules() throws {
        let pki = try SPIFFEFixtures.pki()
        let root = x5c(pki.example.root)
        XCTAssertEqual(rule(of: #"{"spiffe_sequence": 1}"#)?.rule, .missingKeys)
        XCTAssertEqual(rule(of: #"{"keys": null}"#)?.rule, .missingKeys)
        XCTAssertEqual(rule(of: #"[]"#)?.rule, .wrongType(expected: "an object", found: "an array"))
        let keysNotArray = rule(of: #"{"keys": {"use": "x509-svid"}}"#)
        XCTAssertEqual(keysNotArray?.keyPath, "keys")
        guard case .wrongType? = keysNotArray?.rule else { return XCTFail("\(String(describing: keysNotArray))") }
        let useNotString = rule(of: #"{"keys": [{"use": 7}]}"#)
        XCTAssertEqual(useNotString?.keyPath, "keys[0].use")
        let x5cNotStrings = rule(of: #"{"keys": [{"use": "x509-svid", "kty": "EC", "x5c": [1]}]}"#)
        XCTAssertEqual(x5cNotStrings?.keyPath, "keys[0].x5c[0]")
        for value in ["-1", "1.5", "18446744073709551616", "\"1\""] {
            let refused = rule(of: #"{"keys": [], "spiffe_sequence": \#(value)}"#)
            XCTAssertEqual(refused?.keyPath, "spiffe_sequence", value)
            guard case .invalidValue? = refused?.rule else { return XCTFail("\(value): \(String(describing: refused))") }
        }
        XCTAssertEqual(rule(of: #"{"keys": [], "spiffe_refresh_hint": "300"}"#)?.keyPath, "spiffe_refresh_hint")
        XCTAssertEqual(try load(#"{"keys": [], "spiffe_refresh_hint": -5}"#).refreshHintSeconds, -5)
        XCTAssertEqual(try load(#"{"keys": [], "spiffe_sequence": 18446744073709551615}"#).sequenceNumber, UInt64.max)
        guard case .malformedJSON? = rule(of: #"{"keys": [}"#)?.rule else { return XCTFail("malformed JSON accepted") }
        // RFC 7517 §4.7: base64, not base64url, of a DER certificate.
        let base64url = root.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        if base64url != root {
            XCTAssertEqual(rule(of: #"{"keys": [{"use": "x509-svid", "kty": "EC", "x5c": ["\#(base64url)"]}]}"#)?.rule, .invalidBase64)
        }
        let notCertificate = rule(of: #"{"keys": [{"use": "x509-svid", "kty": "EC", "x5c": ["MAMCAQE="]}]}"#)
        XCTAssertEqual(notCertificate?.keyPath, "keys[0].x5c[0]")
        guard case .invalidCertificate? = notCertificate?.rule else { return XCTFail("\(String(describing: notCertificate))") }
    }

    /// No key twice in one object: readers disagree on which of the two counts.
    func testDuplicateKeysAreRefused() throws {
        let pki = try SPIFFEFixtures.pki()
        let root = x5c(pki.example.root), other = x5c(pki.other.root)
        let twoKeySets = rule(of: #"{"keys": [], "keys": [{"use": "x509-svid", "kty": "EC", "x5c": ["\#(root)"]}]}"#)
        XCTAssertEqual(twoKeySets?.rule, .duplicateKey("keys"))
        let twoCertificates = rule(of: "{\"keys\": [{\"use\": \"x509-svid\", \"kty\": \"EC\",\n \"x5c\": [\"\(root)\"], \"x5c\": [\"\(other)\"]}]}")
        XCTAssertEqual(twoCertificates?.rule, .duplicateKey("x5c"))
        XCTAssertEqual(twoCertificates?.keyPath, "keys[0].x5c")
        XCTAssertEqual(twoCertificates?.line, 2)
        // The same key written with an escape is the same key.
        XCTAssertEqual(rule(of: #"{"keys": [], "k\u0065ys": []}"#)?.rule, .duplicateKey("keys"))
    }

    /// The reader's bounds: bytes, values, depth; and UTF-8 only.
    func testBounds() throws {
        let large = Data(repeating: UInt8(ascii: " "), count: SPIFFETrustBundle.maximumJSONSize) + Data(#"{"keys": []}"#.utf8)
        XCTAssertThrowsError(try SPIFFETrustBundle(json: large, trustDomain: domain)) { error in
            XCTAssertEqual(
                (error as? SPIFFEBundleError)?.rule,
                .tooLarge(bytes: large.count, limit: SPIFFETrustBundle.maximumJSONSize))
        }
        let values = "[" + Array(repeating: "0", count: SPIFFETrustBundle.maximumJSONValueCount).joined(separator: ",") + "]"
        XCTAssertEqual(rule(of: #"{"keys": [], "padding": \#(values)}"#)?.rule, .tooManyValues(limit: SPIFFETrustBundle.maximumJSONValueCount))
        let deep =
            String(repeating: "[", count: SPIFFETrustBundle.maximumJSONDepth) + String(repeating: "]", count: SPIFFETrustBundle.maximumJSONDepth)
        XCTAssertEqual(rule(of: #"{"keys": [], "padding": \#(deep)}"#)?.rule, .tooDeep(limit: SPIFFETrustBundle.maximumJSONDepth))
        let shallow =
            String(repeating: "[", count: SPIFFETrustBundle.maximumJSONDepth - 1)
            + String(repeating: "]", count: SPIFFETrustBundle.maximumJSONDepth - 1)
        XCTAssertEqual(try load(#"{"keys": [], "padding": \#(shallow)}"#).x509Authorities, [])
        let utf16 = Data(#"{"keys": []}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        XCTAssertThrowsError(try SPIFFETrustBundle(json: utf16, trustDomain: domain)) { error in
            XCTAssertEqual((error as? SPIFFEBundleError)?.rule, .notUTF8(.utf16(bigEndian: false, byteOrderMark: false)))
        }
        XCTAssertThrowsError(try SPIFFETrustBundle(json: Data([0x7B, 0x22, 0xFF, 0x22, 0x7D]), trustDomain: domain)) { error in
            XCTAssertEqual((error as? SPIFFEBundleError)?.rule, .notUTF8(.invalidUTF8(byteOffset: 2)))
        }
        // A UTF-8 byte order mark is skipped (RFC 8259 §8.1).
        XCTAssertEqual(try SPIFFETrustBundle(json: Data([0xEF, 0xBB, 0xBF] + Array(#"{"keys": []}"#.utf8)), trustDomain: domain).x509Authorities, [])
    }

    func testFilesOverTheLimitAreNotReadWhole() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-spiffe-bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("large.json").path
        try Data(repeating: UInt8(ascii: " "), count: SPIFFETrustBundle.maximumJSONSize + 10).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try SPIFFETrustBundle(jsonFile: path, trustDomain: domain)) { error in
            XCTAssertEqual(
                (error as? SPIFFEBundleError)?.rule,
                .tooLarge(
                    bytes: SPIFFETrustBundle.maximumJSONSize + 1,
                    limit: SPIFFETrustBundle.maximumJSONSize))
        }
        XCTAssertThrowsError(try SPIFFETrustBundle(jsonFile: directory.appendingPathComponent("missing.json").path, trustDomain: domain)) { error in
            XCTAssertEqual((error as? SPIFFEBundleError)?.rule, .unreadable)
        }
    }

    func testPEMBundles() throws {
        let pki = try SPIFFEFixtures.pki()
        let pem =
            try String(contentsOfFile: pki.example.rootPath, encoding: .utf8)
            + String(contentsOfFile: pki.example.intermediatePath ?? "", encoding: .utf8)
            + String(contentsOfFile: pki.example.rootPath, encoding: .utf8)
        let bundle = try SPIFFETrustBundle(pem: Array(pem.utf8), trustDomain: domain, file: "bundle.pem")
        XCTAssertEqual(bundle.x509Authorities, [pki.example.root, pki.example.intermediate].compactMap { $0 }, "duplicates kept once")
        // A PEM file with no certificate (a key), and bytes that are neither PEM nor a certificate.
        let key = try Array(Data(contentsOf: URL(fileURLWithPath: pki.server.keyPath)))
        XCTAssertThrowsError(try SPIFFETrustBundle(pem: key, trustDomain: domain, file: "bundle.pem")) { error in
            guard case .noCertificates? = (error as? SPIFFEBundleError)?.rule else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".hasPrefix("bundle.pem: "), "\(error)")
        }
        XCTAssertThrowsError(try SPIFFETrustBundle(pem: Array("not a bundle".utf8), trustDomain: domain, file: "bundle.pem")) { error in
            guard case .invalidCertificate? = (error as? SPIFFEBundleError)?.rule else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(
            try SPIFFETrustBundle(
                pem: Array(repeating: 0x20, count: SPIFFETrustBundle.maximumPEMSize + 1),
                trustDomain: domain)
        ) { error in
            guard case .tooLarge? = (error as? SPIFFEBundleError)?.rule else { return XCTFail("\(error)") }
        }
    }

    func testErrorDescriptionsNameFileKeyPathAndRule() {
        let error = SPIFFEBundleError(file: "b\u{1B}.json", line: 3, keyPath: "keys[0].x5c", rule: .duplicateKey("x5c"))
        XCTAssertEqual(
            error.description,
            "b\\u001b.json:3: at keys[0].x5c: the key \"x5c\" appears twice in the same object, and readers disagree on which counts")
        XCTAssertTrue(SPIFFEBundleRule.missingKeys.description.contains("§4.1.3"))
    }
}
