import TrustTestSupport
import TrustX509
import XCTest

@testable import TrustCore

/// The revocation methods are one list (`RevocationMethodRegistry`) that the checker, the fetching
/// evaluation, enforcement and the flag names all read: these tests keep what the list derives
/// equal to Apple's `kSecRevocation*` rules and the names we publish.
final class RevocationMethodRegistryTests: XCTestCase {
    private let methods = RevocationMethodRegistry.methods

    func testEachMethodHasItsOwnNameFlagAndBit() {
        XCTAssertEqual(methods.map { $0.method }, [.ocsp, .crl])
        XCTAssertEqual(Set(methods.map { $0.method.name }).count, methods.count, "method names are unique")
        let general: RevocationOptions = [.requirePositiveResponse, .networkAccessDisabled]
        var seen: RevocationOptions = []
        for method in methods {
            XCTAssertEqual(method.flag.rawValue.nonzeroBitCount, 1, "\(method.method) has one bit")
            XCTAssertTrue(seen.isDisjoint(with: method.flag), "\(method.method)'s bit is its own")
            XCTAssertTrue(general.isDisjoint(with: method.flag), "\(method.method)'s bit is no general flag's")
            seen.insert(method.flag)
            if let preference = method.preference {
                XCTAssertEqual(preference.flag.rawValue.nonzeroBitCount, 1)
                XCTAssertTrue(seen.isDisjoint(with: preference.flag), "\(method.method)'s preference bit is its own")
                XCTAssertTrue(general.isDisjoint(with: preference.flag))
                seen.insert(preference.flag)
            }
        }
        XCTAssertEqual(RevocationOptions.useAnyAvailableMethod, [.ocsp, .crl])
    }

    /// Apple's rules, written out: neither method flag means both; `.preferCRL` only reorders.
    func testMethodsInOrderFollowApplesFlagsForEveryCombination() {
        let names = { (options: RevocationOptions) in options.methodsInOrder.map { $0.method } }
        for extra in [RevocationOptions(), .requirePositiveResponse, .networkAccessDisabled, [.requirePositiveResponse, .networkAccessDisabled]] {
            XCTAssertEqual(names(extra), [.ocsp, .crl])
            XCTAssertEqual(names(extra.union(.ocsp)), [.ocsp])
            XCTAssertEqual(names(extra.union(.crl)), [.crl])
            XCTAssertEqual(names(extra.union([.ocsp, .crl])), [.ocsp, .crl])
            XCTAssertEqual(names(extra.union(.preferCRL)), [.crl, .ocsp])
            XCTAssertEqual(names(extra.union([.ocsp, .preferCRL])), [.ocsp])
            XCTAssertEqual(names(extra.union([.crl, .preferCRL])), [.crl])
            XCTAssertEqual(names(extra.union([.ocsp, .crl, .preferCRL])), [.crl, .ocsp])
        }
    }

    func testFlagNamesAndTextsAreTheOnesPublished() {
        XCTAssertEqual(
            RevocationOptions.namedFlags.map(\.name), ["ocsp", "crl", "prefer-crl", "require-positive", "no-network"])
        XCTAssertEqual(
            RevocationOptions.namedFlags.map(\.swiftName),
            ["ocsp", "crl", "preferCRL", "requirePositiveResponse", "networkAccessDisabled"])
        XCTAssertEqual(RevocationOptions([.crl, .preferCRL, .requirePositiveResponse]).description, "crl,prefer-crl,require-positive")
        for entry in RevocationOptions.namedFlags { XCTAssertEqual(RevocationOptions.flags(named: entry.name), entry.flag) }
        XCTAssertEqual(RevocationSource.suppliedCRL.description, "CRL (supplied)")
        XCTAssertEqual(RevocationSource.fetchedOCSP(url: "http://ocsp.test").description, "OCSP http://ocsp.test")
        XCTAssertEqual(RevocationSource.fetchedCRL(url: "http://crl.test/a.crl").url, "http://crl.test/a.crl")
        XCTAssertNil(RevocationSource.suppliedOCSP.url)
        XCTAssertEqual([FetchPurpose.crl, .ocsp, .caIssuers].map(\.description), ["CRL", "OCSP", "caIssuers"])
    }

    /// The two requests the methods build: a CRL is a GET, an OCSP request a POST of its DER
    /// (RFC 6960 Appendix A.1), each with the method's own answer limit.
    func testEachMethodBuildsItsOwnRequest() {
        let crl = RevocationFetchRequest.crlDownload(from: "http://crl.test/a.crl")
        XCTAssertEqual(crl.method, .crl)
        XCTAssertNil(crl.body)
        XCTAssertNil(crl.contentType)
        XCTAssertEqual(crl.maximumBytes, 20 * 1024 * 1024)
        XCTAssertEqual(crl.description, "GET CRL http://crl.test/a.crl")
        let ocsp = RevocationFetchRequest.ocspRequest([0x30, 0x00], to: "http://ocsp.test")
        XCTAssertEqual(ocsp.body, [0x30, 0x00])
        XCTAssertEqual(ocsp.contentType, "application/ocsp-request")
        XCTAssertEqual(ocsp.maximumBytes, 64 * 1024)
        let routed = ocsp.redirected(to: "http://127.0.0.1:9/")
        XCTAssertEqual(routed.url, "http://127.0.0.1:9/")
        XCTAssertEqual(routed.body, ocsp.body)
        XCTAssertEqual(routed.method, .ocsp)
    }

    /// Inputs keep every method's documents apart and in order, whatever was set or added after.
    func testInputsKeepEachMethodsDocumentsApart() throws {
        let crl = try XCTUnwrap(CertificateRevocationList.loadAll(from: TestCertificates.bytes("revocation/intermediate-current.crl")).first)
        var inputs = RevocationInputs()
        inputs.append(crl, from: .fetchedCRL(url: "http://a"))
        inputs.append("not a revocation document", from: .suppliedOCSP)
        inputs.append(crl, from: .suppliedOCSP)
        inputs.setDocuments([crl], of: .crl, from: .suppliedCRL)
        XCTAssertEqual(inputs.crls.map(\.1), [.suppliedCRL], "setting CRLs replaced the CRLs only")
        XCTAssertEqual(inputs.documents.count, 3)
        XCTAssertTrue(inputs.ocspResponses.isEmpty, "neither a document of another type nor another method's CRL is an OCSP response")
    }
}
