import TrustCrypto
import XCTest

/// A test case whose tests run with caching on (`TrustCaches.isEnabled`), whatever the process was
/// started with (`SWIFTTRUST_CACHES`), and set back as it was after each test. Tests that switch
/// caching off themselves (to compare) may: the switch is restored all the same.
open class CachesOnTestCase: XCTestCase {
    private var cachingWasEnabled = true

    override open func setUp() {
        super.setUp()
        cachingWasEnabled = TrustCaches.isEnabled
        TrustCaches.isEnabled = true
    }

    override open func tearDown() {
        TrustCaches.isEnabled = cachingWasEnabled
        super.tearDown()
    }
}
