import Foundation
@testable import TrustPinning
import TrustTestSupport
import XCTest

/// Apple's `parseNSPinnedDomains` (Security, `OSX/sec/Security/SecPolicy.c`) visits every
/// `NSPinnedDomains` entry whose key is the host or, with `NSIncludesSubdomains` true, the host's
/// immediate parent, and appends all their digests per identity type; the leaf and CA checks are
/// independent. Every test evaluates the committed ECDSA chain (built: leaf, intermediate, root)
/// for www.swifttrust.test through `ServerTrustManager(configuration:)`.
final class ATSPolicyMergeTests: XCTestCase {
    private struct Entry {
        let domain: String
        var includesSubdomains: Bool?
        var leaf: [SPKIPin] = []
        var ca: [SPKIPin] = []
    }

    /// A pin no certificate of the ECDSA chain has (the RSA root's key).
    private func foreign() throws -> SPKIPin { try ConfigurationPins.pin("rsa/root.pem") }

    private func load(_ entries: [Entry]) throws -> PinningConfiguration {
        func identities(_ key: String, _ pins: [SPKIPin]) -> String {
            guard !pins.isEmpty else { return "" }
            return "<key>\(key)</key><array>" + pins.map { "<dict><key>SPKI-SHA256-BASE64</key><string>\($0.bareBase64)</string></dict>" }.joined()
                + "</array>"
        }
        let body = entries.map { entry in
            "<key>\(entry.domain)</key><dict>"
                + (entry.includesSubdomains.map { "<key>NSIncludesSubdomains</key>" + ($0 ? "<true/>" : "<false/>") } ?? "")
                + identities("NSPinnedLeafIdentities", entry.leaf) + identities("NSPinnedCAIdentities", entry.ca) + "</dict>"
        }.joined()
        let data = xmlPropertyList("<dict><key>NSAppTransportSecurity</key><dict><key>NSPinnedDomains</key><dict>\(body)</dict></dict></dict>")
        return try PinningConfiguration.load(data: data, file: "Info.plist", format: .ats)
    }

    private func verdict(_ configuration: PinningConfiguration, host: String = TestCertificates.host) throws -> String {
        outcome(
            of: try ServerTrustManager(configuration: configuration, allHostsMustBeEvaluated: true),
            try TestCertificates.trust(TestCertificates.validChain), host: host)
    }

    /// The same domains with the most specific entry alone (Android, TrustKit, SwiftTrust JSON).
    private func mostSpecific(_ configuration: PinningConfiguration) throws -> PinningConfiguration {
        try PinningConfiguration(domains: configuration.domains, policySelection: .mostSpecificDomain)
    }

    /// (i) The host's entry pins CA A, its parent's (`NSIncludesSubdomains`) CA B: Apple checks the
    /// CA certificates against A and B, so a chain with only B passes.
    func testATSMergesExactAndParentEntriesAsParseNSPinnedDomains() throws {
        let intermediate = try ConfigurationPins.intermediate()
        let configuration = try load([
            Entry(domain: TestCertificates.host, ca: [foreign()]),
            Entry(domain: "swifttrust.test", includesSubdomains: true, ca: [intermediate]),
        ])
        XCTAssertEqual(configuration.policySelection, .mergingExactAndParentEntries)
        XCTAssertEqual(
            configuration.policy(forHost: TestCertificates.host)?.requirements,
            [try PinRequirement(scope: .certificateAuthority, pins: [foreign(), intermediate])])
        XCTAssertEqual(try verdict(configuration), "pass")
        XCTAssertEqual(try verdict(mostSpecific(configuration)), "pinSetMismatch", "the host's entry alone does not match")
        // Keys compare case-insensitively and the union is per host: the parent's own host and a
        // sibling get the parent's pins alone.
        XCTAssertEqual(configuration.policy(forHost: "WWW.SwiftTrust.test")?.requirements.first?.pins.count, 2)
        XCTAssertEqual(
            configuration.policy(forHost: "cdn.swifttrust.test")?.requirements,
            [try PinRequirement(scope: .certificateAuthority, pins: [intermediate])])
    }

    /// (ii) The host's entry pins only leaves, its parent's only CAs: both checks exist, and both
    /// must hold.
    func testATSLeafAndCAChecksOfTwoEntriesMustBothHoldAsParseNSPinnedDomains() throws {
        let leaf = try ConfigurationPins.leaf(), intermediate = try ConfigurationPins.intermediate()
        let both = try load([
            Entry(domain: TestCertificates.host, leaf: [leaf]),
            Entry(domain: "swifttrust.test", includesSubdomains: true, ca: [intermediate]),
        ])
        XCTAssertEqual(both.policy(forHost: TestCertificates.host)?.requirements.map(\.scope), [.leaf, .certificateAuthority])
        XCTAssertEqual(try verdict(both), "pass")

        let parentMismatch = try load([
            Entry(domain: TestCertificates.host, leaf: [leaf]),
            Entry(domain: "swifttrust.test", includesSubdomains: true, ca: [foreign()]),
        ])
        XCTAssertEqual(try verdict(parentMismatch), "pinSetMismatch", "the parent's CA check applies although the host's leaf pin matches")
        XCTAssertEqual(try verdict(mostSpecific(parentMismatch)), "pass", "the most specific entry alone would ignore it")

        let leafMismatch = try load([
            Entry(domain: TestCertificates.host, leaf: [foreign()]),
            Entry(domain: "swifttrust.test", includesSubdomains: true, ca: [intermediate]),
        ])
        XCTAssertEqual(try verdict(leafMismatch), "pinSetMismatch")
    }

    /// (iii) `NSIncludesSubdomains` reaches one label: Apple compares an entry with the host's
    /// parent only (`CopyParentDomainNameFromHostName`), so a grandparent contributes nothing and
    /// covers nothing.
    func testATSParentEntryCoversOneLevelOnlyAsParseNSPinnedDomains() throws {
        let configuration = try load([
            Entry(domain: TestCertificates.host, leaf: [ConfigurationPins.leaf()]),
            Entry(domain: "test", includesSubdomains: true, ca: [foreign()]),
        ])
        XCTAssertEqual(try verdict(configuration), "pass", "test is www.swifttrust.test's grandparent")
        XCTAssertEqual(configuration.policy(forHost: TestCertificates.host)?.requirements.map(\.scope), [.leaf])

        let parent = try load([Entry(domain: "swifttrust.test", includesSubdomains: true, ca: [foreign()])])
        XCTAssertNil(parent.policy(forHost: "a.www.swifttrust.test"))
        XCTAssertEqual(try verdict(parent, host: "a.www.swifttrust.test"), "noRequiredEvaluator")
        XCTAssertEqual(try verdict(parent), "pinSetMismatch", "one label down is covered")
    }

    /// (iv) A parent entry without `NSIncludesSubdomains` (absent or false) matches its own host
    /// only and adds nothing to a child's pins.
    func testATSParentEntryWithoutIncludesSubdomainsContributesNothingAsParseNSPinnedDomains() throws {
        for includes in [nil, false] as [Bool?] {
            let configuration = try load([
                Entry(domain: TestCertificates.host, leaf: [ConfigurationPins.leaf()]),
                Entry(domain: "swifttrust.test", includesSubdomains: includes, ca: [foreign()]),
            ])
            XCTAssertEqual(try verdict(configuration), "pass", "\(String(describing: includes))")
            XCTAssertEqual(configuration.policy(forHost: TestCertificates.host)?.requirements.map(\.scope), [.leaf])
            XCTAssertNil(configuration.policy(forHost: "cdn.swifttrust.test"))
        }
    }

    /// A writer refuses a file its format's loader would select differently: a merging ATS
    /// configuration as JSON (most specific entry alone), and a JSON configuration as ATS.
    func testWritersRefuseADomainWhoseSelectionTheFormatCannotExpress() throws {
        let merging = try load([
            Entry(domain: TestCertificates.host, leaf: [ConfigurationPins.leaf()]),
            Entry(domain: "swifttrust.test", includesSubdomains: true, ca: [ConfigurationPins.intermediate()]),
        ])
        for (configuration, format) in [(merging, PinningConfigurationFormat.json), (try mostSpecific(merging), .ats)] {
            XCTAssertThrowsError(try configuration.encoded(as: format), "\(format)") { error in
                let error = error as? PinningConfigurationExportError
                XCTAssertEqual(error?.domain, TestCertificates.host)
                XCTAssertTrue(error?.reason.contains("parseNSPinnedDomains") == true, "\(String(describing: error))")
            }
        }
        // ATS to ATS keeps the entries; Apple merges them again on reading.
        let written = try merging.encoded(as: .ats)
        XCTAssertEqual(try PinningConfiguration.load(data: written, file: "out.plist", format: .ats), merging)
        // When the merge changes nothing (the host lists its parent's pins too), every format can write it.
        let listed = try load([
            Entry(domain: TestCertificates.host, leaf: [ConfigurationPins.leaf()], ca: [ConfigurationPins.intermediate()]),
            Entry(domain: "swifttrust.test", includesSubdomains: true, ca: [ConfigurationPins.intermediate()]),
        ])
        let json = try listed.encoded(as: .json)
        XCTAssertEqual(Set(try PinningConfiguration.load(data: json, file: "out.json", format: .json).domains), Set(listed.domains))
    }
}
