import Foundation
import OpenSSLServerSupport
import TrustCore
@testable import TrustSession
import TrustX509
import XCTest

/// TLSTrustSettings under the spiffe profile: the peer's identity is its SPIFFE ID, so no host name
/// is checked; the role's purpose is (TrustProfile.spiffe); SPIFFE bundles as the anchor provider
/// give each leaf its own trust domain's authorities.
final class SPIFFETrustSettingsTests: XCTestCase {
    static let made: Result<SPIFFEPKI, any Error> = Result { try SPIFFEPKI.inTemporaryDirectory(named: "spiffe-session") }

    func testTheSPIFFEProfileChecksThePurposeAndNoHostName() throws {
        var settings = TLSTrustSettings()
        settings.options.profile = .spiffe
        XCTAssertEqual(settings.identityPolicy(for: .server(host: "www.swifttrust.test")), .profile(.spiffe, purpose: .serverAuth, hostname: nil))
        XCTAssertEqual(settings.identityPolicy(for: .client), .profile(.spiffe, purpose: .clientAuth, hostname: nil))
        let pki = try Self.made.get()
        settings.anchors = [pki.example.root]
        // The server SVID names no such host: under spiffe it is not asked to.
        XCTAssertTrue(settings.makeTrust(presented: pki.server.chain, role: .server(host: "www.swifttrust.test")).evaluate().isTrusted)
        XCTAssertFalse(settings.makeTrust(presented: pki.clientAuthOnly.chain, role: .server(host: "localhost")).evaluate().isTrusted)
        XCTAssertTrue(settings.makeTrust(presented: pki.clientAuthOnly.chain, role: .client).evaluate().isTrusted)
    }

    func testBundlesGiveEachLeafItsTrustDomainsAuthorities() throws {
        let pki = try Self.made.get()
        let bundles = SPIFFETrustBundleSet([
            try SPIFFETrustBundle(jsonFile: pki.example.bundleJSONPath, trustDomain: nil)
        ])
        let provider: any TrustAnchorProvider = bundles
        XCTAssertEqual(try provider.anchors(forLeaf: pki.client.certificate), [pki.example.root])
        let otherDomain = try SPIFFETrustDomain("other.example")
        XCTAssertThrowsError(try provider.anchors(forLeaf: pki.otherDomainServer.certificate)) { error in
            XCTAssertEqual(error as? TrustAnchorUnavailable, .noBundleForLeaf(.noBundle(trustDomain: otherDomain)))
        }
        XCTAssertThrowsError(try provider.anchors(forLeaf: pki.credential(.twoURIs).certificate)) { error in
            XCTAssertEqual(error as? TrustAnchorUnavailable, .noBundleForLeaf(.severalURIs(count: 2)))
        }
    }
}
