import SwiftTrust
import TrustNIO

/// What `trustctl probe` found, as text or JSON.
struct ProbeReport: Encodable {
    let host: String
    let port: Int
    /// The SNI name sent (nil: none, for an IP address).
    let serverName: String?
    /// The identity the server was checked for.
    let identity: String
    let tlsVersion: String?
    let cipherSuite: String?
    /// The evaluator of --policy, if any.
    let policy: String?
    /// Whether the handshake completed and the verification accepted the server.
    let accepted: Bool
    /// Why the verification rejected the server, in full.
    let reason: String?
    /// The headline of the rejection, without the underlying failures.
    let summary: String?
    /// The evaluation failures under the rejection (certificate and rule).
    let failures: [VerifyReport.Failure]
    /// The accepted server's revocation statuses, with the fetches that gave nothing and why.
    let revocation: [RevocationReport]
    /// The presented chain explained as by `trustctl chain`.
    let chain: ChainDiagnostics?
    /// With --ct-logs or --trusted-ct-logs: the Certificate Transparency result of the chain.
    let certificateTransparency: TransparencyReport?

    init(
        target: ProbeTarget, identity: String, serverName: String?, connection: ProbeConnection, policy: String?,
        diagnostics: ChainDiagnostics?, explanation: TrustEvaluation?
    ) {
        host = target.host
        port = target.port
        self.serverName = serverName ?? (IPAddress(target.host) == nil ? target.host : nil)
        self.identity = identity
        tlsVersion = connection.tlsVersion?.displayName
        cipherSuite = connection.cipherSuite.map(TLSCipherSuiteNames.name(of:))
        self.policy = policy
        let failure = connection.record.failure
        accepted = connection.handshakeError == nil && connection.record.trustedPeer != nil
        reason = failure?.description
        summary = failure?.summary
        failures = (failure?.trustFailures ?? []).map(VerifyReport.Failure.init)
        revocation = RevocationReport.reports(of: connection.record.trustedPeer?.evaluation)
        chain = diagnostics
        // The verification's own evaluation where the record has it; else the explanation's, made
        // under the same configuration (a judge's rejection carries no evaluation).
        let decided = connection.record.trustedPeer?.evaluation ?? failure?.evaluation
        certificateTransparency = (decided ?? explanation)?.certificateTransparency.map(TransparencyReport.init)
    }

    /// Where the probe connected and what TLS negotiated.
    var headerLines: [String] {
        [
            "Connected to \(host):\(port) (SNI: \(serverName ?? "none"))",
            "Protocol: \(tlsVersion ?? "(handshake not completed)")  Cipher suite: \(cipherSuite ?? "(not seen)")",
        ]
    }

    /// The verifier's verdict.
    var verdictLines: [String] {
        let by = policy.map { " (policy \($0))" } ?? ""
        let transparency = certificateTransparency?.lines ?? []
        if accepted { return ["Verdict: accepted for \(identity)\(by)"] + revocation.map { "  - " + $0.text } + transparency }
        return ["Verdict: rejected for \(identity)\(by)", "  - \(summary ?? "the handshake did not complete")"]
            + failures.map { "      " + $0.text } + transparency
    }
}

extension TLSTrustFailure {
    /// The evaluation a rejection carries, if any (a judge's or a disposition's carries none).
    fileprivate var evaluation: TrustEvaluation? {
        switch self {
        case let .evaluationFailed(evaluation), let .optionsNotEnforced(_, _, evaluation?),
            let .certificateTransparencyNotEnforced(_, evaluation?):
            return evaluation
        default:
            return nil
        }
    }
}
