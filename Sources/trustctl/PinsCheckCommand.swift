import ArgumentParser
import Foundation
import SwiftTrust
import TrustNIO

/// `trustctl pins check CONFIG [HOST[:PORT][@ADDRESS]...]`: do the pins still match what the
/// servers serve?
struct PinsCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Connect to configured hosts and say whether the pins match what they serve now.",
        discussion: """
            For each HOST (default: every configured domain, on --port), connects over TLS, validates the served \
            chain for HOST with the domain's anchors (or --anchors / the system store), and prints which \
            certificate matches which pin, which pins match nothing (backup keys or dead pins), and how long \
            until the pin set expires. HOST[:PORT]@ADDRESS connects to ADDRESS while HOST is used for SNI, host \
            validation and the configuration lookup: check a server on loopback, or before DNS points at it.
            Example: trustctl pins check Info.plist api.example.com@10.0.0.5 --at 2027-01-15
            Exit status: 0 every enforced pin set passes (report-only mismatches and expired pins are warnings), \
            1 an enforced pin set would fail, a chain does not validate, or a host is not configured, \
            2 usage errors, unreadable configurations and connection failures.
            """
    )

    @Argument(help: "The configuration file (\(PinningConfigurationFormat.helpDisplayNames)).")
    var config: String

    @Argument(help: "HOST[:PORT][@ADDRESS] to check (default: every configured domain).")
    var hosts: [String] = []

    @Option(help: "The configuration's format (\(PinningConfigurationFormat.helpNames)); recognised from the content when omitted.")
    var format: PinningConfigurationFormat?

    @Option(help: "The port for hosts given without one, and for configured domains.")
    var port: Int = 443

    @Option(
        name: .customLong("anchors"),
        help: "Trust anchors (repeatable) for domains without their own; replaces the system store unless --system-anchors.")
    var anchorFiles: [String] = []

    @Flag(help: "Also trust the system trust store (the default when no --anchors are given).")
    var systemAnchors = false

    @Option(help: "Judge at this instant (e.g. the release date 2027-01-15) instead of now: pin expiry and certificate validity; \(ISO8601.forms).")
    var at: String?

    @Option(help: "Seconds allowed to connect, and again to complete the handshake.")
    var connectTimeout: Double = 10

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be from 1 to 65535") }
        if let at { _ = try ISO8601.argument(at, option: "--at") }
        guard connectTimeout > 0, connectTimeout <= 3600 else { throw ValidationError("--connect-timeout must be from 0 to 3600 seconds") }
        for host in hosts { _ = try PinsCheckTarget(parsing: host, defaultPort: port) }
    }

    func run() throws {
        let configuration = try loadPinningConfiguration(config, format: format)
        let targets =
            try hosts.isEmpty
            ? configuration.domains.map { PinsCheckTarget(host: $0.domain, port: port) }
            : hosts.map { try PinsCheckTarget(parsing: $0, defaultPort: port) }
        let anchors = try anchorFiles.flatMap(loadCertificates)
        let date = at.flatMap(ISO8601.parse)
        var reports: [PinsCheckReport] = []
        var unreachable = false
        for target in targets {
            guard let policy = configuration.policy(forHost: target.host) else {
                reports.append(PinsCheckReport(target: target, notConfigured: ()))
                continue
            }
            var settings = TLSTrustSettings()
            if !anchors.isEmpty {
                settings.anchors = anchors
                settings.anchorsOnly = !systemAnchors
            }
            settings.verifyDate = date
            let evaluator = ConfiguredPinningTrustEvaluator(policy: policy)
            let verifier = try TLSTrustVerifier(settings: settings, judge: .evaluator(evaluator))
            let serverName = IPAddress(target.host) == nil ? target.host : nil
            do {
                let connection = try ProbeConnection.open(
                    host: target.address ?? target.host, port: target.port, identity: target.host,
                    serverName: serverName, verifier: verifier, timeout: connectTimeout)
                reports.append(
                    PinsCheckReport(
                        target: target, policy: policy, connection: connection, settings: settings,
                        date: date ?? Date()))
            } catch {
                printError("error: \(target.description): \(error)")
                unreachable = true
            }
        }
        if json {
            try Output.printJSON(reports)
        } else {
            Output.print(lines: Array(reports.map(\.lines).joined(separator: [""])))
        }
        if unreachable { throw ExitCode(2) }
        if reports.contains(where: \.fails) { throw ExitCode(1) }
    }
}
