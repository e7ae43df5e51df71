import ArgumentParser
import Foundation
import SwiftTrust

/// `trustctl verify`: build and validate a chain the way a TLS client would.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify a certificate chain against trust anchors (and a host name).",
        discussion: """
        CHAIN_FILE holds the leaf, optionally followed by the chain the peer sent (PEM or DER).
        Without --anchors the system trust store is used.
        Exit status: 0 trusted, 1 not trusted, 2 usage errors or unreadable/malformed input.
        """
    )

    enum Purpose: String, ExpressibleByArgument, CaseIterable {
        case server, client
    }

    @Argument(help: "Leaf certificate, optionally followed by the presented chain; '-' reads standard input.")
    var chainFile: String

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

    @Option(help: "What the leaf is for: server (serverAuth) or client (clientAuth).")
    var purpose: Purpose = .server

    @Option(help: "Verify at this instant (ISO 8601, e.g. 2026-06-01T00:00:00Z) instead of now.")
    var at: String?

    @Option(help: "Maximum number of intermediate CAs (self-issued ones not counted).")
    var maxDepth: Int?

    @Flag(help: "Accept SHA-1 signatures and RSA keys under 2048 bits.")
    var allowLegacyAlgorithms = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        if host != nil && ip != nil { throw ValidationError("--host and --ip are mutually exclusive") }
        if let maxDepth, maxDepth < 0 { throw ValidationError("--max-depth must be zero or more") }
        if let at, ISO8601.parse(at) == nil { throw ValidationError("--at must be an ISO 8601 date, e.g. 2026-06-01T00:00:00Z") }
    }

    func run() throws {
        let presented = try loadCertificates(chainFile)
        let intermediates = try intermediateFiles.flatMap(loadCertificates)
        let anchors = try anchorFiles.flatMap(loadCertificates)

        let hostname = host ?? ip
        let trust = ServerTrust(certificates: presented, policies: [.ssl(server: purpose == .server, hostname: hostname)])
        if !anchorFiles.isEmpty {
            trust.setAnchorCertificates(anchors)
            trust.anchorsOnly = !systemAnchors
        }
        trust.additionalIntermediates = intermediates
        if let at { trust.verifyDate = ISO8601.parse(at) }
        if let maxDepth { trust.maximumDepth = maxDepth }
        if allowLegacyAlgorithms { trust.signaturePolicy = .legacy }

        let evaluation = trust.evaluate()
        if json {
            print(VerifyReport(evaluation, host: hostname).jsonString)
        } else {
            print(VerifyReport(evaluation, host: hostname).text)
        }
        if !evaluation.isTrusted { throw ExitCode(1) }
    }
}

/// Loads every certificate of a file; malformed input exits with status 2 after naming the problem.
func loadCertificates(_ path: String) throws -> [Certificate] {
    let bytes = try readInput(path)
    do {
        return try Certificate.loadAll(from: bytes)
    } catch {
        printError("error: \(path): \(error)")
        throw ExitCode(2)
    }
}

/// ISO 8601 parsing for `--at`: full timestamps, or a date meaning midnight UTC.
enum ISO8601 {
    static func parse(_ text: String) -> Date? {
        let full = ISO8601DateFormatter()
        if let date = full.date(from: text) { return date }
        let dateOnly = ISO8601DateFormatter()
        dateOnly.formatOptions = [.withFullDate]
        return dateOnly.date(from: text)
    }
}

/// The verify command's output, as text or JSON.
struct VerifyReport: Encodable {
    struct Link: Encodable {
        let index: Int
        let subject: String
        let issuer: String
        let notBefore: String
        let notAfter: String
        let role: String
    }

    struct Failure: Encodable {
        let certificateIndex: Int?
        let subject: String?
        let reason: String
        let severity: String
    }

    let trusted: Bool
    let result: String
    let host: String?
    let chain: [Link]
    let failures: [Failure]
    let signatureChecks: Int
    let pathsExplored: Int

    init(_ evaluation: TrustEvaluation, host: String?) {
        trusted = evaluation.isTrusted
        result = evaluation.result.description
        self.host = host
        let count = evaluation.chain.count
        chain = evaluation.chain.enumerated().map { index, certificate in
            let role = index == 0 ? "leaf" : (index == count - 1 && evaluation.endsAtAnchor ? "anchor" : "intermediate")
            return Link(index: index, subject: certificate.subject.description, issuer: certificate.issuer.description,
                        notBefore: certificate.notBefore.description, notAfter: certificate.notAfter.description, role: role)
        }
        failures = evaluation.failures.map {
            Failure(certificateIndex: $0.certificateIndex, subject: $0.subject, reason: $0.reason.summary,
                    severity: $0.reason.severity == .fatal ? "fatal" : "recoverable")
        }
        signatureChecks = evaluation.signatureChecks
        pathsExplored = evaluation.attempts.count
    }

    var text: String {
        var lines = ["Chain:"]
        for link in chain {
            lines.append("  [\(link.index)] \(link.subject)  (\(link.role))")
            lines.append("      issuer: \(link.issuer)")
            lines.append("      valid:  \(link.notBefore) → \(link.notAfter)")
        }
        if chain.isEmpty { lines.append("  (none)") }
        if trusted {
            lines.append("trusted" + (host.map { " for \($0)" } ?? ""))
        } else {
            lines.append("not trusted (\(result))")
            for failure in failures {
                let prefix = failure.certificateIndex.map { "certificate \($0) (\(failure.subject ?? "?")): " } ?? ""
                lines.append("  - \(prefix)\(failure.reason)")
            }
        }
        return lines.joined(separator: "\n")
    }

    var jsonString: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
