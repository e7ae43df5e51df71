import Foundation
import TrustCore
import TrustHTTP
@testable import TrustSession
import TrustX509
import TrustTestSupport
import XCTest

/// Issue 40 item 3: `TLSTrustSettings.fetchesFromLocalAddresses` and the local-address allowance of
/// client chains validated to explicit anchors alone.
final class TLSTrustSettingsFetchingTests: XCTestCase {
    private static let root = TestCertificates.directory

    private func certificates(_ relative: String) throws -> [Certificate] {
        try Certificate.loadAll(from: Array(Data(contentsOf: Self.root.appendingPathComponent(relative))))
    }

    func testTheDefaultFetcherAllowsLocalAddressesOnlyWhenSaid() throws {
        var settings = TLSTrustSettings()
        XCTAssertEqual((settings.revocationFetching.fetcher as? HTTPRevocationFetcher)?.allowsLocalAddresses, false)
        XCTAssertTrue(settings.revocationFetching.cache === FetchCache.shared, "the default fetcher comes with the shared cache")
        settings.fetchesFromLocalAddresses = true
        XCTAssertEqual((settings.revocationFetching.fetcher as? HTTPRevocationFetcher)?.allowsLocalAddresses, true)
        XCTAssertTrue(settings.revocationFetching.cache === FetchCache.shared, "and keeps it when it may reach local addresses")
        settings.revocationFetching = RevocationFetching(fetcher: HTTPRevocationFetcher(timeout: 1), cache: nil)
        XCTAssertEqual((settings.revocationFetching.fetcher as? HTTPRevocationFetcher)?.timeout, 1, "a fetcher set explicitly is used as it is")
        XCTAssertNil(settings.revocationFetching.cache, "and so is its cache: none")
        let cache = FetchCache(capacity: 8)
        settings.revocationFetching.cache = cache
        XCTAssertTrue(settings.revocationFetching.cache === cache)
        XCTAssertEqual((settings.revocationFetching.fetcher as? HTTPRevocationFetcher)?.timeout, 1, "setting the cache keeps the fetcher")
    }

    func testOnlyClientsAgainstExplicitAnchorsAloneGetTheAllowance() throws {
        let presented = try certificates("ecdsa/leaf-client.pem")
        var settings = TLSTrustSettings(anchors: try certificates("ecdsa/root.pem"))
        XCTAssertTrue(settings.makeTrust(presented: presented, role: .client).revocationFetchesMayReachLocalAddresses)
        XCTAssertFalse(settings.makeTrust(presented: presented, role: .server(host: "www.swifttrust.test")).revocationFetchesMayReachLocalAddresses)
        settings.systemStoreTrustsClients = true
        XCTAssertFalse(settings.makeTrust(presented: presented, role: .client).revocationFetchesMayReachLocalAddresses)
        settings.systemStoreTrustsClients = false
        settings.anchorsOnly = false
        XCTAssertFalse(settings.makeTrust(presented: presented, role: .client).revocationFetchesMayReachLocalAddresses)
        // The configure closure, applied last, can take it back.
        settings.anchorsOnly = true
        settings.configure = { $0.revocationFetchesMayReachLocalAddresses = false }
        XCTAssertFalse(settings.makeTrust(presented: presented, role: .client).revocationFetchesMayReachLocalAddresses)
    }
}
