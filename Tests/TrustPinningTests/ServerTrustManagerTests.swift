import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
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

    func testMostSpecificPatternWinsWithHostPatternMatching() throws {
        let manager = try ServerTrustManager(
            matching: .hostPatterns,
            evaluators: [
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
        XCTAssertNil(try manager.serverTrustEvaluator(forHost: TestCertificates.host))
        XCTAssertNil(try manager.serverTrustEvaluator(forHost: "not a host"))
        // Unmatched hosts get default evaluation, never a free pass.
        XCTAssertEqual(outcome(of: manager, try TestCertificates.trust(TestCertificates.validChain)), "pass")
        XCTAssertEqual(outcome(of: manager, try TestCertificates.trust(TestCertificates.expiredChain)), "trustEvaluationFailed/default")
        XCTAssertEqual(
            outcome(of: manager, try TestCertificates.trust(TestCertificates.validChain), host: TestCertificates.otherHost),
            "trustEvaluationFailed/host")
    }

    func testEvaluateUsesTheMatchedEvaluator() throws {
        let wrongPin = try TestCertificates.certificate("rsa/leaf.pem")
        let manager = try ServerTrustManager(
            matching: .hostPatterns,
            evaluators: [
                "www.swifttrust.test": DisabledTrustEvaluator(),
                "**.swifttrust.test": DefaultTrustEvaluator(validateHost: false),
                "*.pinned.swifttrust.test": PinnedCertificatesTrustEvaluator(certificates: [wrongPin], validateHost: false),
            ])
        XCTAssertEqual(outcome(of: manager, try TestCertificates.trust(TestCertificates.expiredChain)), "pass")
        XCTAssertEqual(
            outcome(of: manager, try TestCertificates.trust(TestCertificates.expiredChain), host: TestCertificates.otherHost),
            "trustEvaluationFailed/default")
        XCTAssertEqual(outcome(of: manager, try TestCertificates.trust(TestCertificates.validChain), host: "swifttrust.test"), "pass")
        XCTAssertEqual(
            outcome(of: manager, try TestCertificates.trust(TestCertificates.validChain), host: "a.pinned.swifttrust.test"),
            "certificatePinningFailed")
        XCTAssertEqual(outcome(of: manager, try TestCertificates.trust(TestCertificates.validChain), host: "www.example.org"), "noRequiredEvaluator")
    }

    func testIPHostsWithHostPatternMatching() throws {
        let manager = try ServerTrustManager(
            matching: .hostPatterns,
            evaluators: [
                "2001:db8::10": Named(name: "v6"), "192.0.2.10": Named(name: "v4"), "**.swifttrust.test": Named(name: "dns"),
            ])
        XCTAssertEqual(try picked(manager, "[2001:DB8::10]"), "v6")
        XCTAssertEqual(try picked(manager, "192.0.2.10"), "v4")
        XCTAssertThrowsError(try picked(manager, "192.0.2.11"))
    }

    func testHostPatternConfigurationErrors() {
        XCTAssertThrowsError(
            try ServerTrustManager(
                matching: .hostPatterns,
                evaluators: [
                    "Example.com": DisabledTrustEvaluator(),
                    "example.com.": DisabledTrustEvaluator(),
                ])
        ) { error in
            guard case .duplicateHostPattern(_, "example.com")? = error as? PinningConfigurationError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(
            try ServerTrustManager(
                matching: .hostPatterns,
                evaluators: [
                    "*.example.com": DisabledTrustEvaluator(),
                    "*.EXAMPLE.com": DisabledTrustEvaluator(),
                ]))
        XCTAssertThrowsError(try ServerTrustManager(matching: .hostPatterns, evaluators: ["a.*.example.com": DisabledTrustEvaluator()])) { error in
            guard case .invalidHostPattern("a.*.example.com", _)? = error as? PinningConfigurationError else { return XCTFail("\(error)") }
        }
        XCTAssertNoThrow(
            try ServerTrustManager(
                matching: .hostPatterns,
                evaluators: [
                    "*.example.com": DisabledTrustEvaluator(),
                    "**.example.com": DisabledTrustEvaluator(),
                    "example.com": DisabledTrustEvaluator(),
                ]))
    }

    /// Alamofire's `ServerTrustManager.serverTrustEvaluator(forHost:)` is `evaluators[host]`: the
    /// default lookup compares the host string as given — case-sensitively, with no IDNA, trailing-dot
    /// or IP normalisation.
    func testLookupIsAnExactDictionaryLookupAsAlamofiresServerTrustManager() throws {
        let manager = try ServerTrustManager(evaluators: [
            "api.example.com": Named(name: "api"), "example.com": Named(name: "apex"),
            "API.example.org": Named(name: "upper"), "2001:db8::10": Named(name: "v6"),
        ])
        XCTAssertEqual(manager.matching, .exact)
        XCTAssertEqual(try picked(manager, "api.example.com"), "api")
        XCTAssertEqual(try picked(manager, "example.com"), "apex")
        XCTAssertEqual(try picked(manager, "API.example.org"), "upper")
        XCTAssertEqual(try picked(manager, "2001:db8::10"), "v6")
        for miss in ["API.example.com", "example.com.", "www.example.com", "api.example.org", "[2001:db8::10]", "2001:DB8::10"] {
            XCTAssertThrowsError(try picked(manager, miss), miss) { error in
                guard case .noRequiredEvaluator(miss)? = error as? ServerTrustFailureReason else { return XCTFail("\(miss): \(error)") }
            }
        }
        XCTAssertEqual(manager.matchingPattern(forHost: "api.example.com")?.description, "api.example.com")
        XCTAssertNil(manager.matchingPattern(forHost: "API.example.com"))

        // With allHostsMustBeEvaluated false, a miss gets default evaluation, not the key's pins:
        // the real chain for www.swifttrust.test fails its wrong pin under the exact key only.
        let wrongPin = try TestCertificates.certificate("rsa/leaf.pem")
        let lenient = try ServerTrustManager(
            allHostsMustBeEvaluated: false,
            evaluators: [
                TestCertificates.host: PinnedCertificatesTrustEvaluator(certificates: [wrongPin])
            ])
        XCTAssertEqual(outcome(of: lenient, try TestCertificates.trust(TestCertificates.validChain)), "certificatePinningFailed")
        XCTAssertEqual(outcome(of: lenient, try TestCertificates.trust(TestCertificates.validChain), host: "WWW.swifttrust.test"), "pass")
        XCTAssertEqual(outcome(of: lenient, try TestCertificates.trust(TestCertificates.validChain), host: TestCertificates.host + "."), "pass")
    }

    /// The named option keeps pattern matching: wildcards, case folding and the most specific match.
    func testHostPatternMatchingIsTheNamedOption() throws {
        let manager = try ServerTrustManager(
            matching: .hostPatterns,
            evaluators: [
                "api.example.com": Named(name: "api"), "*.example.com": Named(name: "one label"),
            ])
        XCTAssertEqual(manager.matching, .hostPatterns)
        XCTAssertEqual(try picked(manager, "API.example.com."), "api")
        XCTAssertEqual(try picked(manager, "www.example.com"), "one label")
        XCTAssertThrowsError(try picked(manager, "a.b.example.com"))
    }

    /// In exact mode a wildcard key would never match (Alamofire accepts it silently): it is refused,
    /// naming the option that matches it.
    func testWildcardKeyIsRefusedByTheExactLookup() {
        for key in ["*.example.com", "**.example.com"] {
            XCTAssertThrowsError(try ServerTrustManager(evaluators: [key: DisabledTrustEvaluator()]), key) { error in
                guard case .wildcardNeedsHostPatterns(key)? = error as? PinningConfigurationError else { return XCTFail("\(key): \(error)") }
                XCTAssertTrue("\(error)".contains("matching: .hostPatterns"), "\(error)")
            }
        }
    }

    /// Keys that cannot be hosts are refused in both modes (SwiftTrust's rule, stricter than
    /// Alamofire's initialiser, which accepts any string).
    func testKeysThatCannotBeHostsAreRefusedInBothModes() {
        for key in ["", "exa mple.com", "-bad.example.com", "a.*.example.com", "*", "https://example.com"] {
            XCTAssertThrowsError(try ServerTrustManager(evaluators: [key: DisabledTrustEvaluator()]), key) { error in
                guard case .invalidHost(key, _)? = error as? PinningConfigurationError else { return XCTFail("\(key): \(error)") }
            }
            XCTAssertThrowsError(try ServerTrustManager(matching: .hostPatterns, evaluators: [key: DisabledTrustEvaluator()]), key) { error in
                guard case .invalidHostPattern(key, _)? = error as? PinningConfigurationError else { return XCTFail("\(key): \(error)") }
            }
        }
        // Distinct strings are distinct keys of an exact lookup, as in Alamofire's dictionary.
        XCTAssertNoThrow(try ServerTrustManager(evaluators: ["Example.com": DisabledTrustEvaluator(), "example.com.": DisabledTrustEvaluator()]))
    }
}
