import Foundation
@testable import TrustPinning
import TrustTestSupport
import XCTest

final class ATSConfigurationTests: XCTestCase {
    /// A whole Info.plist: bundle keys, ATS keys that are not pinning, and three pinned domains
    /// (leaf pins; CA pins with subdomains; both lists).
    private func infoPlist() throws -> Data {
        let leaf = try ConfigurationPins.leaf().bareBase64, backup = try ConfigurationPins.backup().bareBase64
        let intermediate = try ConfigurationPins.intermediate().bareBase64, root = try ConfigurationPins.root().bareBase64
        return xmlPropertyList(
            """
            <dict>
                <key>CFBundleIdentifier</key><string>test.swifttrust.app</string>
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSAllowsArbitraryLoads</key><false/>
                    <key>NSExceptionDomains</key>
                    <dict>
                        <key>legacy.swifttrust.test</key>
                        <dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.2</string></dict>
                    </dict>
                    <key>NSPinnedDomains</key>
                    <dict>
                        <key>WWW.SwiftTrust.test</key>
                        <dict>
                            <key>NSPinnedLeafIdentities</key>
                            <array>
                                <dict><key>SPKI-SHA256-BASE64</key><string>\(leaf)</string></dict>
                                <dict><key>SPKI-SHA256-BASE64</key><string>\(backup)</string></dict>
                            </array>
                        </dict>
                        <key>swifttrust.test</key>
                        <dict>
                            <key>NSIncludesSubdomains</key><true/>
                            <key>NSPinnedCAIdentities</key>
                            <array><dict><key>SPKI-SHA256-BASE64</key><string>\(intermediate)</string></dict></array>
                        </dict>
                        <key>api.swifttrust.test</key>
                        <dict>
                            <key>NSIncludesSubdomains</key><false/>
                            <key>NSPinnedLeafIdentities</key>
                            <array><dict><key>SPKI-SHA256-BASE64</key><string>\(leaf)</string></dict></array>
                            <key>NSPinnedCAIdentities</key>
                            <array><dict><key>SPKI-SHA256-BASE64</key><string>\(root)</string></dict></array>
                        </dict>
                    </dict>
                </dict>
            </dict>
            """)
    }

    private func expectedConfiguration() throws -> PinningConfiguration {
        let leaf = try ConfigurationPins.leaf(), backup = try ConfigurationPins.backup()
        return try PinningConfiguration(
            domains: [
                DomainPinningPolicy(
                    domain: "api.swifttrust.test",
                    requirements: [
                        PinRequirement(scope: .leaf, pins: [leaf]),
                        PinRequirement(scope: .certificateAuthority, pins: [ConfigurationPins.root()]),
                    ]),
                DomainPinningPolicy(
                    domain: "swifttrust.test", subdomains: .oneLevel,
                    requirements: [
                        PinRequirement(scope: .certificateAuthority, pins: [ConfigurationPins.intermediate()])
                    ]),
                DomainPinningPolicy(domain: "www.swifttrust.test", requirements: [PinRequirement(scope: .leaf, pins: [leaf, backup])]),
            ], policySelection: .mergingExactAndParentEntries)
    }

    func testLoadsInfoPlistIgnoringOtherATSKeys() throws {
        let configuration = try PinningConfiguration.loadATS(data: infoPlist(), file: "Info.plist")
        XCTAssertEqual(configuration, try expectedConfiguration())
        for policy in configuration.domains {
            XCTAssertEqual(policy.enforcement, .enforce)
            XCTAssertNil(policy.expirationDate)
            XCTAssertEqual(policy.reportURIs, [])
            XCTAssertNil(policy.trustAnchors)
        }
    }

    func testBinaryInfoPlistLoadsTheSame() throws {
        let binary = try binaryPropertyList(infoPlist())
        XCTAssertEqual(try PinningConfiguration.loadATS(data: binary, file: "Info.plist"), try expectedConfiguration())
    }

    func testAppTransportSecurityDictionaryAlone() throws {
        let leaf = try ConfigurationPins.leaf().bareBase64
        let data = xmlPropertyList(
            """
            <dict><key>NSPinnedDomains</key><dict><key>www.swifttrust.test</key><dict>
                <key>NSPinnedLeafIdentities</key><array><dict><key>SPKI-SHA256-BASE64</key><string>\(leaf)</string></dict></array>
            </dict></dict></dict>
            """)
        let configuration = try PinningConfiguration.loadATS(data: data, file: "ats.plist")
        XCTAssertEqual(configuration.domains.map(\.domain), ["www.swifttrust.test"])
        XCTAssertEqual(configuration.domains.first?.requirements, [try PinRequirement(scope: .leaf, pins: [ConfigurationPins.leaf()])])
    }

    /// The loaded scopes mean what ATS means on the real chain: a leaf list matches only the leaf,
    /// a CA list only a CA, and NSIncludesSubdomains reaches one label down.
    func testLoadedPoliciesOnTheRealChain() throws {
        let configuration = try PinningConfiguration.loadATS(data: infoPlist(), file: "Info.plist")
        let chain = try ConfigurationPins.chain()
        let www = try XCTUnwrap(configuration.policy(forHost: "www.swifttrust.test"))
        XCTAssertEqual(www.domain, "www.swifttrust.test")
        XCTAssertTrue(www.requirements.allSatisfy { $0.isSatisfied(by: chain) })
        // The leaf's pin in a CA list matches nothing: the leaf is not a CA.
        let leafAsCA = try PinRequirement(scope: .certificateAuthority, pins: [ConfigurationPins.leaf()])
        XCTAssertFalse(leafAsCA.isSatisfied(by: chain))

        XCTAssertEqual(configuration.policy(forHost: "cdn.swifttrust.test")?.domain, "swifttrust.test")
        XCTAssertNil(configuration.policy(forHost: "a.cdn.swifttrust.test"), "one label only")
        let api = try XCTUnwrap(configuration.policy(forHost: "api.swifttrust.test"))
        XCTAssertEqual(api.requirements.map { $0.isSatisfied(by: chain) }, [true, true])
        // api's CA list (the root) is merged with its parent's (the intermediate), as Apple's
        // parseNSPinnedDomains appends both entries' digests: a chain without the root still passes.
        XCTAssertEqual(api.requirements.last?.pins, [try ConfigurationPins.root(), try ConfigurationPins.intermediate()])
        XCTAssertTrue(api.requirements.allSatisfy { $0.isSatisfied(by: Array(chain.prefix(2))) })
        XCTAssertFalse(api.requirements.allSatisfy { $0.isSatisfied(by: Array(chain.prefix(1))) }, "a CA pin needs a CA certificate")
    }

    /// `<true/>` and `<integer>1</integer>` arrive as different types (CFBoolean vs NSNumber),
    /// in XML and in binary.
    func testBooleanIsNotInteger() throws {
        let leaf = try ConfigurationPins.leaf().bareBase64
        let xml = xmlPropertyList(
            """
            <dict><key>NSPinnedDomains</key><dict><key>swifttrust.test</key><dict>
                <key>NSIncludesSubdomains</key><integer>1</integer>
                <key>NSPinnedLeafIdentities</key><array><dict><key>SPKI-SHA256-BASE64</key><string>\(leaf)</string></dict></array>
            </dict></dict></dict>
            """)
        for data in [xml, try binaryPropertyList(xml)] {
            assertLoadFails(
                "integer as boolean", keyPath: "NSPinnedDomains.swifttrust.test.NSIncludesSubdomains",
                { () throws(PinningConfigurationLoadError) in try PinningConfiguration.loadATS(data: data, file: "f") }
            ) {
                $0 == .wrongType(expected: "boolean", found: "integer")
            }
        }
    }

    func testSyntaxErrorNamesTheLine() throws {
        let data = Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSPinnedDomains</key>
                    <dict></dic>
                </dict>
            </dict>
            </plist>
            """.utf8)
        let error = try XCTUnwrap(
            loadError { () throws(PinningConfigurationLoadError) in
                try PinningConfiguration.loadATS(data: data, file: "Info.plist")
            })
        XCTAssertTrue(error.rule.isMalformedDocument, "\(error)")
        XCTAssertEqual(error.line, 7)
        XCTAssertEqual(error.file, "Info.plist")
    }

    func testMalformedConfigurations() throws {
        let leaf = try ConfigurationPins.leaf().bareBase64
        let identity = "<dict><key>SPKI-SHA256-BASE64</key><string>\(leaf)</string></dict>"
        func pinned(_ domains: String) -> Data {
            xmlPropertyList("<dict><key>NSAppTransportSecurity</key><dict><key>NSPinnedDomains</key><dict>\(domains)</dict></dict></dict>")
        }
        func domain(_ name: String, _ body: String) -> String { "<key>\(name)</key><dict>\(body)</dict>" }
        let leafList = "<key>NSPinnedLeafIdentities</key><array>\(identity)</array>"
        let base = "NSAppTransportSecurity.NSPinnedDomains"
        let shortDigest = Data(repeating: 7, count: 31).base64EncodedString()

        let cases: [(String, Data, String?, (PinningConfigurationRule) -> Bool)] = [
            (
                "no NSAppTransportSecurity", xmlPropertyList("<dict><key>CFBundleIdentifier</key><string>x</string></dict>"), nil,
                { if case .missingKey = $0 { return true } else { return false } }
            ),
            (
                "no NSPinnedDomains",
                xmlPropertyList("<dict><key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><false/></dict></dict>"),
                "NSAppTransportSecurity", { $0 == .missingKey("NSPinnedDomains") }
            ),
            ("root is an array", xmlPropertyList("<array/>"), nil, { $0 == .wrongType(expected: "dictionary", found: "array") }),
            // Foundation reads a bare word as an old-style property list holding one string.
            ("plain text", Data("bplist00garbage".utf8), nil, { if case .unrecognisedFormat = $0 { return true } else { return false } }),
            ("PEM text", Data("-----BEGIN CERTIFICATE-----\nMIIB\n".utf8), nil, \.isMalformedDocument),
            (
                "NSPinnedDomains is an array",
                xmlPropertyList("<dict><key>NSAppTransportSecurity</key><dict><key>NSPinnedDomains</key><array/></dict></dict>"),
                base, { $0 == .wrongType(expected: "dictionary", found: "array") }
            ),
            ("empty NSPinnedDomains", pinned(""), base, \.isInvalidValue),
            (
                "boolean as string", pinned(domain("swifttrust.test", "<key>NSIncludesSubdomains</key><string>YES</string>" + leafList)),
                "\(base).swifttrust.test.NSIncludesSubdomains", { $0 == .wrongType(expected: "boolean", found: "string") }
            ),
            (
                "identity list is a dictionary", pinned(domain("swifttrust.test", "<key>NSPinnedLeafIdentities</key>\(identity)")),
                "\(base).swifttrust.test.NSPinnedLeafIdentities", { $0 == .wrongType(expected: "array", found: "dictionary") }
            ),
            (
                "identity is a string", pinned(domain("swifttrust.test", "<key>NSPinnedCAIdentities</key><array><string>\(leaf)</string></array>")),
                "\(base).swifttrust.test.NSPinnedCAIdentities[0]", { $0 == .wrongType(expected: "dictionary", found: "string") }
            ),
            (
                "misspelt list", pinned(domain("swifttrust.test", leafList + "<key>NSPinnedCAIdentity</key><array>\(identity)</array>")),
                "\(base).swifttrust.test.NSPinnedCAIdentity", { $0 == .unexpectedKey("NSPinnedCAIdentity") }
            ),
            (
                "unknown identity key",
                pinned(
                    domain(
                        "swifttrust.test",
                        "<key>NSPinnedLeafIdentities</key><array><dict><key>SPKI-SHA1-BASE64</key><string>\(leaf)</string></dict></array>")),
                "\(base).swifttrust.test.NSPinnedLeafIdentities[0].SPKI-SHA1-BASE64", { $0 == .unexpectedKey("SPKI-SHA1-BASE64") }
            ),
            (
                "identity without digest", pinned(domain("swifttrust.test", "<key>NSPinnedLeafIdentities</key><array><dict/></array>")),
                "\(base).swifttrust.test.NSPinnedLeafIdentities[0]", { $0 == .missingKey("SPKI-SHA256-BASE64") }
            ),
            (
                "empty identity list", pinned(domain("swifttrust.test", "<key>NSPinnedLeafIdentities</key><array/>")),
                "\(base).swifttrust.test.NSPinnedLeafIdentities", \.isInvalidValue
            ),
            (
                "no identity list", pinned(domain("swifttrust.test", "<key>NSIncludesSubdomains</key><true/>")),
                "\(base).swifttrust.test", { $0 == .noPins(domain: "swifttrust.test") }
            ),
            (
                "bad base64",
                pinned(
                    domain(
                        "swifttrust.test",
                        "<key>NSPinnedLeafIdentities</key><array><dict><key>SPKI-SHA256-BASE64</key><string>not base64!</string></dict></array>")),
                "\(base).swifttrust.test.NSPinnedLeafIdentities[0].SPKI-SHA256-BASE64", \.isMalformedPin
            ),
            (
                "31-byte digest",
                pinned(
                    domain(
                        "swifttrust.test",
                        "<key>NSPinnedCAIdentities</key><array><dict><key>SPKI-SHA256-BASE64</key><string>\(shortDigest)</string></dict></array>")),
                "\(base).swifttrust.test.NSPinnedCAIdentities[0].SPKI-SHA256-BASE64", \.isMalformedPin
            ),
            (
                "sha256/ prefix is not ATS",
                pinned(
                    domain(
                        "swifttrust.test",
                        "<key>NSPinnedLeafIdentities</key><array><dict><key>SPKI-SHA256-BASE64</key><string>sha256/\(leaf)</string></dict></array>")),
                "\(base).swifttrust.test.NSPinnedLeafIdentities[0].SPKI-SHA256-BASE64", \.isMalformedPin
            ),
            (
                "duplicate after case and trailing dot", pinned(domain("SwiftTrust.TEST", leafList) + domain("swifttrust.test.", leafList)),
                "\(base).swifttrust.test.", { $0 == .duplicateDomain("swifttrust.test") }
            ),
            ("invalid domain", pinned(domain("swift trust.test", leafList)), "\(base).swift trust.test", \.isInvalidHostPattern),
            (
                "the same domain key twice", pinned(domain("swifttrust.test", leafList) + domain("swifttrust.test", leafList)),
                "\(base).swifttrust.test", \.isInvalidValue
            ),
            (
                "the same list twice", pinned(domain("swifttrust.test", leafList + leafList)),
                "\(base).swifttrust.test.NSPinnedLeafIdentities", \.isInvalidValue
            ),
            ("wildcard domain", pinned(domain("*.swifttrust.test", leafList)), "\(base).*.swifttrust.test", \.isInvalidHostPattern),
            (
                "subdomains of an IP address", pinned(domain("127.0.0.1", "<key>NSIncludesSubdomains</key><true/>" + leafList)),
                "\(base).127.0.0.1", \.isInvalidHostPattern
            ),
        ]
        for (name, data, keyPath, matches) in cases {
            assertLoadFails(
                name, keyPath: keyPath,
                { () throws(PinningConfigurationLoadError) in
                    try PinningConfiguration.loadATS(data: data, file: "Info.plist")
                }, rule: matches)
        }
    }

    // MARK: Writing

    func testRoundTrip() throws {
        let configurations = [
            try expectedConfiguration(),
            try PinningConfiguration(
                domains: [
                    DomainPinningPolicy(domain: "127.0.0.1", requirements: [PinRequirement(scope: .leaf, pins: [ConfigurationPins.leaf()])]),
                    DomainPinningPolicy(
                        domain: "bücher.example", subdomains: .oneLevel,
                        requirements: [
                            PinRequirement(scope: .certificateAuthority, pins: [ConfigurationPins.root(), ConfigurationPins.intermediate()])
                        ]),
                ], policySelection: .mergingExactAndParentEntries),
        ]
        for configuration in configurations {
            let written = try configuration.atsPropertyList()
            XCTAssertEqual(try PinningConfiguration.loadATS(data: written, file: "out.plist"), configuration)
            XCTAssertEqual(try configuration.atsPropertyList(), written, "deterministic")
        }
    }

    /// The writer's output is an Info.plist fragment with the pins as bare base64, readable by any
    /// property-list reader.
    func testWrittenDocumentShape() throws {
        let written = try expectedConfiguration().atsPropertyList()
        let object = try PropertyListSerialization.propertyList(from: written, options: [], format: nil)
        let pinned = try XCTUnwrap(((object as? [String: Any])?["NSAppTransportSecurity"] as? [String: Any])?["NSPinnedDomains"] as? [String: Any])
        XCTAssertEqual(pinned.keys.sorted(), ["api.swifttrust.test", "swifttrust.test", "www.swifttrust.test"])
        let www = try XCTUnwrap(pinned["www.swifttrust.test"] as? [String: Any])
        let identities = try XCTUnwrap(www["NSPinnedLeafIdentities"] as? [[String: String]])
        XCTAssertEqual(
            identities.compactMap { $0["SPKI-SHA256-BASE64"] },
            [try ConfigurationPins.leaf().bareBase64, try ConfigurationPins.backup().bareBase64])
    }

    func testWriterRefusesWhatATSCannotExpress() throws {
        let leaf = try ConfigurationPins.leaf(), backup = try ConfigurationPins.backup()
        let leafRequirement = try PinRequirement(scope: .leaf, pins: [leaf])
        let anyRequirement = try PinRequirement(scope: .anyCertificate, pins: [leaf, backup])
        func policy(
            subdomains: SubdomainCoverage = .none, requirements: [PinRequirement]? = nil, expiration: Date? = nil,
            enforcement: PinEnforcement = .enforce, reportURIs: [URL] = [],
            anchors: PinningTrustAnchors? = nil
        ) throws -> DomainPinningPolicy {
            try DomainPinningPolicy(
                domain: "www.swifttrust.test", subdomains: subdomains, requirements: requirements ?? [leafRequirement],
                expirationDate: expiration, enforcement: enforcement, reportURIs: reportURIs, trustAnchors: anchors)
        }
        let cases: [(String, DomainPinningPolicy)] = [
            ("any certificate scope", try policy(requirements: [anyRequirement])),
            ("any depth", try policy(subdomains: .anyDepth)),
            ("report-only", try policy(enforcement: .reportOnly)),
            ("expiration", try policy(expiration: TestCertificates.verifyDate)),
            ("report URI", try policy(reportURIs: [try XCTUnwrap(URL(string: "https://report.swifttrust.test/pins"))])),
            ("trust anchors", try policy(anchors: PinningTrustAnchors(includesSystemStore: true))),
            ("no requirements", try policy(requirements: [])),
            ("two leaf requirements", try policy(requirements: [leafRequirement, PinRequirement(scope: .leaf, pins: [backup])])),
        ]
        for (name, policy) in cases {
            let configuration = try PinningConfiguration(domains: [policy])
            let error = exportError { () throws(PinningConfigurationExportError) in try configuration.atsPropertyList() }
            XCTAssertEqual(error?.format, .ats, name)
            XCTAssertEqual(error?.domain, "www.swifttrust.test", name)
        }
        let empty = try PinningConfiguration(domains: [])
        let error = exportError { () throws(PinningConfigurationExportError) in try empty.atsPropertyList() }
        XCTAssertEqual(error?.format, .ats)
        XCTAssertNil(error?.domain)
    }
}
