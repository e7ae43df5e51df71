import ArgumentParser
import Foundation
import SwiftTrust

/// The trust inputs `verify`, `chain` and `probe` share: extra intermediates, anchors, the name to
/// check, the profile and purpose, and the instant.
struct TrustInputOptions: ParsableArguments {
    @Option(name: .customLong("intermediates"), help: "Extra untrusted intermediates (repeatable).")
    var intermediateFiles: [String] = []

    @Option(name: .customLong("anchors"), help: "Trust anchors (repeatable); replaces the system store unless --system-anchors.")
    var anchorFiles: [String] = []

    @Flag(help: "Also trust the system trust store (the default when no --anchors are given).")
    var systemAnchors = false

    @Option(help: "The DNS host name the leaf must be valid for.")
    var host: String?

    @Option(help: "The IP address the leaf must be valid for.")
    var ip: String?

    @Option(
        help:
            "The rules to judge by: ssl (Apple's SSL policy, the default), webpki (CA/Browser Forum strict), rfc5280 (path validation only), rfc5280-strict (plus RFC 5280 §4's certificate-profile MUSTs), spiffe (X.509-SVIDs: RFC 5280 plus the SPIFFE rules; anchors from --bundle)."
    )
    var profile: TrustProfile = .ssl

    @Option(
        help:
            "What the leaf is for: server (serverAuth, the default for ssl and webpki) or client (clientAuth); rfc5280 checks no purpose unless given."
    )
    var purpose: Purpose?

    @Flag(help: "Check the trust anchor's own validity, basicConstraints, keyUsage, critical extensions and EKU (RFC 5937).")
    var enforceAnchorConstraints = false

    @Option(help: "Evaluate at this instant instead of now: \(ISO8601.forms).")
    var at: String?

    func validate() throws {
        if host != nil && ip != nil { throw ValidationError("--host and --ip are mutually exclusive") }
        if let at { _ = try ISO8601.argument(at, option: "--at") }
    }

    /// The purposes `--purpose` names.
    enum Purpose: String, ExpressibleByArgument, CaseIterable {
        case server, client
    }

    /// Whether the leaf is checked as a TLS client certificate.
    var isClient: Bool { purpose == .client }

    /// The flags given that set trust options only an evaluation enforces (`--profile` other than
    /// ssl, `--enforce-anchor-constraints`), as the user wrote them.
    var optionFlags: [String] {
        [(profile != .ssl, "--profile \(profile)"), (enforceAnchorConstraints, "--enforce-anchor-constraints")].filter(\.0).map(\.1)
    }

    /// Every flag given that says how to judge a chain: the anchors, intermediates, purpose, date
    /// and ``optionFlags``.
    var givenFlags: [String] {
        [
            (!anchorFiles.isEmpty, "--anchors"), (systemAnchors, "--system-anchors"), (!intermediateFiles.isEmpty, "--intermediates"),
            (purpose != nil, "--purpose"), (at != nil, "--at"),
        ].filter(\.0).map(\.1) + optionFlags
    }

    /// The policy `--profile`, `--purpose` and `--host`/`--ip` stand for.
    var policy: TrustPolicy { policy(name: name) }

    /// The policy `--profile` and `--purpose` stand for, checking `name` (a host name or IP address):
    /// without `--purpose`, ssl and webpki check a server, the other profiles no purpose.
    func policy(name: String?) -> TrustPolicy {
        let keyPurpose: KeyPurpose? =
            switch purpose {
            case .server: .serverAuth
            case .client: .clientAuth
            case nil: profile == .ssl || profile == .webPKI ? .serverAuth : nil
            }
        return TrustPolicy(profile: profile, purpose: keyPurpose, hostname: name)
    }

    /// The host name or IP address to check, if any.
    var name: String? { host ?? ip }

    /// The verify date: `--at`, or now.
    var date: Date { at.flatMap(ISO8601.parse) ?? Date() }

    /// The anchor and intermediate files loaded, ready to configure any number of trusts; malformed
    /// files, and an unusable SSL_CERT_FILE / SSL_CERT_DIR when the system store is used, exit with status 2.
    func load() throws -> TrustInputs {
        let intermediates = try intermediateFiles.flatMap(loadCertificates)
        let anchors = try anchorFiles.flatMap(loadCertificates)
        if anchorFiles.isEmpty || systemAnchors {
            // An unusable SSL_CERT_FILE / SSL_CERT_DIR is a configuration error, not an untrusted chain.
            do { _ = try SystemTrustStore.shared } catch {
                printError("error: \(error)")
                throw ExitCode(2)
            }
        }
        return TrustInputs(
            anchors: anchorFiles.isEmpty ? nil : anchors, systemAnchors: systemAnchors, intermediates: intermediates,
            verifyDate: at != nil ? date : nil)
    }
}

/// What ``TrustInputOptions`` loaded: part of the command's ``TrustConfiguration``.
struct TrustInputs: Sendable {
    /// The anchors of --anchors; nil when none were given (the system store).
    let anchors: [Certificate]?
    let systemAnchors: Bool
    let intermediates: [Certificate]
    let verifyDate: Date?
}

/// The inputs `verify` and `chain` share: the presented chain file and the trust inputs.
struct ChainInputOptions: ParsableArguments {
    @Argument(help: "Leaf certificate, optionally followed by the presented chain; '-' reads standard input.")
    var chainFile: String

    @OptionGroup var trust: TrustInputOptions

    /// The certificates as received (malformed input exits with status 2).
    func receivedCertificates() throws -> [Certificate] { try loadCertificates(chainFile) }

    /// See ``TrustInputOptions/isClient``.
    var isClient: Bool { trust.isClient }
    /// See ``TrustInputOptions/policy``.
    var policy: TrustPolicy { trust.policy }
    /// See ``TrustInputOptions/name``.
    var name: String? { trust.name }
    /// See ``TrustInputOptions/date``.
    var date: Date { trust.date }
}

extension TrustProfile: ExpressibleByArgument {
    /// Parses `ssl`, `webpki`, `rfc5280`, `rfc5280-strict`, `basic` or `spiffe`.
    public init?(argument: String) { self.init(name: argument) }

    /// The names `--profile` accepts.
    public static var allValueStrings: [String] { allCases.map(\.description) }
}
