import TrustSession
import TrustX509

extension TLSTrustVerifier {
    /// Where every verdict of the verifier ends: logged (``logVerdict(_:presented:role:port:)``)
    /// and recorded in ``metrics`` with the time since `started` (when the certificates were handed
    /// over) and whether it re-verified a `resumed` session. Every path that decides calls it once
    /// per verdict: the verification callback, the async `verify` hooks, a resumed session's
    /// re-verification, and the AsyncHTTPClient connection check.
    package func reportVerdict(
        _ outcome: TLSTrustOutcome, presented: [Certificate], role: TLSPeerRole, port: Int?,
        resumed: Bool = false, started: ContinuousClock.Instant
    ) {
        logVerdict(outcome, presented: presented, role: role, port: port)
        metrics.recordDecision(outcome, role: role, resumed: resumed, duration: .now - started)
    }
}
