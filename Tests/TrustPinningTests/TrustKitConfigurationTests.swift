import Foundation
@testable import TrustPinning
import TrustTestSupport
import XCTest

final class TrustKitConfigurationTests: XCTestCase {
    private let reportURI = "https://report.swifttrust.test/pins"

    /// The TrustKit configuration dictionary as JSON: an enforced domain with subdomains, an
    /// excluded subdomain, and a report-only domain with one pin, an expiration and report URIs.
    private func configurationJSON() throws -> String {
        let leaf = try ConfigurationPins.leaf().bareBase64, backup = try ConfigurationPins.backup().bareBase64
        let intermediate = try ConfigurationPins.intermediate().bareBase64
        return """
            {
              "TSKSwizzleNetworkDelegates": false,
              "TSKIgnorePinningForUserDefinedTrustAnchors": true,
              "TSKPinnedDomains": {
                "SwiftTrust.test": {
                  "TSKIncludeSubdomains": true,
                  "TSKPublicKeyHashes": ["\(intermediate)", "\(backup)", "\(intermediate)"],
                  "TSKPublicKeyAlgorithms": ["TSKAlgorithmEcDsaSecp256r1"],
                  "TSKDisableDefaultReportUri": false
                },
                "legacy.swifttrust.test": {
                  "kSKExcludeSubdomainFromParentPolicy": true
                },
                "reports.test": {
                  "TSKEnforcePinning": false,
                  "TSKPublicKeyHashes": ["\(leaf)"],
                  "TSKExpirationDate": "2026-12-31",
                  "TSKReportUris": ["\(reportURI)", "http://127.0.0.1:8080/report"]
                }
              }
            }
            """
    }

    /// The same dictionary as an Info.plist with `TSKConfiguration`, written by Foundation.
    private func infoPlist(binary: Bool) throws -> Data {
        let configuration = try JSONSerialization.jsonObject(with: Data(configurationJSON().utf8))
        let info: [String: Any] = ["CFBundleIdentifier": "test.swifttrust.app", "TSKConfiguration": configuration]
        return try PropertyListSerialization.data(fromPropertyList: info, format: binary ? .binary : .xml, options: 0)
    }

    private func expectedConfiguration() throws -> PinningConfiguration {
        let expiration = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-12-31T00:00:00Z"))
        return try PinningConfiguration(domains: [
            DomainPinningPolicy(domain: "legacy.swifttrust.test", requirements: []),
            DomainPinningPolicy(
                domain: "reports.test",
                requirements: [
                    PinRequirement(scope: .anyCertificate, pins: [ConfigurationPins.leaf()])
                ], expirationDate: expiration, enforcement: .reportOnly,
                reportURIs: [
                    XCTUnwrap(URL(string: reportURI)), XCTUnwrap(URL(string: "http://127.0.0.1:8080/report")),
                ]),
            DomainPinningPolicy(
                domain: "swifttrust.test", subdomains: .anyDepth,
                requirements: [
                    PinRequirement(scope: .anyCertificate, pins: [ConfigurationPins.intermediate(), ConfigurationPins.backup()])
                ]),
        ])
    }

    func testLoadsJSON() throws {
        let configuration = try PinningConfiguration.loadTrustKit(data: Data(configurationJSON().utf8), file: "trustkit.json")
        XCTAssertEqual(configuration, try expectedConfiguration())
    }

    /// A report URI listed twice is one URI, in every format, so a configuration converted to
    /// another format loads to the same policy (the Android reader dropped the repeat and the
    /// TrustKit and JSON readers kept it; the trustkit-json fuzz target found the difference).
    func testARepeatedReportURIIsOneURIInEveryFormat() throws {
        let json = try configurationJSON().replacingOccurrences(
            of: "\"TSKReportUris\": [\"\(reportURI)\"", with: "\"TSKReportUris\": [\"\(reportURI)\", \"\(reportURI)\"")
        XCTAssertTrue(json.contains("[\"\(reportURI)\", \"\(reportURI)\""), "the test input repeats the URI")
        let configuration = try PinningConfiguration.loadTrustKit(data: Data(json.utf8), file: "trustkit.json")
        XCTAssertEqual(configuration, try expectedConfiguration())
        for format in PinningConfigurationFormat.allCases {
            guard let written = try? configuration.encoded(as: format) else { continue } // a format that cannot express it refuses
            let reread = try PinningConfiguration.load(data: written, file: "written", format: format)
            XCTAssertEqual(Set(reread.domains), Set(configuration.domains), "\(format)")
        }
        var policy = try XCTUnwrap(configuration.domains.first { $0.domain == "reports.test" })
        policy.reportURIs += policy.reportURIs
        XCTAssertEqual(policy.reportURIs.count, 2, "set through the property: still each URI once")
    }

    func testLoadsInfoPlistXMLAndBinary() throws {
        for binary in [false, true] {
            let configuration = try PinningConfiguration.loadTrustKit(data: infoPlist(binary: binary), file: "Info.plist")
            XCTAssertEqual(configuration, try expectedConfiguration(), "binary: \(binary)")
        }
    }

    func testLoadsConfigurationDictionaryAsPropertyList() throws {
        let configuration = try JSONSerialization.jsonObject(with: Data(configurationJSON().utf8))
        let data = try PropertyListSerialization.data(fromPropertyList: configuration, format: .xml, options: 0)
        XCTAssertEqual(try PinningConfiguration.loadTrustKit(data: data, file: "TSKConfiguration.plist"), try expectedConfiguration())
    }

    /// TrustKit's semantics on the real chain: pins match anywhere in the chain, subdomains at any
    /// depth, and the excluded subdomain has no pins while its own subdomains keep the parent's.
    func testLoadedPoliciesOnTheRealChain() throws {
        let configuration = try PinningConfiguration.loadTrustKit(data: Data(configurationJSON().utf8), file: "trustkit.json")
        let chain = try ConfigurationPins.chain()
        let deep = try XCTUnwrap(configuration.policy(forHost: "a.b.www.swifttrust.test"))
        XCTAssertEqual(deep.domain, "swifttrust.test")
        XCTAssertTrue(deep.requirements.allSatisfy { $0.isSatisfied(by: chain) }, "intermediate pin matches a CA of the chain")
        XCTAssertEqual(configuration.policy(forHost: "legacy.swifttrust.test")?.requirements, [])
        XCTAssertEqual(configuration.policy(forHost: "x.legacy.swifttrust.test")?.domain, "swifttrust.test")
        let reports = try XCTUnwrap(configuration.policy(forHost: "reports.test"))
        XCTAssertTrue(reports.requirements.allSatisfy { $0.isSatisfied(by: chain) }, "leaf pin matches the leaf")
        XCTAssertTrue(reports.pinsApply(at: TestCertificates.verifyDate))
        XCTAssertFalse(reports.pinsApply(at: try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-12-31T00:00:00Z"))))
    }

    func testSyntaxErrorsNameTheLine() throws {
        let json = Data("{\n  \"TSKPinnedDomains\": {\n    \"swifttrust.test\": { \"TSKPublicKeyHashes\": [ , ] }\n  }\n}\n".utf8)
        let jsonError = try XCTUnwrap(
            loadError { () throws(PinningConfigurationLoadError) in
                try PinningConfiguration.loadTrustKit(data: json, file: "trustkit.json")
            })
        XCTAssertTrue(jsonError.rule.isMalformedDocument, "\(jsonError)")
        XCTAssertEqual(jsonError.line, 3)

        let plist = Data(
            "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>TSKPinnedDomains</key>\n<dict>\n<key>a</key>\n<dict><true></dict>\n</dict>\n</dict>\n</plist>\n"
                .utf8)
        let plistError = try XCTUnwrap(
            loadError { () throws(PinningConfigurationLoadError) in
                try PinningConfiguration.loadTrustKit(data: plist, file: "Info.plist")
            })
        XCTAssertTrue(plistError.rule.isMalformedDocument, "\(plistError)")
        XCTAssertEqual(plistError.line, 7)
    }

    func testMalformedConfigurations() throws {
        let leaf = try ConfigurationPins.leaf().bareBase64, backup = try ConfigurationPins.backup().bareBase64
        let pins = "\"TSKPublicKeyHashes\": [\"\(leaf)\", \"\(backup)\"]"
        func domains(_ body: String) -> Data { Data("{\"TSKPinnedDomains\": {\(body)}}".utf8) }
        let base = "TSKPinnedDomains"
        let shortDigest = Data(repeating: 7, count: 31).base64EncodedString()

        let cases: [(String, Data, String?, (PinningConfigurationRule) -> Bool)] = [
            (
                "neither TSKConfiguration nor TSKPinnedDomains", Data("{\"CFBundleIdentifier\": \"x\"}".utf8), nil,
                { if case .missingKey = $0 { return true } else { return false } }
            ),
            (
                "TSKConfiguration without TSKPinnedDomains", Data("{\"TSKConfiguration\": {\"TSKSwizzleNetworkDelegates\": false}}".utf8),
                "TSKConfiguration", { $0 == .missingKey("TSKPinnedDomains") }
            ),
            ("empty TSKPinnedDomains", domains(""), base, \.isInvalidValue),
            (
                "unknown global key", Data("{\"TSKPinnedDomains\": {\"swifttrust.test\": {\(pins)}}, \"TSKPinnedDomain\": {}}".utf8),
                "TSKPinnedDomain", { $0 == .unexpectedKey("TSKPinnedDomain") }
            ),
            (
                "constant name instead of key", domains("\"swifttrust.test\": {\(pins), \"kTSKEnforcePinning\": true}"),
                "\(base).swifttrust.test.kTSKEnforcePinning", { $0 == .unexpectedKey("kTSKEnforcePinning") }
            ),
            (
                "JSON 1 as boolean", domains("\"swifttrust.test\": {\(pins), \"TSKEnforcePinning\": 1}"),
                "\(base).swifttrust.test.TSKEnforcePinning", { $0 == .wrongType(expected: "boolean", found: "integer") }
            ),
            (
                "string as boolean", Data("{\"TSKSwizzleNetworkDelegates\": \"NO\", \"TSKPinnedDomains\": {\"swifttrust.test\": {\(pins)}}}".utf8),
                "TSKSwizzleNetworkDelegates", { $0 == .wrongType(expected: "boolean", found: "string") }
            ),
            (
                "hashes not an array", domains("\"swifttrust.test\": {\"TSKPublicKeyHashes\": \"\(leaf)\"}"),
                "\(base).swifttrust.test.TSKPublicKeyHashes", { $0 == .wrongType(expected: "array", found: "string") }
            ),
            (
                "no hashes", domains("\"swifttrust.test\": {\"TSKIncludeSubdomains\": true}"),
                "\(base).swifttrust.test", { $0 == .missingKey("TSKPublicKeyHashes") }
            ),
            (
                "one enforced pin", domains("\"swifttrust.test\": {\"TSKPublicKeyHashes\": [\"\(leaf)\"]}"),
                "\(base).swifttrust.test.TSKPublicKeyHashes", { $0 == .tooFewPins(domain: "swifttrust.test", count: 1, minimum: 2) }
            ),
            (
                "the same pin twice", domains("\"swifttrust.test\": {\"TSKPublicKeyHashes\": [\"\(leaf)\", \"\(leaf)\"]}"),
                "\(base).swifttrust.test.TSKPublicKeyHashes", { $0 == .tooFewPins(domain: "swifttrust.test", count: 1, minimum: 2) }
            ),
            (
                "no pin, report-only", domains("\"swifttrust.test\": {\"TSKEnforcePinning\": false, \"TSKPublicKeyHashes\": []}"),
                "\(base).swifttrust.test.TSKPublicKeyHashes", { $0 == .tooFewPins(domain: "swifttrust.test", count: 0, minimum: 1) }
            ),
            (
                "bad base64", domains("\"swifttrust.test\": {\"TSKPublicKeyHashes\": [\"\(leaf)\", \"%%%\"]}"),
                "\(base).swifttrust.test.TSKPublicKeyHashes[1]", \.isMalformedPin
            ),
            (
                "31-byte digest", domains("\"swifttrust.test\": {\"TSKPublicKeyHashes\": [\"\(shortDigest)\", \"\(leaf)\"]}"),
                "\(base).swifttrust.test.TSKPublicKeyHashes[0]", \.isMalformedPin
            ),
            (
                "day that does not exist", domains("\"swifttrust.test\": {\(pins), \"TSKExpirationDate\": \"2026-02-30\"}"),
                "\(base).swifttrust.test.TSKExpirationDate", { $0 == .invalidDate("2026-02-30") }
            ),
            (
                "date in another form", domains("\"swifttrust.test\": {\(pins), \"TSKExpirationDate\": \"2026/12/31\"}"),
                "\(base).swifttrust.test.TSKExpirationDate", { $0 == .invalidDate("2026/12/31") }
            ),
            (
                "date as number", domains("\"swifttrust.test\": {\(pins), \"TSKExpirationDate\": 20261231}"),
                "\(base).swifttrust.test.TSKExpirationDate", { $0 == .wrongType(expected: "string", found: "integer") }
            ),
            (
                "ftp report URI", domains("\"swifttrust.test\": {\(pins), \"TSKReportUris\": [\"\(reportURI)\", \"ftp://report.test/x\"]}"),
                "\(base).swifttrust.test.TSKReportUris[1]", { $0 == .invalidReportURI("ftp://report.test/x") }
            ),
            (
                "report URI with credentials", domains("\"swifttrust.test\": {\(pins), \"TSKReportUris\": [\"https://u:p@report.test/x\"]}"),
                "\(base).swifttrust.test.TSKReportUris[0]", { $0 == .invalidReportURI("https://u:p@report.test/x") }
            ),
            (
                "relative report URI", domains("\"swifttrust.test\": {\(pins), \"TSKReportUris\": [\"/report\"]}"),
                "\(base).swifttrust.test.TSKReportUris[0]", { $0 == .invalidReportURI("/report") }
            ),
            (
                "unknown algorithm", domains("\"swifttrust.test\": {\(pins), \"TSKPublicKeyAlgorithms\": [\"TSKAlgorithmEd25519\"]}"),
                "\(base).swifttrust.test.TSKPublicKeyAlgorithms[0]", \.isInvalidValue
            ),
            (
                "subdomains of a public suffix", domains("\"co.uk\": {\(pins), \"TSKIncludeSubdomains\": true}"),
                "\(base).co.uk.TSKIncludeSubdomains", \.isInvalidValue
            ),
            (
                "subdomains of a private-section suffix", domains("\"appspot.com\": {\(pins), \"TSKIncludeSubdomains\": true}"),
                "\(base).appspot.com.TSKIncludeSubdomains", \.isInvalidValue
            ),
            (
                "exclusion with other keys",
                domains(
                    "\"swifttrust.test\": {\(pins), \"TSKIncludeSubdomains\": true}, "
                        + "\"a.swifttrust.test\": {\"kSKExcludeSubdomainFromParentPolicy\": true, \"TSKEnforcePinning\": false}"),
                "\(base).a.swifttrust.test.TSKEnforcePinning", \.isInvalidValue
            ),
            (
                "exclusion without a parent",
                domains(
                    "\"swifttrust.test\": {\(pins)}, "
                        + "\"a.swifttrust.test\": {\"kSKExcludeSubdomainFromParentPolicy\": true}"),
                "\(base).a.swifttrust.test.kSKExcludeSubdomainFromParentPolicy", \.isInvalidValue
            ),
            (
                "duplicate after case and trailing dot", domains("\"SwiftTrust.test\": {\(pins)}, \"swifttrust.test.\": {\(pins)}"),
                "\(base).swifttrust.test.", { $0 == .duplicateDomain("swifttrust.test") }
            ),
            ("invalid domain", domains("\"swift_trust..test\": {\(pins)}"), "\(base).swift_trust..test", \.isInvalidHostPattern),
            (
                "the same domain key twice", domains("\"swifttrust.test\": {\(pins)}, \"swifttrust.test\": {\(pins)}"),
                "\(base).swifttrust.test", \.isInvalidValue
            ),
            (
                "the same key twice, once escaped",
                domains("\"swifttrust.test\": {\(pins), \"TSKEnforcePinning\": true, \"TSK\\u0045nforcePinning\": false}"),
                "\(base).swifttrust.test.TSKEnforcePinning", \.isInvalidValue
            ),
            (
                "duplicate inside an array element",
                Data(
                    "{\"TSKPinnedDomains\": {\"swifttrust.test\": {\(pins), \"TSKReportUris\": [\"\(reportURI)\"]}}, \"x\": [1, {\"a\": 1, \"a\": 2}]}"
                        .utf8),
                "x[1].a", \.isInvalidValue
            ),
        ]
        for (name, data, keyPath, matches) in cases {
            assertLoadFails(
                name, keyPath: keyPath,
                { () throws(PinningConfigurationLoadError) in
                    try PinningConfiguration.loadTrustKit(data: data, file: "trustkit.json")
                }, rule: matches)
        }
    }

    /// Booleans from an XML plist: `<integer>1</integer>` is not `<true/>`.
    func testPropertyListIntegerIsNotBoolean() throws {
        let leaf = try ConfigurationPins.leaf().bareBase64, backup = try ConfigurationPins.backup().bareBase64
        let data = xmlPropertyList(
            """
            <dict><key>TSKConfiguration</key><dict><key>TSKPinnedDomains</key><dict><key>swifttrust.test</key><dict>
                <key>TSKIncludeSubdomains</key><integer>1</integer>
                <key>TSKPublicKeyHashes</key><array><string>\(leaf)</string><string>\(backup)</string></array>
            </dict></dict></dict></dict>
            """)
        assertLoadFails(
            "integer as boolean", keyPath: "TSKConfiguration.TSKPinnedDomains.swifttrust.test.TSKIncludeSubdomains",
            { () throws(PinningConfigurationLoadError) in try PinningConfiguration.loadTrustKit(data: data, file: "Info.plist") }
        ) {
            $0 == .wrongType(expected: "boolean", found: "integer")
        }
    }

    // MARK: Writing

    func testRoundTripThroughPropertyListAndJSON() throws {
        let configurations = [
            try expectedConfiguration(),
            try PinningConfiguration(domains: [
                DomainPinningPolicy(
                    domain: "bücher.example",
                    requirements: [
                        PinRequirement(scope: .anyCertificate, pins: [ConfigurationPins.root(), ConfigurationPins.backup()])
                    ])
            ]),
        ]
        for configuration in configurations {
            let plist = try configuration.trustKitPropertyList()
            XCTAssertEqual(try PinningConfiguration.loadTrustKit(data: plist, file: "Info.plist"), configuration)
            let json = try configuration.trustKitJSON()
            XCTAssertEqual(try PinningConfiguration.loadTrustKit(data: json, file: "trustkit.json"), configuration)
            XCTAssertEqual(try configuration.trustKitPropertyList(), plist, "deterministic")
            XCTAssertEqual(try configuration.trustKitJSON(), json, "deterministic")
        }
    }

    /// The writer's output is what TrustKit reads: `TSKConfiguration` in an Info.plist, TrustKit's
    /// key spellings, and `TSKDisableDefaultReportUri` so TrustKit reports only where we would.
    func testWrittenDocumentShape() throws {
        let plist = try expectedConfiguration().trustKitPropertyList()
        let object = try PropertyListSerialization.propertyList(from: plist, options: [], format: nil)
        let configuration = try XCTUnwrap((object as? [String: Any])?["TSKConfiguration"] as? [String: Any])
        let domains = try XCTUnwrap(configuration["TSKPinnedDomains"] as? [String: Any])
        XCTAssertEqual(domains.keys.sorted(), ["legacy.swifttrust.test", "reports.test", "swifttrust.test"])
        let excluded = try XCTUnwrap(domains["legacy.swifttrust.test"] as? [String: Any])
        XCTAssertEqual(Array(excluded.keys), ["kSKExcludeSubdomainFromParentPolicy"])
        let reports = try XCTUnwrap(domains["reports.test"] as? [String: Any])
        XCTAssertEqual(reports["TSKExpirationDate"] as? String, "2026-12-31")
        XCTAssertEqual(reports["TSKPublicKeyHashes"] as? [String], [try ConfigurationPins.leaf().bareBase64])
        XCTAssertEqual(reports["TSKDisableDefaultReportUri"] as? Bool, true)
    }

    func testWriterRefusesWhatTrustKitCannotExpress() throws {
        let leaf = try ConfigurationPins.leaf(), backup = try ConfigurationPins.backup()
        let twoPins = try PinRequirement(scope: .anyCertificate, pins: [leaf, backup])
        let parent = try DomainPinningPolicy(domain: "swifttrust.test", subdomains: .anyDepth, requirements: [twoPins])
        func policy(
            _ domain: String = "www.swifttrust.test", subdomains: SubdomainCoverage = .none, requirements: [PinRequirement]? = nil,
            expiration: Date? = nil, enforcement: PinEnforcement = .enforce, reportURIs: [URL] = [],
            anchors: PinningTrustAnchors? = nil
        ) throws -> DomainPinningPolicy {
            try DomainPinningPolicy(
                domain: domain, subdomains: subdomains, requirements: requirements ?? [twoPins],
                expirationDate: expiration, enforcement: enforcement, reportURIs: reportURIs, trustAnchors: anchors)
        }
        let cases: [(String, [DomainPinningPolicy])] = [
            ("leaf scope", [try policy(requirements: [PinRequirement(scope: .leaf, pins: [leaf, backup])])]),
            ("two requirements", [try policy(requirements: [twoPins, twoPins])]),
            ("one enforced pin", [try policy(requirements: [PinRequirement(scope: .anyCertificate, pins: [leaf])])]),
            ("one level of subdomains", [try policy(subdomains: .oneLevel)]),
            ("expiration inside a day", [try policy(expiration: TestCertificates.verifyDate.addingTimeInterval(3600))]),
            ("trust anchors", [try policy(anchors: PinningTrustAnchors(includesSystemStore: false))]),
            ("non-http report URI", [try policy(reportURIs: [try XCTUnwrap(URL(string: "mailto:pins@swifttrust.test"))])]),
            ("subdomains of a public suffix", [try policy("com", subdomains: .anyDepth)]),
            ("no pins without a parent", [try policy(requirements: [])]),
            ("no pins, report-only", [parent, try policy(requirements: [], enforcement: .reportOnly)]),
            ("no pins with subdomains", [parent, try policy(subdomains: .anyDepth, requirements: [])]),
        ]
        for (name, policies) in cases {
            let configuration = try PinningConfiguration(domains: policies)
            for export in [configuration.trustKitPropertyList, configuration.trustKitJSON] {
                let error = exportError { () throws(PinningConfigurationExportError) in try export() }
                XCTAssertEqual(error?.format, .trustkit, name)
                XCTAssertEqual(error?.domain, policies.last?.domain, name)
            }
        }
        // A report-only domain needs one pin only, and an exact UTC day is an expiration TrustKit can write.
        let reportOnly = try PinningConfiguration(domains: [
            policy(
                requirements: [PinRequirement(scope: .anyCertificate, pins: [leaf])], expiration: TestCertificates.verifyDate,
                enforcement: .reportOnly)
        ])
        XCTAssertEqual(try PinningConfiguration.loadTrustKit(data: reportOnly.trustKitJSON(), file: "trustkit.json"), reportOnly)
    }
}
