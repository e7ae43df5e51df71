import ArgumentParser
import Foundation
import NIOSSL
import SwiftTrust
import TrustNIO

/// `trustctl serve`: a TLS server for testing clients, judging their certificates with SwiftTrust.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a TLS server for testing clients and print each client's verdict (the server side of `probe`).",
        discussion: """
            Presents --cert (with --chain) using --key, on --listen:--port (127.0.0.1:8443 by default; port 0 picks \
            a free port). The first line printed is "Listening on ADDRESS:PORT".
            With --require-client-cert every client must present a certificate, judged for clientAuth by a plain \
            evaluation against --anchors (the system store only with --system-anchors, which then must be given \
            explicitly), with every trust option of `verify` (--profile, --revocation, --crl, --at, ...). \
            A resumed TLS session, in which the client sends no certificate, is re-verified and shown as such. \
            Without --require-client-cert no client certificate is asked for, so the trust options are refused (exit 2). \
            Certificate Transparency is never required of a client (trustd requires it under the SSL server policy \
            only), so serve takes no CT log list; --ct-logs is a `verify` and `probe` option.
            --allow-dns, --allow-spiffe, --allow-email, ... name who a verified client must be (any of them): a client \
            whose chain validates but whose leaf matches none is refused in the handshake, naming the rule.
            With --profile spiffe, --bundle FILE (SPIFFE bundle JSON or PEM, one per trust domain; --trust-domain names \
            each, in order) replaces --anchors: each client's SPIFFE trust domain picks the bundle it is verified against, \
            in its handshake.
            For each connection it prints the client's address, the protocol, whether the session was resumed, \
            the client's chain with the diagnostics of `trustctl chain`, and the verdict; it answers an accepted \
            client with one line and closes. --json prints one JSON object per connection instead. \
            At most 64 connections are open at once; more are closed at once.
            Example: trustctl serve --cert server.pem --key server.key --require-client-cert --anchors clients-ca.pem --count 1
            then, in another terminal: openssl s_client -connect 127.0.0.1:8443 -cert client.pem -key client.key
            Exit status (after --count connections): 0 every client was accepted, 1 a client was rejected or its \
            handshake failed, 2 usage errors, unreadable files, or the address cannot be listened on.
            """
    )

    @Option(name: .customLong("cert"), help: "The server's certificate (PEM or DER).")
    var certificateFile: String

    @Option(name: .customLong("key"), help: "The server's private key (PEM).")
    var keyFile: String

    @Option(name: .customLong("chain"), help: "Certificates sent after the server's (repeatable).")
    var chainFiles: [String] = []

    @Option(help: "The address to listen on.")
    var listen = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8443

    @Flag(help: "Require and verify a client certificate (mutual TLS).")
    var requireClientCert = false

    @Option(help: "Stop after this many connections (default: serve until interrupted).")
    var count: Int?

    @Option(help: "Seconds a client has to complete its handshake.")
    var handshakeTimeout: Double = 10

    @Flag(help: "Print one JSON object per connection instead of text.")
    var json = false

    @OptionGroup var trust: TrustInputOptions

    @OptionGroup var certificatePolicies: PolicyInputOptions

    @OptionGroup var evaluation: EvaluationOptions

    @OptionGroup var localAddresses: LocalAddressOption

    @OptionGroup(title: "Allowed client identities (any of them; checked on the verified leaf, in the handshake)")
    var allowed: AllowedIdentityOptions

    @OptionGroup var spiffe: SPIFFEBundleOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        guard handshakeTimeout > 0, handshakeTimeout <= 3600 else { throw ValidationError("--handshake-timeout must be from 0 to 3600 seconds") }
        if trust.purpose == .server { throw ValidationError("serve judges clients; --purpose server does not apply") }
        if trust.name != nil { throw ValidationError("serve judges clients, whose names are not checked; --host and --ip do not apply") }
        if evaluation.policy != nil {
            throw ValidationError("serve judges clients with a plain evaluation; --policy (a server-trust evaluator) does not apply")
        }
        if requireClientCert {
            // A client verified against the system store would let in any publicly trusted clientAuth certificate.
            if trust.anchorFiles.isEmpty, !trust.systemAnchors, spiffe.isEmpty {
                throw ValidationError(
                    "--require-client-cert needs --anchors (the CA that issues the clients' certificates), --bundle with --profile spiffe, or --system-anchors to trust the system store for clients"
                )
            }
            try spiffe.validate(profile: trust.profile, anchors: trust)
            try evaluation.validateEnforceable(trust: trust, certificatePolicies: certificatePolicies, validatesHost: false)
            _ = try allowed.rule()
        } else {
            // Without it no client certificate is asked for, so the trust flags would judge nothing.
            let given =
                trust.givenFlags + evaluation.optionFlags + certificatePolicies.givenFlags
                + (localAddresses.fetchLocalAddresses ? ["--fetch-local-addresses"] : []) + allowed.flags.givenFlags(prefix: "--allow-")
                + (spiffe.isEmpty ? [] : ["--bundle"]) + (spiffe.trustDomainNames.isEmpty ? [] : ["--trust-domain"])
            if !given.isEmpty {
                throw ValidationError(
                    "\(given.joined(separator: ", ")) judge client certificates, which are asked for only with "
                        + "--require-client-cert: add --require-client-cert")
            }
        }
    }

    func run() throws {
        let identity = try loadIdentity()
        var tls = TLSConfiguration.makeServerConfiguration(certificateChain: identity.chain, privateKey: identity.key)
        var verifier: TLSTrustVerifier?
        let bundles = try spiffe.load()
        if requireClientCert {
            tls.certificateVerification = .noHostnameVerification // ask for, and require, a client certificate
            verifier = try makeVerifier(try trust.load(), bundles: bundles)
        }
        let context: NIOSSLContext
        do { context = try NIOSSLContext(configuration: tls) } catch {
            printError("error: the TLS configuration cannot be used: \(error)")
            throw ExitCode(2)
        }
        let explainer = ServeReport.Explainer(policy: clientPolicy, configuration: verifier?.settings.configuration, bundles: bundles)
        let listener: ServeListener
        do {
            listener = try ServeListener(
                host: listen, port: port, context: context, verifier: verifier,
                handshakeTimeout: handshakeTimeout, limit: count
            ) { report in
                report.print(json: json, explainer: explainer)
            }
        } catch {
            printError("error: cannot listen on \(listen):\(port): \(error)")
            throw ExitCode(2)
        }
        Output.print("Listening on \(listen):\(listener.port)")
        let everyClientAccepted = listener.waitUntilDone()
        if !everyClientAccepted { throw ExitCode(1) }
    }

    /// The policy a client is judged by (the verifier's own: `TLSTrustSettings` for the client role).
    private var clientPolicy: TrustPolicy { TrustPolicy(profile: trust.profile, purpose: .clientAuth, hostname: nil) }

    /// The verifier of client certificates: the anchors explicit (or the system store, named), or
    /// chosen per client from `bundles` by its SPIFFE trust domain, a plain evaluation.
    private func makeVerifier(_ inputs: TrustInputs, bundles: SPIFFETrustBundleSet) throws -> TLSTrustVerifier {
        var settings = try TLSTrustSettings.commandLine(
            trust: trust, inputs: inputs, certificatePolicies: certificatePolicies,
            evaluation: evaluation, localAddresses: localAddresses)
        settings.systemStoreTrustsClients = inputs.systemAnchors
        settings.requiredIdentity = try allowed.rule()
        if !bundles.isEmpty {
            // Read once per handshake: the client's trust domain picks its anchors (SPIFFE-ID §3.1).
            settings.anchors = nil
            settings.anchorProvider = bundles
            settings.anchorsOnly = true
            settings.systemStoreTrustsClients = false
        }
        do { return try TLSTrustVerifier(settings: settings) } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }

    /// The server's certificate chain and key; unreadable or malformed files exit with status 2.
    private func loadIdentity() throws -> (chain: [NIOSSLCertificateSource], key: NIOSSLPrivateKeySource) {
        let certificates = try ([certificateFile] + chainFiles).flatMap(loadCertificates)
        let handles: [NIOSSLCertificate]
        do { handles = try certificates.map { try NIOSSLCertificate(bytes: $0.derEncoded, format: .der) } } catch {
            printError("error: \(certificateFile): \(error)")
            throw ExitCode(2)
        }
        do {
            let key = try NIOSSLPrivateKey(bytes: try readInput(keyFile), format: .pem)
            return (handles.map(NIOSSLCertificateSource.certificate), .privateKey(key))
        } catch let exit as ExitCode {
            throw exit
        } catch {
            printError("error: \(keyFile): not a PEM private key: \(error)")
            throw ExitCode(2)
        }
    }
}
