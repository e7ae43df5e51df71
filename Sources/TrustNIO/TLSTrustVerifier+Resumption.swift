import NIOSSL
import TrustSession
import TrustX509

extension TLSTrustVerifier {
    /// Re-verifies the peer of a resumed TLS session, whose handshake carried no certificates and
    /// so never reached the verification callback: the leaf BoringSSL kept in the session, with
    /// the rest of the chain that peer presented when this verifier trusted it
    /// (``ResumedSessionChains``), decided anew under the settings of this handshake (date,
    /// anchors, revocation). Logs the verdict and hands it to `completion`, inline when the
    /// decision cannot use the network, else from a task that `record` can cancel.
    func reverifyResumedSession(leaf handle: NIOSSLCertificate, role: TLSPeerRole, port: Int?, record: TLSPeerTrustRecord,
                                completion: @escaping @Sendable (TLSTrustOutcome) -> Void) {
        let leaf: Certificate
        switch Self.parse([handle]) {
        case let .failure(failure):
            logVerdict(.rejected(failure), presented: [], role: role, port: port)
            return completion(.rejected(failure))
        case let .success(parsed):
            guard let first = parsed.first else { return completion(.rejected(.noPeerCertificates)) }
            leaf = first
        }
        let presented = resumedChains.chain(forLeaf: leaf)
        if runsOffEventLoop {
            let task = Task {
                let outcome = await decider.decide(presented, role: role, port: port)
                logVerdict(outcome, presented: presented, role: role, port: port)
                completion(outcome)
            }
            record.setPendingVerification { task.cancel() }
        } else {
            let outcome = decider.decideOffline(presented, role: role, port: port)
            logVerdict(outcome, presented: presented, role: role, port: port)
            completion(outcome)
        }
    }
}
