import Foundation
import NIOSSL
import SwiftTrust
import TrustNIO

/// What `trustctl serve` saw of one connection, as text or JSON.
struct ServeReport: Encodable {
    /// The client's address.
    let remote: String
    let tlsVersion: String?
    /// Whether client certificates were asked for and verified.
    let verifiesClients: Bool
    /// Whether the handshake resumed a session, whose client was then re-verified.
    let sessionResumed: Bool
    /// Whether the handshake completed and (when verifying) the client was trusted.
    let accepted: Bool
    /// The accepted client's subject.
    let client: String?
    /// Why the client was rejected, or why the handshake failed.
    let reason: String?
    /// The headline of the rejection.
    let summary: String?
    /// The evaluation failures under the rejection (certificate and rule).
    let failures: [VerifyReport.Failure]
    /// The accepted client's revocation statuses, with the fetches that gave nothing and why.
    let revocation: [RevocationReport]
    /// The certificates the client presented (not encoded: explained by ``Explainer``).
    private(set) var presented: [Certificate] = []

    private enum CodingKeys: String, CodingKey {
        case remote, tlsVersion, verifiesClients, sessionResumed, accepted, client, reason, summary, failures, revocation
    }

    init(remote: String, tlsVersion: TLSVersion?, record: TLSPeerTrustRecord?, verifiesClients: Bool, handshakeError: (any Error)?) {
        self.remote = remote
        self.tlsVersion = handshakeError == nil ? tlsVersion?.displayName : nil
        self.verifiesClients = verifiesClients
        sessionResumed = record?.sessionResumed ?? false
        let failure = record?.failure
        accepted = handshakeError == nil && (!verifiesClients || record?.trustedPeer != nil)
        client = record?.trustedPeer?.subject.description
        reason = failure?.description ?? handshakeError.map { "the handshake failed: \($0)" }
        summary = failure?.summary ?? handshakeError.map { "the handshake failed: \($0)" }
        failures = (failure?.trustFailures ?? []).map(VerifyReport.Failure.init)
        revocation = RevocationReport.reports(of: record?.trustedPeer?.evaluation)
        presented = record?.presentedCertificates ?? []
    }

    /// Explains a client's chain as `trustctl chain` does, under the verifier's settings.
    struct Explainer: Sendable {
        let policy: TrustPolicy
        /// The verifier's configuration; nil when clients are not verified.
        let configuration: TrustConfiguration?
        /// SPIFFE trust bundles: the client's trust domain picks the anchors, as the verifier's provider does.
        let bundles: SPIFFETrustBundleSet

        func diagnostics(of presented: [Certificate]) -> ChainDiagnostics? {
            guard let leaf = presented.first, let configuration else { return nil }
            let trust = ServerTrust(certificates: presented, policies: [policy], configuration: configuration)
            if !bundles.isEmpty { trust.setAnchorCertificates((try? bundles.anchors(for: leaf)) ?? []) }
            return ChainDiagnostics(trust: trust, host: nil, verifyDate: configuration.verifyDate ?? Date(), asReceived: presented)
        }
    }

    /// Prints the report: JSON on one line, or text with the client chain's diagnostics.
    func print(json: Bool, explainer: Explainer) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(self) { Output.print(String(decoding: data, as: UTF8.self)) }
            return
        }
        Output.print(
            lines: ["Connection from \(remote)", "Protocol: \(tlsVersion ?? "(handshake not completed)")"]
                + (verifiesClients
                    ? ["Session: \(sessionResumed ? "resumed (the client sent no certificate; its session's certificate was re-verified)" : "new")"]
                    : []))
        if let diagnostics = explainer.diagnostics(of: presented) {
            Output.printRendered(diagnostics.text(style: Chain.useColor ? .color : .plain))
        }
        Output.print(lines: verdictLines)
    }

    /// The verdict.
    var verdictLines: [String] {
        if accepted {
            return [verifiesClients ? "Verdict: client accepted: \(client ?? "")" : "Verdict: connected (no client certificate asked for)"]
                + revocation.map { "  - " + $0.text }
        }
        return ["Verdict: \(verifiesClients ? "client rejected" : "handshake failed")", "  - \(summary ?? "the handshake did not complete")"]
            + failures.map { "      " + $0.text }
    }
}
