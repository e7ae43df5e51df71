import TrustCore
import TrustPinning
import TrustX509
import XCTest

final class ServerTrustManagerTests: XCTestCase {
    /// An evaluator that rejects with its name, so lookups are observable.
    struct Named: ServerTrustEvaluating {
        struct Picked: Error { let name: String }
        let name: String
        func evaluate(_ trust: ServerTrust, forHost host: String) throws { throw Picked(name: name) }
    }

    private func picked(_ manager: ServerTrustManager, _ host: String) throws -> String? {
        guard let evaluator = try manager.serverTrustEvaluator(forHost: host) else { return nil }
        return (evaluator as? Named)?.name
    }

    func testMostSpecificPatternWins() throws {
        let manager = try ServerTrustManager(evaluators: [
            "api.example.com": Named(name: "exact"),
            "*.example.com": Named(name: "one label"),
            "**.example.com": Named(name: "any depth"),
            "**.b.example.com": Named(name: "any depth under b"),
            "*.c.example.com": Named(name: "one label under c"),
        ])
        XCTAssertEqual(try picked(manager, "api.example.com"), "exact")
        XCTAssertEqual(try picked(manager, "API.example.com."), "exact")
        XCTAssertEqual(try picked(manager, "www.example.com"), "one label")
        XCTAssertEqual(try picked(manager, "example.com"), "any depth")
        XCTAssertEqual(try picked(manager, "x.y.example.com"), "any depth")
        XCTAssertEqual(try picked(manager, "b.example.com"), "any depth under b", "more labels beat *.example.com")
        XCTAssertEqual(try picked(manager, "x.b.example.com"), "any depth under b")
        XCTAssertEqual(try picked(manager, "x.c.example.com"), "one label under c")
        XCTAssertEqual(try picked(manager, "x.y.c.example.com"), "any depth")
        XCTAssertEqual(manager.matchingPattern(forHost: "b.example.com")?.description, "**.b.example.com")
        XCTAssertThrowsError(try picked(manager, "example.org")) { error in
            guard case .noRequiredEvaluator("example.org")? = error as? ServerTrustFailureReason else { return XCTFail("\(error)") }
        }
    }

    func testUnmatchedHostWhenNotAllHostsMustBeEvaluated() throws {
        let manager = try ServerTrustManager(allHostsMustBeEvaluated: false, evaluators: ["localhost": DisabledTrustEvaluator()])
        XCTAssertNil(try manager.serverTrustEvaluator(forHost: TestPKI.host))
        XCTAssertNil(try manager.serverTrustEvaluator(forHost: "not a host"))
        // Unmatched hosts get default evaluation, never a free pass.
        XCTAssertEqual(outcome(of: manager, try TestPKI.trust(TestPKI.validChain)), "pass")
        XCTAssertEqual(outcome(of: manager, try TestPKI.trust(TestPKI.expiredChain)), "trustEvaluationFailed/default")
        XCTAssertEqual(outcome(of: manager, try TestPKI.trust(TestPKI.validChain), host: TestPKI.otherHost), "trustEvaluationFailed/host")
    }

    func testEvaluateUsesTheMatchedEvaluator() throws {
        let wrongPin = try TestPKI.certificate("rsa/leaf.pem")
        let manager = try ServerTrustManager(evaluators: [
            "www.swifttrust.test": DisabledTrustEvaluator(),
            "**.swifttrust.test": DefaultTrustEvaluator(validateHost: false),
            "*.pinned.swifttrust.test": PinnedCertificatesTrustEvaluator(certificates: [wrongPin], validateHost: false),
        ])
        XCTAssertEqual(outcome(of: manager, try TestPKI.trust(TestPKI.expiredChain)), "pass")
        XCTAssertEqual(outcome(of: manager, try TestPKI.trust(TestPKI.expiredChain), host: TestPKI.otherHost), "trustEvaluationFailed/default")
        XCTAssertEqual(outcome(of: manager, try TestPKI.trust(TestPKI.validChain), host: "swifttrust.test"), "pass")
        XCTAssertEqual(outcome(of: manager, try TestPKI.trust(TestPKI.validChain), host: "a.pinned.swifttrust.test"),
                       "certificatePinningFailed")
        XCTAssertEqual(outcome(of: manager, try TestPKI.trust(TestPKI.validChain), host: "www.example.org"), "noRequiredEvaluator")
    }

    func testIPHosts() throws {
        let manager = try ServerTrustManager(evaluators: ["2001:db8::10": Named(name: "v6"), "192.0.2.10": Named(name: "v4"),
                                                          "**.swifttrust.test": Named(name: "dns")])
        XCTAssertEqual(try picked(manager, "[2001:DB8::10]"), "v6")
        XCTAssertEqual(try picked(manager, "192.0.2.10"), "v4")
        XCTAssertThrowsError(try picked(manager, "192.0.2.11"))
    }

    func testConfigurationErrors() {
        XCTAssertThrowsError(try ServerTrustManager(evaluators: ["Example.com": DisabledTrustEvaluator(),
                                                                 "example.com.": DisabledTrustEvaluator()])) { error in
            guard case .duplicateHostPattern(_, "example.com")? = error as? PinningConfigurationError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try ServerTrustManager(evaluators: ["*.example.com": DisabledTrustEvaluator(),
                                                                 "*.EXAMPLE.com": DisabledTrustEvaluator()]))
        XCTAssertThrowsError(try ServerTrustManager(evaluators: ["a.*.example.com": DisabledTrustEvaluator()])) { error in
            guard case .invalidHostPattern("a.*.example.com", _)? = error as? PinningConfigurationError else { return XCTFail("\(error)") }
        }
        XCTAssertNoThrow(try ServerTrustManager(evaluators: ["*.example.com": DisabledTrustEvaluator(),
                                                             "**.example.com": DisabledTrustEvaluator(),
                                                             "example.com": DisabledTrustEvaluator()]))
    }
}


