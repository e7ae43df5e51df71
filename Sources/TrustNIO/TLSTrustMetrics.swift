import Foundation
import Metrics
import TrustSession
import TrustX509

/// What a ``TLSTrustVerifier`` records through swift-metrics, the server-side Swift metrics API: the
/// application bootstraps a backend (Prometheus, OpenTelemetry, StatsD) with
/// `MetricsSystem.bootstrap(_:)`, and every verifier (so every integration, which builds its
/// verifier through `TLSTrustVerifier`) records there. Until then ``standard`` records into
/// swift-metrics' no-op factory, as libraries do by convention.
///
/// | Metric | Type | Dimensions |
/// | --- | --- | --- |
/// | `swifttrust_tls_decisions_total` | counter | `outcome` (`trusted`, `rejected`), `role` (`server`, `client`), `reason`, `resumed` (`true`, `false`) |
/// | `swifttrust_tls_decision_duration` | timer (nanoseconds) | `role` |
/// | `swifttrust_fetches_total` | counter | `kind` (`crl`, `ocsp`, `ca_issuers`), `result` (`ok`, `failed`) |
/// | `swifttrust_peer_nearest_expiry_seconds` | gauge | none |
/// | `swifttrust_anchor_reloads_total` | counter | `result` (`reloaded`, `failed`) |
///
/// - `swifttrust_tls_decisions_total`: one per verified handshake, counted when the verdict is
///   made. `reason` is `none` for a trusted peer, else one word per `TLSTrustFailure` case (a
///   `judgeRejected` by TrustPinning's evaluators and security policies, or another judge):
///   `no_certificates`, `malformed_certificate`, `evaluation_failed`, `evaluator_rejected`,
///   `security_policy_rejected`, `judge_rejected`, `challenge_cancelled`, `protection_space_rejected`,
///   `options_not_enforced`, `certificate_transparency_not_enforced`, `verifier_misconfigured`, `identity_not_allowed`,
///   `anchors_unavailable`. `resumed` is `true` for the re-verification of a resumed TLS session.
///   No dimension ever holds what a peer or a rule chose (host names, subjects, SANs, rule text):
///   every label set is from the fixed lists above.
/// - `swifttrust_tls_decision_duration`: from the moment swift-nio-ssl (or the hook) handed over the
///   certificates to the verdict, parsing and any off-loop work (revocation fetching, a missing
///   intermediate's download) included.
/// - `swifttrust_fetches_total`: each CRL, OCSP and caIssuers request the verifier's revocation
///   fetcher made (a wrapper around `TLSTrustSettings.revocationFetching`'s fetcher, see
///   ``meteredFetcher(_:)``); `ok` when bytes came back (whether they then verified is the
///   decision's business). What the settings' cache answered was not fetched, and is not counted.
/// - `swifttrust_peer_nearest_expiry_seconds`: seconds from now to the earliest notAfter in the
///   validated chains of the last 1,024 distinct leaves trusted (negative once one expired), set on
///   each trusted decision with a validated chain. The window belongs to the metrics value: every
///   verifier given ``standard`` shares one.
/// - `swifttrust_anchor_reloads_total`: each check of a `ReloadingTrustAnchors` that swapped its set
///   (`reloaded`) or could not load a changed one (`failed`), counted by
///   ``anchorReloadObserver(logger:)``.
///
/// docs/metrics.md lists the same, with queries.
public struct TLSTrustMetrics: Sendable {
    /// `swifttrust_tls_decisions_total`.
    public static let decisionsLabel = "swifttrust_tls_decisions_total"
    /// `swifttrust_tls_decision_duration`.
    public static let decisionDurationLabel = "swifttrust_tls_decision_duration"
    /// `swifttrust_fetches_total`.
    public static let fetchesLabel = "swifttrust_fetches_total"
    /// `swifttrust_peer_nearest_expiry_seconds`.
    public static let peerNearestExpiryLabel = "swifttrust_peer_nearest_expiry_seconds"
    /// `swifttrust_anchor_reloads_total`.
    public static let anchorReloadsLabel = "swifttrust_anchor_reloads_total"

    /// Where metrics go, and the expiry window; nil records nothing.
    private let sink: Sink?

    private final class Sink: Sendable {
        /// The factory; nil reads `MetricsSystem.factory` at each record, so that metrics made after
        /// the application's bootstrap go to its backend whenever the verifier was created.
        let factory: (any MetricsFactory)?
        let expiries = RecentPeerExpiries()

        init(factory: (any MetricsFactory)?) { self.factory = factory }
    }

    /// Records through the global `MetricsSystem.factory` (a no-op until the application
    /// bootstraps one); one shared expiry window. The default of every verifier.
    public static let standard = TLSTrustMetrics(sink: Sink(factory: nil))

    /// Records nothing, and leaves the settings' revocation fetcher unwrapped.
    public static let disabled = TLSTrustMetrics(sink: nil)

    /// Records through `factory` rather than the global one (a test's `TestMetrics`, or a backend
    /// kept apart), with an expiry window of its own: share the value between verifiers to share it.
    public init(factory: any MetricsFactory) {
        sink = Sink(factory: factory)
    }

    private init(sink: Sink?) {
        self.sink = sink
    }

    /// Whether anything is recorded (false for ``disabled``).
    public var isEnabled: Bool { sink != nil }

    /// Records one verdict: the decision counter, the duration timer (when `duration` is known), and
    /// for a trusted peer with a validated chain the nearest-expiry gauge.
    package func recordDecision(_ outcome: TLSTrustOutcome, role: TLSPeerRole, resumed: Bool, duration: Duration?) {
        guard let sink else { return }
        let roleName = Self.dimension(of: role)
        var dimensions = [("outcome", ""), ("role", roleName), ("reason", ""), ("resumed", resumed ? "true" : "false")]
        switch outcome {
        case let .trusted(peer):
            dimensions[0].1 = "trusted"
            dimensions[2].1 = "none"
            if let chain = peer.validatedChain, let earliest = chain.map(\.notAfter.secondsSince1970).min() {
                let nearest = sink.expiries.record(leaf: peer.leaf, notAfter: earliest)
                gauge(Self.peerNearestExpiryLabel, [], sink).record(Double(nearest) - Date().timeIntervalSince1970)
            }
        case let .rejected(failure):
            dimensions[0].1 = "rejected"
            dimensions[2].1 = failure.metricReason
        }
        counter(Self.decisionsLabel, dimensions, sink).increment()
        if let duration {
            timer(Self.decisionDurationLabel, [("role", roleName)], sink).recordNanoseconds(Self.nanoseconds(duration))
        }
    }

    /// Counts one fetch of `kind` (`crl`, `ocsp`, `ca_issuers`) that `succeeded` or not.
    package func recordFetch(kind: String, succeeded: Bool) {
        guard let sink else { return }
        counter(Self.fetchesLabel, [("kind", kind), ("result", succeeded ? "ok" : "failed")], sink).increment()
    }

    /// Counts one anchor reload that swapped the set (`reloaded`) or failed.
    package func recordAnchorReload(succeeded: Bool) {
        guard let sink else { return }
        counter(Self.anchorReloadsLabel, [("result", succeeded ? "reloaded" : "failed")], sink).increment()
    }

    /// `server` or `client`: never the host.
    private static func dimension(of role: TLSPeerRole) -> String {
        switch role {
        case .server: return "server"
        case .client: return "client"
        }
    }

    /// `duration` in nanoseconds, saturating (a decision never takes 292 years, but no arithmetic
    /// here may trap).
    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (total, carry) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return carry ? .max : total
    }

    // Metric objects are made per record (swift-metrics backends cache their handlers by label and
    // dimensions): a verifier made before the application bootstrapped its backend still records to it.
    private func counter(_ label: String, _ dimensions: [(String, String)], _ sink: Sink) -> Counter {
        sink.factory.map { Counter(label: label, dimensions: dimensions, factory: $0) } ?? Counter(label: label, dimensions: dimensions)
    }

    private func timer(_ label: String, _ dimensions: [(String, String)], _ sink: Sink) -> CoreMetrics.Timer {
        sink.factory.map { CoreMetrics.Timer(label: label, dimensions: dimensions, factory: $0) }
            ?? CoreMetrics.Timer(label: label, dimensions: dimensions)
    }

    private func gauge(_ label: String, _ dimensions: [(String, String)], _ sink: Sink) -> Gauge {
        sink.factory.map { Gauge(label: label, dimensions: dimensions, factory: $0) } ?? Gauge(label: label, dimensions: dimensions)
    }
}
