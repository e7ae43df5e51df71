import Foundation
import TrustTransparency
import TrustX509

/// Certificate Transparency for one evaluation, as trustd runs it once a path has validated
/// (`SecPolicyCheckCT`, then `SecPolicyCheckSystemTrustedCTRequired` in `SecPolicyServer.c`):
/// the SCTs of the leaf, of the TLS handshake and of the OCSP responses are evaluated against the
/// configured logs, and CT is required only where trustd requires it.
struct CertificateTransparencyCheck {
    let logs: CTLogSelection
    /// SCTs the TLS handshake delivered (``TrustConfiguration/signedCertificateTimestamps``).
    let deliveredTimestamps: [[UInt8]]
    /// Supplied and fetched OCSP responses, whose single responses may carry SCTs.
    let ocspResponses: [OCSPResponse]
    /// The policies include Apple's SSL server policy (trustd requires CT for it alone).
    let isSSLServerPolicy: Bool
    /// The evaluation's instant (the engine sets it when it resolves the verify date).
    var date = Date()

    /// The report for the validated `chain` (leaf first, ending at its anchor) at ``date``, whose
    /// anchor is trusted as `rootSource` says. Each SCT's signature check is drawn from `budget`.
    func report(
        for chain: [Certificate], rootSource: AnchorSource,
        budget: BudgetMeter
    ) throws(BudgetExhausted) -> CertificateTransparencyReport? {
        guard let leaf = chain.first else { return nil }
        // The leaf's issuer: embedded SCTs are signed over its key's hash. A leaf that is its own
        // anchor has none (its embedded SCTs cannot count, as in trustd).
        let issuer = chain.count > 1 ? chain[1] : nil
        var timestamps: [PresentedTimestamp] = []
        var unreadable: [CertificateTransparencyReport.UnreadableList] = []
        func read(_ source: SCTSource, _ body: () throws(SCTParseError) -> [PresentedTimestamp]) {
            do throws(SCTParseError) { timestamps += try body() } catch {
                unreadable.append(.init(source: source, error: error))
            }
        }
        read(.embedded) { () throws(SCTParseError) in try SCTList.embedded(in: leaf) }
        timestamps += deliveredTimestamps.map { PresentedTimestamp(encoded: $0, source: .tlsExtension) }
        if let issuer {
            for response in ocspResponses {
                read(.ocspResponse) { () throws(SCTParseError) in try SCTList.delivered(in: response, leaf: leaf, issuer: issuer) }
            }
        }
        // One signature verification per SCT, from the evaluation's one budget.
        try budget.spend(.signatureChecks, timestamps.count)
        let evaluation = CTPolicy.evaluate(leaf: leaf, issuer: issuer, timestamps: timestamps, logs: logs.logs, at: date)
        return CertificateTransparencyReport(
            evaluation: evaluation, exemption: exemption(of: leaf, rootSource: rootSource, at: date),
            timestamps: timestamps, unreadableLists: unreadable)
    }

    /// Why CT is not required, in trustd's order: the policy, the list's age, the leaf's dates,
    /// then the anchor (a root of the system anchor source; never a caller's or an administrator's).
    private func exemption(of leaf: Certificate, rootSource: AnchorSource, at date: Date) -> CTEnforcement.Exemption? {
        guard isSSLServerPolicy else { return .notSSLServerPolicy }
        if let exemption = CTEnforcement.exemption(of: leaf, at: date, logs: logs.logs, logsSetByCaller: logs.isSetByCaller) {
            return exemption
        }
        guard case .system = rootSource else { return .anchorNotSystemRoot }
        return nil
    }
}
