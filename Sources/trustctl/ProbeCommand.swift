import ArgumentParser
import Foundation
import SwiftTrust
import TrustNIO

/// `trustctl probe`: connect to a live TLS server and judge its certificates with SwiftTrust.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Connect to a TLS server and judge the certificates it presents (like openssl s_client, judged by SwiftTrust).",
        discussion: """
            TARGET is HOST, HOST:PORT, [IPv6]:PORT or https://HOST[:PORT]/ (port 443 by default).
            The identity checked is --host/--ip, else the host connected to (an IP address as an IP address). \
            SNI is --sni, else that host unless it is an IP address.
            Every trust and evaluator option of `verify` applies (--anchors, --policy, --pin, --revocation, ...); \
            revocation information is fetched off the event loop when --revocation allows the network. \
            An intermediate the server left out is downloaded from its caIssuers URL only with --fetch-issuers, \
            as in `verify` and `chain`.
            --ct-logs or --trusted-ct-logs evaluate Certificate Transparency as `verify` does (required where trustd \
            requires it): the SCTs embedded in the served leaf and in --ocsp-response files count, and --sct files \
            as SCTs delivered by TLS; the handshake's own signed_certificate_timestamp extension is not read \
            (swift-nio-ssl does not expose it).
            Prints the negotiated protocol and cipher suite, the presented chain with the diagnostics of \
            `trustctl chain`, and the verdict. --save-chain writes the presented chain as PEM.
            Example: trustctl probe www.example.com --save-chain served.pem
            connects to port 443, judges the chain for www.example.com against the system trust store, and keeps \
            what was served for a later `trustctl chain served.pem`.
            Exit status: 0 the handshake completed and the verification accepted the server, \
            1 the verification rejected it (the reason is printed), \
            2 usage errors and connection failures (refused, timed out, not TLS).
            """
    )

    @Argument(help: "HOST, HOST:PORT, [IPv6]:PORT or https://HOST[:PORT]/.")
    var target: String

    @Option(help: "The SNI name to send (default: the host connected to, unless it is an IP address).")
    var sni: String?

    @Option(help: "Seconds allowed to connect, and again to complete the handshake.")
    var connectTimeout: Double = 10

    @Option(help: "Write the certificates the server presented to FILE as PEM.")
    var saveChain: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var trust: TrustInputOptions

    @OptionGroup var certificatePolicies: PolicyInputOptions

    @OptionGroup var evaluation: EvaluationOptions

    @OptionGroup var network: IssuerFetchOptions

    @OptionGroup(title: "Certificate Transparency") var transparency: CertificateTransparencyOptions

    func validate() throws {
        _ = try ProbeTarget(parsing: target)
        if trust.isClient { throw ValidationError("probe judges a server; --purpose client does not apply") }
        try evaluation.validateEnforceable(
            trust: trust, certificatePolicies: certificatePolicies, validatesHost: true, transparency: transparency)
        guard connectTimeout > 0, connectTimeout <= 3600 else { throw ValidationError("--connect-timeout must be from 0 to 3600 seconds") }
    }

    func run() throws {
        let destination = try ProbeTarget(parsing: target)
        let identity = trust.name ?? destination.host
        let inputs = try trust.load()
        let fetcher = network.localAddresses.fetcher
        let settings = try settings(inputs: inputs, fetcher: fetcher)
        let judge: TLSTrustJudge = try evaluation.policy.map { .evaluator(try evaluation.makeEvaluator($0, host: identity)) } ?? .evaluate
        let verifier = try TLSTrustVerifier(settings: settings, judge: judge)

        let connection: ProbeConnection
        do {
            connection = try ProbeConnection.open(
                host: destination.host, port: destination.port, identity: identity, serverName: sni,
                verifier: verifier, timeout: connectTimeout)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let presented = connection.record.presentedCertificates
        if let saveChain { try save(presented, to: saveChain) }

        // The chain as `trustctl chain` explains it: a plain evaluation under the same settings.
        var diagnostics: ChainDiagnostics?
        var diagnosed: ServerTrust?
        if !presented.isEmpty {
            // The explanation applies what the verdict applied.
            let explained = ServerTrust(
                certificates: presented, policies: [trust.policy(name: identity)],
                configuration: settings.configuration)
            diagnosed = explained
            // What the verification fetched (an intermediate the server left out) is shown as fetched,
            // from the shared cache rather than the network a second time.
            if explained.options.fetchesMissingIssuers, !explained.evaluate().isTrusted {
                _ = blockingEvaluate(explained, fetcher: fetcher)
            }
            diagnostics = ChainDiagnostics(trust: explained, host: identity, verifyDate: inputs.verifyDate ?? Date(), asReceived: presented)
        }
        let report = ProbeReport(
            target: destination, identity: identity, serverName: sni, connection: connection,
            policy: evaluation.policy?.rawValue, diagnostics: diagnostics,
            explanation: diagnosed?.lastEvaluation)
        if json {
            try Output.printJSON(report)
        } else {
            Output.print(lines: report.headerLines)
            if let diagnostics { Output.printRendered(diagnostics.text(style: Chain.useColor ? .color : .plain)) }
            Output.print(lines: report.verdictLines)
        }
        if !report.accepted { throw ExitCode(1) }
    }

    /// The settings the server is verified with: the command line's, fetching a missing
    /// intermediate only with --fetch-issuers, through `fetcher` (which --fetch-local-addresses
    /// lets reach local addresses).
    func settings(inputs: TrustInputs, fetcher: HTTPRevocationFetcher) throws -> TLSTrustSettings {
        var settings = try TLSTrustSettings.commandLine(
            trust: trust, inputs: inputs, certificatePolicies: certificatePolicies,
            evaluation: evaluation, localAddresses: network.localAddresses,
            fetchesMissingIssuers: network.fetchIssuers, transparency: try transparency.load())
        settings.revocationFetching = RevocationFetching(fetcher: fetcher, cache: .shared)
        return settings
    }

    /// Writes `certificates` as PEM; an unwritable file exits with status 2.
    private func save(_ certificates: [Certificate], to path: String) throws {
        let pem = certificates.map(\.pemEncoded).joined()
        do { try Data(pem.utf8).write(to: URL(fileURLWithPath: path)) } catch {
            printError("error: \(path): cannot write the chain: \(error.localizedDescription)")
            throw ExitCode(2)
        }
    }
}
