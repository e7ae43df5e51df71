import OpenSSLServerSupport
import TrustCore
import TrustX509
import XCTest

/// A leaf's trust domain picks its bundle (SPIFFETrustBundleSet): an SVID validates under its own
/// trust domain's authorities and never under another's.
final class SPIFFEBundleSelectionTests: XCTestCase {
    func bundles(_ pki: SPIFFEPKI) throws -> SPIFFETrustBundleSet {
        SPIFFETrustBundleSet([
            try SPIFFETrustBundle(jsonFile: pki.example.bundleJSONPath, trustDomain: SPIFFETrustDomain("example.org")),
            try SPIFFETrustBundle(pemFile: pki.other.bundlePEMPath, trustDomain: SPIFFETrustDomain("other.example")),
        ])
    }

    func testTheLeafsTrustDomainSelectsItsBundle() throws {
        let pki = try SPIFFEFixtures.pki()
        let set = try bundles(pki)
        XCTAssertEqual(set.trustDomains.map(\.name), ["example.org", "other.example"])
        XCTAssertEqual(try set.anchors(for: pki.server.certificate), [pki.example.root])
        XCTAssertEqual(try set.anchors(for: pki.otherDomainServer.certificate), [pki.other.root])
        XCTAssertEqual(try SPIFFETrustBundleSet.spiffeID(of: pki.server.certificate).description, SPIFFEPKI.serverID)
        for credential in [pki.server, pki.client, pki.otherDomainServer] {
            assertTrusted(SPIFFEFixtures.evaluate(credential, anchors: try set.anchors(for: credential.certificate)))
        }
    }

    /// The set for one trust domain holds no anchors for another's SVID, and its anchors do not
    /// validate that SVID either.
    func testAnSVIDOfAnotherTrustDomainIsRefused() throws {
        let pki = try SPIFFEFixtures.pki()
        let exampleOnly = SPIFFETrustBundleSet([try SPIFFETrustBundle(jsonFile: pki.example.bundleJSONPath, trustDomain: nil)])
        XCTAssertThrowsError(try exampleOnly.anchors(for: pki.otherDomainServer.certificate)) { error in
            XCTAssertEqual(error as? SPIFFEBundleSelectionError, .noBundle(trustDomain: try! SPIFFETrustDomain("other.example")))
        }
        XCTAssertFalse(SPIFFEFixtures.evaluate(pki.otherDomainServer, anchors: [pki.example.root]).isTrusted)
    }

    func testLeavesThatNameNoSingleSPIFFEID() throws {
        let pki = try SPIFFEFixtures.pki()
        let set = try bundles(pki)
        let cases: [(SPIFFEPKI.Defect, SPIFFEBundleSelectionError)] = [
            (.noURI, .noSPIFFEID),
            (.twoURIs, .severalURIs(count: 2)),
            (.invalidSPIFFEID, .invalidSPIFFEID(uri: "spiffe://example.org/ns/./api", error: .dotSegment)),
        ]
        for (defect, expected) in cases {
            XCTAssertThrowsError(try set.anchors(for: pki.credential(defect).certificate), "\(defect)") { error in
                XCTAssertEqual(error as? SPIFFEBundleSelectionError, expected)
                XCTAssertTrue("\(error)".contains(defect == .invalidSPIFFEID ? "SPIFFE-ID §2.2" : "X509-SVID §2"), "\(error)")
            }
        }
        // The trust domain's own ID selects the bundle (the profile, not the selection, refuses it).
        XCTAssertEqual(try set.anchors(for: pki.credential(.trustDomainID).certificate), [pki.example.root])
    }

    func testInsertKeepsTheFirstBundleAndUpdateReplacesIt() throws {
        let pki = try SPIFFEFixtures.pki()
        let domain = try SPIFFETrustDomain("example.org")
        var set = SPIFFETrustBundleSet()
        XCTAssertTrue(set.isEmpty)
        XCTAssertTrue(set.insert(SPIFFETrustBundle(trustDomain: domain, x509Authorities: [pki.example.root])))
        XCTAssertFalse(set.insert(SPIFFETrustBundle(trustDomain: domain, x509Authorities: [pki.other.root])))
        XCTAssertEqual(set[domain]?.x509Authorities, [pki.example.root])
        set.update(SPIFFETrustBundle(trustDomain: domain, x509Authorities: [pki.other.root]))
        XCTAssertEqual(set[domain]?.x509Authorities, [pki.other.root])
    }
}
