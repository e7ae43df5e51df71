import ArgumentParser
import Foundation
import SwiftTrust

/// `trustctl verify`: build and validate a chain the way a TLS client would.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify a certificate chain against trust anchors (and a host name).",
        discussion: """
            CHAIN_FILE holds the leaf, optionally followed by the chain the peer sent (PEM or DER).
            Without --anchors the system trust store is used (SSL_CERT_FILE / SSL_CERT_DIR, else the distribution bundle).
            With --policy a server-trust evaluator (Alamofire semantics) judges the chain:
              default: chain and host (--no-host-validation: chain only)
              revocation: default validation, then a revocation check
              pinned-certificates: a --pin certificate is among the server's
                (--accept-self-signed: pinned certificates are the only anchors)
              public-keys: the key of a --pin certificate is among the server's
              spki: a sha256/BASE64 pin (--pin-sha256, or the key of a --pin
                certificate) matches; at least two pins, one of them a backup
              disabled: accept anything (testing only)
            Without --host/--ip, host validation is off. --email requires the leaf to
            name that mailbox in an rfc822Name SAN (e.g. a client certificate with
            --purpose client). --expect-dns, --expect-spiffe, --expect-ip, ... name who the verified leaf must be \
            (any of them): a trusted chain whose leaf matches none is "not trusted" (exit status 1), naming the rule.
            With --profile spiffe and --bundle (SPIFFE bundle JSON or PEM, one per trust
            domain; --trust-domain names each, in order), the trust domain of the leaf's
            SPIFFE ID picks the bundle whose authorities are the anchors:
              trustctl verify svid.pem --profile spiffe --bundle example.org.json
            Example: trustctl verify fullchain.pem --anchors root.pem --host example.com
            prints the chain built up to root.pem and "trusted", or "not trusted" with the failures of the most \
            relevant path tried, its first failure first (exit status 1).
            With --ct-logs (Apple's published log list) or --trusted-ct-logs (as SecTrustSetTrustedLogs), the
            chain's SCTs (embedded, --sct files, and those of --ocsp-response files) are evaluated by trustd's rule
            and the result printed; a chain ending at a system root must then be CT-qualified, as trustd requires.
            Exit status: 0 trusted, 1 not trusted, 2 usage errors, unreadable/malformed input, or an unusable SSL_CERT_FILE/SSL_CERT_DIR when the system store is used.
            """
    )

    @OptionGroup var input: ChainInputOptions

    @OptionGroup var certificatePolicies: PolicyInputOptions

    @OptionGroup var evaluation: EvaluationOptions

    @OptionGroup var network: IssuerFetchOptions

    @OptionGroup var spiffe: SPIFFEBundleOptions

    @OptionGroup(title: "Certificate Transparency") var transparency: CertificateTransparencyOptions

    @Option(name: .customLong("email"), help: "A mailbox the leaf must name in an rfc822Name SAN (repeatable).")
    var emailAddresses: [String] = []

    @OptionGroup(title: "Expected identity (any of them; checked on the verified leaf)") var identity: ExpectedIdentityOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        if evaluation.policy != nil && input.isClient {
            throw ValidationError("--policy evaluates TLS server trust; it cannot be combined with --purpose client")
        }
        if let bad = emailAddresses.first(where: { EmailAddress($0) == nil }) {
            throw ValidationError("--email \(bad) is not a mailbox (local-part@domain)")
        }
        if !emailAddresses.isEmpty && evaluation.policy != nil { throw ValidationError("--email cannot be combined with --policy") }
        try evaluation.validateEnforceable(
            trust: input.trust, certificatePolicies: certificatePolicies, validatesHost: input.name != nil,
            transparency: transparency)
        try spiffe.validate(profile: input.trust.profile, anchors: input.trust)
        if try identity.rule() != nil, evaluation.policy == .disabled {
            throw ValidationError("--expect-… checks the verified leaf; --policy disabled verifies nothing")
        }
    }

    func run() throws {
        // A file may list the chain in any order; put the leaf first as TLS would (RFC 8446 §4.4.2).
        let presented = LeafOrdering.leafFirst(try input.receivedCertificates())
        let hostname = input.name
        let policies: [TrustPolicy] = [input.policy] + emailAddresses.map { .email($0) }
        let bundles = try spiffe.load()
        // The options are kept apart from the policies, so an evaluator that replaces them keeps them all (TrustOptions).
        let configuration = TrustConfiguration.commandLine(
            trust: input.trust, loaded: try input.trust.load(), certificatePolicies: certificatePolicies, evaluation: evaluation,
            revocationDocuments: try evaluation.loadRevocationDocuments(), fetchesMissingIssuers: network.fetchIssuers,
            transparency: try transparency.load())
        let trust = ServerTrust(certificates: presented, policies: policies, configuration: configuration)
        // The leaf's trust domain picks the anchors (SPIFFE-ID §3.1); none when it names no bundle's.
        let selection = spiffe.isEmpty || presented.isEmpty ? nil : SPIFFESelection(leaf: presented[0], bundles: bundles, trust: trust)

        // Revocation information the network holds is fetched once, kept on the trust, and read by
        // whichever evaluation decides (a --policy evaluator never fetches by itself).
        let fetches = (evaluation.revocationOptions.map { !$0.contains(.networkAccessDisabled) } ?? false) || network.fetchIssuers
        if let policy = evaluation.policy {
            if fetches { _ = blockingEvaluate(trust, fetcher: network.fetcher) }
            let outcome = try PolicyOutcome(
                policy: policy, trust: trust, host: hostname,
                evaluator: evaluation.makeEvaluator(policy, host: hostname))
            let evaluation = trust.lastEvaluation ?? trust.evaluate()
            let report = VerifyReport(
                evaluation, host: hostname, policy: outcome,
                identity: try IdentityReport(rule: identity.rule(), evaluation: evaluation), spiffe: selection)
            if json { try Output.printJSON(report) } else { Output.print(lines: report.lines) }
            if !report.trusted { throw ExitCode(1) }
            return
        }
        let result = fetches ? blockingEvaluate(trust, fetcher: network.fetcher) : trust.evaluate()
        let report = VerifyReport(
            result, host: hostname, identity: try IdentityReport(rule: identity.rule(), evaluation: result),
            spiffe: selection)
        if json { try Output.printJSON(report) } else { Output.print(lines: report.lines) }
        if !report.trusted { throw ExitCode(1) }
    }
}

/// `--revocation` parsing, by the names of `RevocationOptions.namedFlags`.
enum RevocationFlags {
    static func parse(_ text: String) throws -> RevocationOptions {
        var options: RevocationOptions = []
        for item in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            guard let flags = RevocationOptions.flags(named: item) else {
                throw ValidationError("--revocation: unknown flag \(item) (use \(RevocationOptions.flagNames.joined(separator: ", ")))")
            }
            options.formUnion(flags)
        }
        return options
    }
}

/// Runs the network-capable evaluation from synchronous command code.
func blockingEvaluate(_ trust: ServerTrust, fetcher: HTTPRevocationFetcher = .shared) -> TrustEvaluation {
    final class Box: @unchecked Sendable {
        var value: TrustEvaluation?
    }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    Task {
        box.value = await trust.evaluate(fetchingWith: fetcher, cache: .shared)
        done.signal()
    }
    done.wait()
    return box.value ?? trust.evaluate()
}

/// What a `--policy` evaluator decided.
struct PolicyOutcome: Encodable {
    let name: String
    let accepted: Bool
    let reason: String?
    /// The headline of the rejection (the failed rule or pin), without the underlying failures.
    let summary: String?
    /// The evaluation failures under the rejection.
    let failures: [TrustFailure]

    enum CodingKeys: String, CodingKey { case name, accepted, reason }

    /// Runs `evaluator` on `trust` for `host` (empty when there is none: host validation is then off).
    init(policy: EvaluationOptions.Policy, trust: ServerTrust, host: String?, evaluator: any ServerTrustEvaluating) {
        name = policy.rawValue
        do {
            try evaluator.evaluate(trust, forHost: host ?? "")
            (accepted, reason, summary, failures) = (true, nil, nil, [])
        } catch let failure as ServerTrustFailureReason {
            (accepted, reason, summary, failures) = (false, failure.description, failure.summary, failure.trustFailures)
        } catch {
            (accepted, reason, summary, failures) = (false, "\(error)", "\(error)", [])
        }
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

/// The verify command's output, as text or JSON.
struct VerifyReport: Encodable {
    struct Link: Encodable {
        let index: Int
        let subject: String
        let issuer: String
        let notBefore: String
        let notAfter: String
        let role: String
        let revocation: String?
        /// The certificate's CRL and OCSP fetches that gave nothing, and why.
        let fetchFailures: [FetchFailureReport]?
    }

    struct Failure: Encodable {
        let certificateIndex: Int?
        let subject: String?
        let reason: String
        let severity: String

        init(certificateIndex: Int?, subject: String?, reason: String, severity: String) {
            (self.certificateIndex, self.subject, self.reason, self.severity) = (certificateIndex, subject, reason, severity)
        }

        /// The report of one evaluation failure.
        init(_ failure: TrustFailure) {
            self.init(
                certificateIndex: failure.certificateIndex, subject: failure.subject, reason: failure.reason.summary,
                severity: failure.reason.severity == .fatal ? "fatal" : "recoverable")
        }

        /// `certificate N (subject): reason`, or the reason alone for a chain-wide failure.
        var text: String {
            (certificateIndex.map { "certificate \($0) (\(subject ?? "?")): " } ?? "") + reason
        }
    }

    let trusted: Bool
    let result: String
    let host: String?
    let policy: PolicyOutcome?
    let chain: [Link]
    let failures: [Failure]
    let signatureChecks: Int
    let pathsExplored: Int
    /// The certificate policies the trusted chain is valid for (RFC 5280 user-constrained-policy-set).
    let validPolicies: [String]?
    /// The caIssuers downloads that gave nothing, and why.
    let issuerFetchFailures: [FetchFailureReport]?
    /// The `--expect-…` rule and whether the verified leaf has that identity.
    let identity: IdentityReport?
    /// With --bundle: the leaf's SPIFFE ID and the bundle it picked, or why none.
    let spiffe: SPIFFESelection?
    /// With --ct-logs or --trusted-ct-logs: the Certificate Transparency result of the chain that validated.
    let certificateTransparency: TransparencyReport?

    /// The report of `evaluation`; with `policy`, the policy's verdict and failures replace the
    /// evaluation's; with `identity`, a leaf it refuses is not trusted.
    init(
        _ evaluation: TrustEvaluation, host: String?, policy: PolicyOutcome? = nil, identity: IdentityReport? = nil,
        spiffe: SPIFFESelection? = nil
    ) {
        trusted = (policy?.accepted ?? evaluation.isTrusted) && identity?.allowed != false
        self.identity = identity
        self.spiffe = spiffe
        result = evaluation.result.description
        self.host = host
        self.policy = policy
        let count = evaluation.chain.count
        chain = evaluation.chain.enumerated().map { index, certificate in
            let role = index == 0 ? "leaf" : (index == count - 1 && evaluation.endsAtAnchor ? "anchor" : "intermediate")
            let status = evaluation.revocationStatuses.first { $0.index == index }
            return Link(
                index: index, subject: certificate.subject.description, issuer: certificate.issuer.description,
                notBefore: certificate.notBefore.description, notAfter: certificate.notAfter.description, role: role,
                revocation: status?.status.description, fetchFailures: FetchFailureReport.reports(status?.fetchFailures ?? []))
        }
        failures = (policy?.failures ?? evaluation.failures).map(Failure.init)
        signatureChecks = evaluation.signatureChecks
        pathsExplored = evaluation.attempts.count
        validPolicies = evaluation.validPolicies.map { $0.userConstrained.map { OID.name(of: $0) }.sorted() }
        issuerFetchFailures = FetchFailureReport.reports(evaluation.fetchFailures.filter { $0.purpose == .caIssuers })
        certificateTransparency = evaluation.certificateTransparency.map(TransparencyReport.init)
    }

    /// The human-readable form, one line per element.
    var lines: [String] {
        var lines = ["Chain:"]
        for link in chain {
            lines.append("  [\(link.index)] \(link.subject)  (\(link.role))")
            lines.append("      issuer: \(link.issuer)")
            lines.append("      valid:  \(link.notBefore) → \(link.notAfter)")
            if let revocation = link.revocation { lines.append("      revocation: \(revocation)") }
        }
        if chain.isEmpty { lines.append("  (none)") }
        for failure in issuerFetchFailures ?? [] { lines.append("  caIssuers \(failure.url) not fetched: \(failure.reason)") }
        if let spiffe { lines.append(spiffe.line) }
        if let certificateTransparency { lines += certificateTransparency.lines }
        if let policy {
            lines.append((trusted ? "trusted" : "not trusted") + (host.map { " for \($0)" } ?? "") + " (policy \(policy.name))")
            if let summary = policy.summary { lines.append("  - \(summary)") }
            lines += failures.map { "      " + $0.text }
            if let identity, policy.accepted { lines.append((identity.allowed ? "  identity: " : "  - identity: ") + identity.text) }
        } else if trusted {
            lines.append("trusted" + (host.map { " for \($0)" } ?? ""))
            if let identity { lines.append("  identity: " + identity.text) }
            if let validPolicies { lines.append("  valid policies: " + (validPolicies.isEmpty ? "none" : validPolicies.joined(separator: ", "))) }
        } else if let identity, failures.isEmpty {
            lines.append("not trusted: identity " + identity.text)
        } else {
            lines.append("not trusted (\(result))")
            lines += failures.map { "  - " + $0.text }
        }
        return lines
    }
}

/// What `--expect-…` found on the verified leaf.
struct IdentityReport: Encodable {
    /// The rule, as `IdentityRule` describes it.
    let rule: String
    /// Whether the chain was trusted and its leaf matches the rule.
    let allowed: Bool
    /// The member of the rule the leaf failed (the rule itself, or the first `all` member), if it did.
    let failedRule: String?

    /// The report of `rule` on `evaluation`'s leaf; nil without a rule. An untrusted chain has no
    /// verified leaf: not allowed, nothing failed.
    init?(rule: IdentityRule?, evaluation: TrustEvaluation) {
        guard let rule else { return nil }
        self.rule = rule.description
        guard evaluation.isTrusted, let leaf = evaluation.chain.first else {
            (allowed, failedRule) = (false, nil)
            return
        }
        let refused = rule.refusal(of: leaf)
        (allowed, failedRule) = (refused == nil, refused?.description)
    }

    /// `allowed by RULE`, `refused: it fails RULE`, or `not verified` for an untrusted chain.
    var text: String {
        if allowed { return "allowed by \(rule)" }
        guard let failedRule else { return "not verified (the chain is not trusted)" }
        return "refused: it fails \(failedRule)"
    }
}
