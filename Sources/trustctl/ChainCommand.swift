import ArgumentParser
import Foundation
import SwiftTrust

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `trustctl chain`: show every certificate, every candidate path, and why.
struct Chain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Explain a chain: certificates as presented, the chain built, every path explored, problems and risks.",
        discussion: """
        Sections: the certificates as presented (order, duplicates, unused extras and why), the built chain as a tree \
        from the trust anchor down (or from what is missing), every path the builder tried with the reason it was \
        abandoned, findings (errors, warnings, notes: problems and risks, also on trusted chains), and the verdict.
        Colour and symbols when standard output is a terminal (NO_COLOR turns them off); --json for tools.
        Exit status: 0 trusted, 1 not trusted, 2 usage errors or unreadable/malformed input.
        """
    )

    @Argument(help: "Leaf certificate, optionally followed by the presented chain; '-' reads standard input.")
    var file: String

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

    @Option(help: "Evaluate at this instant (ISO 8601) instead of now.")
    var at: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        if host != nil && ip != nil { throw ValidationError("--host and --ip are mutually exclusive") }
        if let at, ISO8601.parse(at) == nil { throw ValidationError("--at must be an ISO 8601 date, e.g. 2026-06-01T00:00:00Z") }
    }

    func run() throws {
        let received = try loadCertificates(file)
        let presented = LeafOrdering.leafFirst(received)
        let intermediates = try intermediateFiles.flatMap(loadCertificates)
        let anchors = try anchorFiles.flatMap(loadCertificates)
        let name = host ?? ip
        let trust = ServerTrust(certificates: presented, policies: [.ssl(server: true, hostname: name)])
        if !anchorFiles.isEmpty {
            trust.setAnchorCertificates(anchors)
            trust.anchorsOnly = !systemAnchors
        }
        trust.additionalIntermediates = intermediates
        let date = at.flatMap(ISO8601.parse) ?? Date()
        trust.verifyDate = date

        let diagnostics = ChainDiagnostics(trust: trust, host: name, verifyDate: date, asReceived: received)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(diagnostics), as: UTF8.self))
        } else {
            print(diagnostics.text(style: Chain.useColor ? .color : .plain))
        }
        if !diagnostics.trusted { throw ExitCode(1) }
    }

    /// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
    static var useColor: Bool {
        if let value = ProcessInfo.processInfo.environment["NO_COLOR"], !value.isEmpty { return false }
        return isatty(STDOUT_FILENO) == 1
    }
}
