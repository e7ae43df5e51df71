import Foundation
@testable import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

final class AndroidConfigurationTests: XCTestCase {
    private var leafPin: SPKIPin!
    private var intermediatePin: SPKIPin!
    private var rsaLeafPin: SPKIPin!
    private var rsaRootPin: SPKIPin!
    private var temporaryDirectories: [URL] = []

    override func setUpWithError() throws {
        leafPin = SPKIPin(certificate: try TestCertificates.certificate("ecdsa/leaf.pem"))
        intermediatePin = SPKIPin(certificate: try TestCertificates.certificate("ecdsa/intermediate.pem"))
        rsaLeafPin = SPKIPin(certificate: try TestCertificates.certificate("rsa/leaf.pem"))
        rsaRootPin = SPKIPin(certificate: try TestCertificates.certificate("rsa/root.pem"))
    }

    override func tearDownWithError() throws {
        for directory in temporaryDirectories { try? FileManager.default.removeItem(at: directory) }
    }

    /// The base64 digest Android writes in `<pin digest="SHA-256">`.
    private func base64(_ pin: SPKIPin) -> String { String(pin.description.dropFirst(SPKIPin.prefix.count)) }

    private func load(_ xml: String, baseDirectory: URL? = nil) throws -> PinningConfiguration {
        try PinningConfiguration.loadAndroid(data: Data(xml.utf8), file: "network_security_config.xml", baseDirectory: baseDirectory)
    }

    /// The load error of `xml`, failing the test when it loads.
    private func loadError(_ xml: String, baseDirectory: URL? = nil, file: StaticString = #filePath, line: UInt = #line)
        -> PinningConfigurationLoadError?
    {
        do {
            let configuration = try load(xml, baseDirectory: baseDirectory)
            XCTFail("loaded \(configuration.domains.map(\.domain))", file: file, line: line)
            return nil
        } catch let error as PinningConfigurationLoadError {
            XCTAssertEqual(error.file, "network_security_config.xml", file: file, line: line)
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return nil
        }
    }

    /// A `res/xml` directory with `res/raw/<name>` copied from TestCertificates/ for each entry.
    private func resourceTree(raw: [String: String]) throws -> URL {
        let res = FileManager.default.temporaryDirectory.appendingPathComponent("android-res-\(UUID().uuidString)/res", isDirectory: true)
        temporaryDirectories.append(res.deletingLastPathComponent())
        let xml = res.appendingPathComponent("xml", isDirectory: true)
        let rawDirectory = res.appendingPathComponent("raw", isDirectory: true)
        try FileManager.default.createDirectory(at: xml, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: rawDirectory, withIntermediateDirectories: true)
        for (name, source) in raw {
            try FileManager.default.copyItem(
                at: TestCertificates.directory.appendingPathComponent(source), to: rawDirectory.appendingPathComponent(name))
        }
        return xml
    }

    // MARK: Reading

    func testDomainConfigsWithNestingTrustKitAndExpiration() throws {
        let configuration = try load(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <network-security-config xmlns:tools="http://schemas.android.com/tools">
                <base-config cleartextTrafficPermitted="false">
                    <trust-anchors>
                        <certificates src="system"/>
                        <certificates src="user"/>
                    </trust-anchors>
                </base-config>
                <domain-config cleartextTrafficPermitted="false" hstsEnforced="true">
                    <domain includeSubdomains="true">SwiftTrust.test</domain>
                    <domain>Other.Test.</domain>
                    <pin-set expiration="2027-03-01" tools:ignore="MissingBackupPin">
                        <pin digest="SHA-256">\(base64(leafPin))</pin>
                        <pin digest="sha-256">\(base64(intermediatePin))</pin>
                        <!-- a backup key not yet in use -->
                        <pin digest="SHA-256"> \(base64(rsaRootPin)) </pin>
                    </pin-set>
                    <trustkit-config enforcePinning="false" disableDefaultReportUri="true">
                        <report-uri>https://reports.swifttrust.test/pins?app=a&amp;b=1</report-uri>
                    </trustkit-config>
                    <domain-config>
                        <domain>api.swifttrust.test</domain>
                        <trust-anchors><certificates src="system"/></trust-anchors>
                    </domain-config>
                    <domain-config>
                        <domain>legacy.swifttrust.test</domain>
                        <pin-set><pin digest="SHA-256">\(base64(rsaLeafPin))</pin></pin-set>
                        <trustkit-config enforcePinning="true"/>
                    </domain-config>
                </domain-config>
                <debug-overrides>
                    <trust-anchors><certificates src="@raw/debug_ca"/></trust-anchors>
                </debug-overrides>
            </network-security-config>
            """)
        let march2027 = try XCTUnwrap(
            DateComponents(
                calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
                year: 2027, month: 3, day: 1
            ).date)
        let report = try XCTUnwrap(URL(string: "https://reports.swifttrust.test/pins?app=a&b=1"))
        let parentPins = try PinRequirement(scope: .anyCertificate, pins: [leafPin, intermediatePin, rsaRootPin])
        let expected = try PinningConfiguration(domains: [
            DomainPinningPolicy(
                domain: "swifttrust.test", subdomains: .anyDepth, requirements: [parentPins],
                expirationDate: march2027, enforcement: .reportOnly, reportURIs: [report]),
            DomainPinningPolicy(
                domain: "other.test", requirements: [parentPins],
                expirationDate: march2027, enforcement: .reportOnly, reportURIs: [report]),
            // Inherits pins, expiration and trustkit-config; declares its own anchors.
            DomainPinningPolicy(
                domain: "api.swifttrust.test", requirements: [parentPins], expirationDate: march2027,
                enforcement: .reportOnly, reportURIs: [report], trustAnchors: PinningTrustAnchors(includesSystemStore: true)),
            // Its own pin-set replaces the parent's, expiration included; its own trustkit-config
            // sets enforcement and an empty report list.
            DomainPinningPolicy(domain: "legacy.swifttrust.test", requirements: [PinRequirement(scope: .anyCertificate, pins: [rsaLeafPin])]),
        ])
        XCTAssertEqual(configuration, expected)

        // The pins are the real keys: the served chain satisfies the parent's set, not the legacy one.
        let chain = try TestCertificates.certificates("ecdsa/chain.pem")
        XCTAssertEqual(configuration.policy(forHost: "www.swifttrust.test")?.requirements.first?.isSatisfied(by: chain), true)
        XCTAssertEqual(configuration.policy(forHost: "legacy.swifttrust.test")?.requirements.first?.isSatisfied(by: chain), false)
    }

    func testWithoutTrustKitConfigPinsAreEnforced() throws {
        let configuration = try load(
            """
            <network-security-config><domain-config><domain>swifttrust.test</domain>
            <pin-set><pin digest="SHA-256">\(base64(leafPin))</pin></pin-set></domain-config></network-security-config>
            """)
        XCTAssertEqual(configuration.domains.map(\.enforcement), [.enforce])
        XCTAssertEqual(configuration.domains.map(\.subdomains), [SubdomainCoverage.none])
        XCTAssertEqual(configuration.domains.first?.trustAnchors, nil)
    }

    func testRawTrustAnchorsAreReadFromResRaw() throws {
        let xmlDirectory = try resourceTree(raw: ["company_ca.pem": "ecdsa/root.pem", "proxy_ca": "rsa/root.pem"])
        let configuration = try load(
            """
            <network-security-config>
                <domain-config>
                    <domain>swifttrust.test</domain>
                    <pin-set><pin digest="SHA-256">\(base64(intermediatePin))</pin></pin-set>
                    <trust-anchors>
                        <certificates src="@raw/company_ca"/>
                        <certificates src="@raw/proxy_ca" overridePins="true"/>
                        <certificates src="user" overridePins="true"/>
                    </trust-anchors>
                </domain-config>
            </network-security-config>
            """, baseDirectory: xmlDirectory)
        let anchors = try XCTUnwrap(configuration.domains.first?.trustAnchors)
        XCTAssertEqual(
            anchors,
            PinningTrustAnchors(
                includesSystemStore: false, certificates: [try TestCertificates.certificate("ecdsa/root.pem")],
                pinOverridingCertificates: [try TestCertificates.certificate("rsa/root.pem")]))
    }

    func testRawResourceErrors() throws {
        let xml = """
            <network-security-config>
                <domain-config>
                    <domain>swifttrust.test</domain>
                    <trust-anchors>
                        <certificates src="system"/>
                        <certificates src="@raw/missing_ca"/>
                    </trust-anchors>
                </domain-config>
            </network-security-config>
            """
        let missing = loadError(xml, baseDirectory: try resourceTree(raw: ["other_ca.pem": "ecdsa/root.pem"]))
        XCTAssertEqual(missing?.line, 6)
        XCTAssertEqual(missing?.keyPath, "network-security-config/domain-config[0]/trust-anchors/certificates[1]@src")
        guard case .unreadableReference("@raw/missing_ca", _)? = missing?.rule else { return XCTFail("\(String(describing: missing))") }

        guard case .unreadableReference("@raw/missing_ca", _)? = loadError(xml)?.rule else {
            return XCTFail("an @raw reference without a base directory must be refused")
        }
        let notACertificate = loadError(xml, baseDirectory: try resourceTree(raw: ["missing_ca.txt": "README.md"]))
        guard case .unreadableReference("@raw/missing_ca", _)? = notACertificate?.rule else {
            return XCTFail("\(String(describing: notACertificate))")
        }

        let traversal = loadError(xml.replacingOccurrences(of: "@raw/missing_ca", with: "@raw/../../etc/passwd"))
        XCTAssertEqual(traversal?.rule, .invalidValue("@raw/../../etc/passwd", reason: "expected system, user or @raw/name (name: a-z 0-9 _)"))
    }

    func testBaseConfigAnchors() throws {
        // System (and the empty user store) is the platform default: inheriting domains keep the trust's own anchors.
        let systemBase = try load(
            """
            <network-security-config>
                <domain-config><domain>swifttrust.test</domain></domain-config>
                <base-config><trust-anchors><certificates src="system"/><certificates src="user"/></trust-anchors></base-config>
            </network-security-config>
            """)
        XCTAssertEqual(systemBase.domains.first?.trustAnchors, nil)

        // Custom base anchors would also apply to unlisted hosts, which the model cannot express: refused.
        let custom = loadError(
            """
            <network-security-config>
                <base-config>
                    <trust-anchors><certificates src="@raw/company_ca"/></trust-anchors>
                </base-config>
            </network-security-config>
            """, baseDirectory: try resourceTree(raw: ["company_ca.pem": "ecdsa/root.pem"]))
        XCTAssertEqual(custom?.line, 3)
        XCTAssertEqual(custom?.keyPath, "network-security-config/base-config/trust-anchors")
        guard case .invalidValue("<base-config><trust-anchors>", _)? = custom?.rule else { return XCTFail("\(String(describing: custom))") }

        let pinsInBase = loadError(
            """
            <network-security-config>
                <base-config>
                    <pin-set><pin digest="SHA-256">\(base64(leafPin))</pin></pin-set>
                </base-config>
            </network-security-config>
            """)
        XCTAssertEqual(pinsInBase?.line, 3)
        XCTAssertEqual(pinsInBase?.rule, .unexpectedKey("element <pin-set> in <base-config>"))
    }

    func testSystemOverridePinsIsRefusedOnlyWhereThereArePins() throws {
        let xml = """
            <network-security-config>
                <base-config>
                    <trust-anchors><certificates src="system" overridePins="true"/></trust-anchors>
                </base-config>
                <domain-config><domain>anchors.swifttrust.test</domain></domain-config>
                PINNED
            </network-security-config>
            """
        XCTAssertEqual(try load(xml.replacingOccurrences(of: "PINNED", with: "")).domains.map(\.domain), ["anchors.swifttrust.test"])
        let pinned = loadError(
            xml.replacingOccurrences(
                of: "PINNED",
                with: """
                    <domain-config><domain>swifttrust.test</domain><pin-set><pin digest="SHA-256">\(base64(leafPin))</pin></pin-set></domain-config>
                    """))
        XCTAssertEqual(pinned?.line, 3)
        XCTAssertEqual(pinned?.keyPath, "network-security-config/base-config/trust-anchors/certificates[0]@overridePins")
        guard case .invalidValue("true", _)? = pinned?.rule else { return XCTFail("\(String(describing: pinned))") }
    }

    func testEmptyPinSetIsRefused() {
        let error = loadError(
            """
            <network-security-config>
                <domain-config>
                    <domain>swifttrust.test</domain>
                    <pin-set expiration="2027-01-01"></pin-set>
                </domain-config>
            </network-security-config>
            """)
        XCTAssertEqual(error?.line, 4)
        XCTAssertEqual(error?.keyPath, "network-security-config/domain-config[0]/pin-set")
        XCTAssertEqual(error?.rule, .tooFewPins(domain: "swifttrust.test", count: 0, minimum: 1))
    }

    func testDebugOverridesAreIgnoredButChecked() throws {
        let ignored = try load(
            """
            <network-security-config>
                <debug-overrides><trust-anchors><certificates src="@raw/not_shipped" overridePins="true"/></trust-anchors></debug-overrides>
            </network-security-config>
            """)
        XCTAssertEqual(ignored.domains, [])
        let misspelt = loadError(
            """
            <network-security-config>
                <debug-overrides>
                    <trust-anchor><certificates src="user"/></trust-anchor>
                </debug-overrides>
            </network-security-config>
            """)
        XCTAssertEqual(misspelt?.line, 3)
        XCTAssertEqual(misspelt?.rule, .unexpectedKey("element <trust-anchor> in <debug-overrides>"))
    }

    // MARK: Malformed files

    private func assertMalformed(_ xml: String, line: Int, file: StaticString = #filePath, testLine: UInt = #line) {
        let error = loadError(xml, file: file, line: testLine)
        XCTAssertEqual(error?.line, line, file: file, line: testLine)
        guard case .malformedDocument? = error?.rule else { return XCTFail("\(String(describing: error))", file: file, line: testLine) }
    }

    func testMalformedXMLNamesTheLine() {
        assertMalformed("<network-security-config>\n<domain-config>\n<domain>a.test</domain>\n", line: 4)
        assertMalformed("<network-security-config>\n<domain-config>\n<domain>a.test</domain-config>\n</network-security-config>", line: 3)
        assertMalformed(
            "<network-security-config>\n<domain-config>\n<domain>a&eacute;.test</domain></domain-config></network-security-config>", line: 3)
        assertMalformed("<?xml version=\"1.0\"?>\n<!DOCTYPE n [<!ENTITY d \"a.test\">]>\n<network-security-config/>", line: 2)
        assertMalformed(String(repeating: "<domain-config>\n", count: 70), line: 65)
    }

    func testUnknownElementsAndAttributesAreRefused() {
        let element = loadError(
            """
            <network-security-config>
                <domain-config>
                    <domain>swifttrust.test</domain>
                    <pinset><pin digest="SHA-256">\(base64(leafPin))</pin></pinset>
                </domain-config>
            </network-security-config>
            """)
        XCTAssertEqual(element?.line, 4)
        XCTAssertEqual(element?.keyPath, "network-security-config/domain-config[0]/pinset")
        XCTAssertEqual(element?.rule, .unexpectedKey("element <pinset> in <domain-config>"))

        let attribute = loadError(
            """
            <network-security-config>
                <domain-config>
                    <domain includeSubDomains="true">swifttrust.test</domain>
                </domain-config>
            </network-security-config>
            """)
        XCTAssertEqual(attribute?.line, 3)
        XCTAssertEqual(attribute?.keyPath, "network-security-config/domain-config[0]/domain[0]@includeSubDomains")
        XCTAssertEqual(attribute?.rule, .unexpectedKey("attribute includeSubDomains on <domain>"))

        let root = loadError("<plist version=\"1.0\"><dict/></plist>")
        guard case .unrecognisedFormat? = root?.rule else { return XCTFail("\(String(describing: root))") }
    }

    func testPinErrors() {
        let xml = """
            <network-security-config>
                <domain-config>
                    <domain>a.swifttrust.test</domain>
                </domain-config>
                <domain-config>
                    <domain>swifttrust.test</domain>
                    <pin-set EXPIRATION>
                        <pin digest="SHA-256">\(base64(leafPin))</pin>
                        <pin DIGEST>PIN</pin>
                    </pin-set>
                </domain-config>
            </network-security-config>
            """
        func variant(expiration: String = "", digest: String = "digest=\"SHA-256\"", pin: String? = nil) -> String {
            xml.replacingOccurrences(of: "EXPIRATION", with: expiration).replacingOccurrences(of: "DIGEST", with: digest)
                .replacingOccurrences(of: "PIN<", with: (pin ?? base64(intermediatePin)) + "<")
        }
        XCTAssertNoThrow(try load(variant()))

        let sha1 = loadError(variant(digest: "digest=\"SHA-1\""))
        XCTAssertEqual(sha1?.line, 9)
        XCTAssertEqual(sha1?.keyPath, "network-security-config/domain-config[1]/pin-set/pin[1]@digest")
        XCTAssertEqual(sha1?.rule, .invalidValue("SHA-1", reason: "Android supports only SHA-256 pins"))

        XCTAssertEqual(loadError(variant(digest: ""))?.rule, .missingKey("attribute digest on <pin>"))

        let badBase64 = loadError(variant(pin: "not base64!"))
        XCTAssertEqual(badBase64?.line, 9)
        XCTAssertEqual(badBase64?.keyPath, "network-security-config/domain-config[1]/pin-set/pin[1]")
        guard case .invalidPin(.malformedPin)? = badBase64?.rule else { return XCTFail("\(String(describing: badBase64))") }
        // Base64 of 20 bytes (a SHA-1 length) is not a SHA-256 digest.
        guard case .invalidPin(.malformedPin)? = loadError(variant(pin: Data(count: 20).base64EncodedString()))?.rule else {
            return XCTFail("a digest of the wrong length must be refused")
        }

        for bad in ["2027-02-30", "27-01-01", "2027-1-1", "tomorrow"] {
            let expiration = loadError(variant(expiration: "expiration=\"\(bad)\""))
            XCTAssertEqual(expiration?.line, 7)
            XCTAssertEqual(expiration?.keyPath, "network-security-config/domain-config[1]/pin-set@expiration")
            XCTAssertEqual(expiration?.rule, .invalidDate(bad))
        }
    }

    func testDuplicateDomainsAndStructureRules() {
        let duplicate = loadError(
            """
            <network-security-config>
                <domain-config><domain>swifttrust.test</domain></domain-config>
                <domain-config>
                    <domain includeSubdomains="true">SWIFTTRUST.test.</domain>
                </domain-config>
            </network-security-config>
            """)
        XCTAssertEqual(duplicate?.line, 4)
        XCTAssertEqual(duplicate?.keyPath, "network-security-config/domain-config[1]/domain[0]")
        XCTAssertEqual(duplicate?.rule, .duplicateDomain("swifttrust.test"))

        let noDomain = loadError("<network-security-config>\n<domain-config cleartextTrafficPermitted=\"true\"/>\n</network-security-config>")
        XCTAssertEqual(noDomain?.line, 2)
        XCTAssertEqual(noDomain?.rule, .missingKey("<domain> in <domain-config>"))

        let twoPinSets = loadError(
            """
            <network-security-config><domain-config><domain>a.test</domain>
            <pin-set><pin digest="SHA-256">\(base64(leafPin))</pin></pin-set>
            <pin-set><pin digest="SHA-256">\(base64(leafPin))</pin></pin-set>
            </domain-config></network-security-config>
            """)
        XCTAssertEqual(twoPinSets?.line, 3)
        XCTAssertEqual(twoPinSets?.rule, .invalidValue("<pin-set>", reason: "<domain-config> may hold at most one"))

        XCTAssertEqual(
            loadError(
                "<network-security-config><domain-config><domain includeSubdomains=\"yes\">a.test</domain></domain-config></network-security-config>")?
                .rule,
            .invalidValue("yes", reason: "includeSubdomains must be true or false"))
        XCTAssertEqual(
            loadError(
                "<network-security-config><domain-config><domain includeSubdomains=\"true\">192.0.2.1</domain></domain-config></network-security-config>"
            )?.keyPath,
            "network-security-config/domain-config[0]/domain[0]")
        XCTAssertEqual(
            loadError(
                "<network-security-config><domain-config><domain>a.test</domain><trustkit-config><report-uri>ftp://r.test/</report-uri></trustkit-config></domain-config></network-security-config>"
            )?.rule,
            .invalidReportURI("ftp://r.test/"))
        XCTAssertEqual(
            loadError(
                "<network-security-config><domain-config><domain>a.test</domain><trustkit-config><report-uri>https://u:p@r.test/</report-uri></trustkit-config></domain-config></network-security-config>"
            )?.rule,
            .invalidReportURI("https://u:p@r.test/"))
        let stray = loadError(
            "<network-security-config><domain-config><domain>a.test</domain>\n\n  stray\n</domain-config></network-security-config>")
        XCTAssertEqual(stray?.line, 3)
        XCTAssertEqual(stray?.keyPath, "network-security-config/domain-config[0]")
        XCTAssertEqual(stray?.rule, .invalidValue("stray", reason: "<domain-config> holds elements, not text"))
        XCTAssertEqual(
            loadError(
                "<network-security-config><base-config><trust-anchors><certificates src=\"system\">all</certificates></trust-anchors></base-config></network-security-config>"
            )?.rule,
            .invalidValue("all", reason: "<certificates> must be empty"))
    }

    // MARK: Writing

    func testRoundTrips() throws {
        let day = try XCTUnwrap(PinExpirationDay.parse("2027-12-31"))
        let configurations = try [
            PinningConfiguration(domains: []),
            PinningConfiguration(domains: [
                DomainPinningPolicy(
                    domain: "swifttrust.test", subdomains: .anyDepth,
                    requirements: [PinRequirement(scope: .anyCertificate, pins: [leafPin, rsaRootPin])],
                    expirationDate: day, enforcement: .reportOnly,
                    reportURIs: [XCTUnwrap(URL(string: "https://r.swifttrust.test/a?x=1&y=2")), XCTUnwrap(URL(string: "http://127.0.0.1:8080/r"))]),
                DomainPinningPolicy(
                    domain: "bücher.test", requirements: [PinRequirement(scope: .anyCertificate, pins: [intermediatePin])],
                    trustAnchors: PinningTrustAnchors(includesSystemStore: true)),
                DomainPinningPolicy(domain: "locked.test", requirements: [], trustAnchors: PinningTrustAnchors(includesSystemStore: false)),
                DomainPinningPolicy(domain: "2001:DB8::1", requirements: [], enforcement: .reportOnly),
                DomainPinningPolicy(domain: "plain.test", requirements: []),
            ]),
        ]
        for configuration in configurations {
            let written = try configuration.androidNetworkSecurityConfig()
            XCTAssertEqual(try configuration.androidNetworkSecurityConfig(), written, "deterministic")
            let reloaded = try PinningConfiguration.loadAndroid(data: written, file: "written.xml", baseDirectory: nil)
            XCTAssertEqual(reloaded, configuration, String(decoding: written, as: UTF8.self))
        }
    }

    func testFileRoundTripsThroughTheWriter() throws {
        let original = try load(
            """
            <network-security-config>
                <domain-config>
                    <domain includeSubdomains="true">swifttrust.test</domain>
                    <pin-set expiration="2027-03-01"><pin digest="SHA-256">\(base64(leafPin))</pin></pin-set>
                    <domain-config>
                        <domain>api.swifttrust.test</domain>
                        <trustkit-config enforcePinning="false"><report-uri>https://r.swifttrust.test/</report-uri></trustkit-config>
                    </domain-config>
                </domain-config>
            </network-security-config>
            """)
        let rewritten = try PinningConfiguration.loadAndroid(data: try original.androidNetworkSecurityConfig(), file: "w.xml", baseDirectory: nil)
        XCTAssertEqual(rewritten, original)
    }

    func testWriterRefusesWhatAndroidCannotExpress() throws {
        let pins = try PinRequirement(scope: .anyCertificate, pins: [leafPin])
        let cases: [(DomainPinningPolicy, String)] = try [
            (DomainPinningPolicy(domain: "a.test", subdomains: .oneLevel, requirements: [pins]), "one level"),
            (DomainPinningPolicy(domain: "a.test", requirements: [PinRequirement(scope: .leaf, pins: [leafPin])]), "leaf scope"),
            (
                DomainPinningPolicy(domain: "a.test", requirements: [PinRequirement(scope: .certificateAuthority, pins: [intermediatePin]), pins]),
                "two requirements"
            ),
            (
                DomainPinningPolicy(
                    domain: "a.test", requirements: [pins], expirationDate: XCTUnwrap(PinExpirationDay.parse("2027-01-01")).addingTimeInterval(3600)),
                "mid-day expiration"
            ),
            (
                DomainPinningPolicy(domain: "a.test", requirements: [], expirationDate: XCTUnwrap(PinExpirationDay.parse("2027-01-01"))),
                "expiration without pins"
            ),
            (
                DomainPinningPolicy(
                    domain: "a.test", requirements: [pins],
                    trustAnchors: PinningTrustAnchors(includesSystemStore: true, certificates: [TestCertificates.certificate("ecdsa/root.pem")])),
                "anchor certificates"
            ),
            (
                DomainPinningPolicy(
                    domain: "a.test", requirements: [pins],
                    trustAnchors: PinningTrustAnchors(
                        includesSystemStore: true, pinOverridingCertificates: [TestCertificates.certificate("rsa/root.pem")])),
                "pin-overriding anchors"
            ),
        ]
        for (policy, label) in cases {
            XCTAssertThrowsError(try PinningConfiguration(domains: [policy]).androidNetworkSecurityConfig(), label) { error in
                let exportError = error as? PinningConfigurationExportError
                XCTAssertEqual(exportError?.format, .android, label)
                XCTAssertEqual(exportError?.domain, "a.test", label)
            }
        }
    }
}
