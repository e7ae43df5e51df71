import Foundation
import TrustCore
import TrustX509
import XCTest

final class ZZExploreTests: XCTestCase {
    func testBudget() throws {
        for n in 1...3 {
            let trust = try Fixtures.trust(["ecdsa/leaf.pem", "ecdsa/intermediate.pem"])
            trust.pathBuildingBudget = PathBuildingBudget(signatureChecks: n)
            let e = trust.evaluate()
            print(n, e.result, e.signatureChecks, e.failures)
        }
    }
}
