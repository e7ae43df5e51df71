import NIOSSL
import TrustSession
import TrustX509

extension TLSTrustVerifier {
    /// Re-verifies the peer of a resumed TLS session, whose handshake carried no certificates and
    /// so never reached the verification callback: the leaf BoringSSL kept in the session, asked
    /// about through the one entry point (`TLSHandshakeDecider`, which completes it with the chain
    /// that peer presented when its handshake completed), with `check`'s role, port and challenge
    /// handler. Logs and records the verdict (`resumed` in ``metrics``) and hands it to `completion`,
    /// inline or from a task that `record` can cancel.
    func reverifyResumedSession(
        leaf handle: NIOSSLCertificate, check: TLSPeerTrustHandler.ResumptionCheck,
        record: TLSPeerTrustRecord, completion: @escaping @Sendable (TLSTrustOutcome) -> Void
    ) {
        let role = check.role, port = check.port
        let started = ContinuousClock.now
        let leaf: Certificate
        switch Self.parse([handle]) {
        case let .failure(failure):
            reportVerdict(.rejected(failure), presented: [], role: role, port: port, resumed: true, started: started)
            return completion(.rejected(failure))
        case let .success(parsed):
            guard let first = parsed.first else { return completion(.rejected(.noPeerCertificates)) }
            leaf = first
        }
        decide(.resumed(leaf: leaf), role: role, port: port, taskHandler: check.taskHandler, record: record) { outcome in
            reportVerdict(outcome, presented: [leaf], role: role, port: port, resumed: true, started: started)
            completion(outcome)
        }
    }
}
