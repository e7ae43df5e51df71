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
            Each certificate's embedded SCTs are listed; with --ct-logs or --trusted-ct-logs, whether each counted and \
            the chain's Certificate Transparency result (as in verify).
            Colour and symbols when standard output is a terminal (NO_COLOR turns them off); --json for tools.
            Example: trustctl chain leaf.pem --host www.example.com
            for a server that sends only its leaf, tops the tree with "MISSING: <the issuer>" and says under \
            Findings which intermediate the server must send (and where the leaf says it can be downloaded).
            Exit status: 0 trusted, 1 not trusted, 2 usage errors, unreadable/malformed input, or an unusable SSL_CERT_FILE/SSL_CERT_DIR when the system store is used.
            """
    )

    @OptionGroup var input: ChainInputOptions

    @OptionGroup var network: IssuerFetchOptions

    @OptionGroup(title: "Certificate Transparency") var transparency: CertificateTransparencyOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let received = try input.receivedCertificates()
        let name = input.name
        let date = input.date
        var configuration = TrustConfiguration.commandLine(
            trust: input.trust, loaded: try input.trust.load(), certificatePolicies: nil, evaluation: nil, revocationDocuments: .none,
            fetchesMissingIssuers: network.fetchIssuers, transparency: try transparency.load())
        configuration.verifyDate = date // the instant the explanation is written for, now or --at
        let trust = ServerTrust(certificates: LeafOrdering.leafFirst(received), policies: [input.policy], configuration: configuration)
        // The fetched intermediates are kept on the trust, and shown as "fetched from URL".
        if network.fetchIssuers { _ = blockingEvaluate(trust, fetcher: network.fetcher) }

        let diagnostics = ChainDiagnostics(trust: trust, host: name, verifyDate: date, asReceived: received)
        if json {
            try Output.printJSON(diagnostics)
        } else {
            Output.printRendered(diagnostics.text(style: Chain.useColor ? .color : .plain))
        }
        if !diagnostics.trusted { throw ExitCode(1) }
    }

    /// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
    static var useColor: Bool {
        if let value = ProcessInfo.processInfo.environment["NO_COLOR"], !value.isEmpty { return false }
        return isatty(STDOUT_FILENO) == 1
    }
}
