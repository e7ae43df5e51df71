#if AsyncHTTPClient
import AsyncHTTPClient
import NIOSSL
import TrustNIO
import TrustSession

extension HTTPClient.Configuration {
    /// Has SwiftTrust decide every connection this configuration's client makes, all of them to
    /// `host`: the two connection initializers check the server's leaf (``ConnectionTrustCheck``)
    /// for `host` with `verifier` (its `ServerTrustManager` or other judge, pins, revocation,
    /// profile: everything its `TLSTrustSettings` hold) before any request is written on the
    /// connection; a rejection fails the request with a `TLSTrustError` carrying the typed reason.
    ///
    /// The hook does not know the host a connection is for, so a client configured this way must
    /// be used for `host` only (``TrustedHTTPClient`` keeps one per host and routes requests).
    /// Besides the initializers it sets: redirects not followed (a redirect to another host must
    /// not ride on this host's decision), connection attempts not retried (a refused server is
    /// refused again; the request fails at once with the reason instead of at its deadline), and
    /// the TLS configuration's certificate verification per `boringSSL`. A user initializer already
    /// set runs after a trusted decision.
    ///
    /// What the hook cannot do: see the chain the server sent (only the leaf: intermediates come
    /// from the settings, from caIssuers URLs, or from BoringSSL's own verification kept on), run
    /// before HTTP/2's connection preface and SETTINGS frame (written when the connection starts;
    /// no request, header or body is), or learn the requests' identity: `onOutcome` hears each
    /// connection's outcome.
    ///
    /// - Throws: ``HTTPClientTrustConfigurationError/boringSSLContradictsJudge`` when `boringSSL`
    ///   is `.on` beside a judge that may accept without evaluating (BoringSSL would refuse what
    ///   SwiftTrust accepts); ``HTTPClientTrustConfigurationError/boringSSLContradictsVerifyDate``
    ///   when it is `.on` beside settings with a `verifyDate` (BoringSSL checks validity now);
    ///   ``HTTPClientTrustConfigurationError/boringSSLContradictsAnchorProvider`` and
    ///   ``HTTPClientTrustConfigurationError/boringSSLContradictsSPIFFEProfile`` likewise beside an
    ///   anchor provider (BoringSSL's roots are fixed) or the `spiffe` profile (BoringSSL checks the host name).
    public mutating func verifyConnections(
        toHost host: String, with verifier: TLSTrustVerifier,
        boringSSL: BoringSSLVerification = .automatic,
        onOutcome: (@Sendable (TLSTrustOutcome) -> Void)? = nil
    ) throws(HTTPClientTrustConfigurationError) {
        let check = ConnectionTrustCheck(host: host, verifier: verifier, onOutcome: onOutcome)
        let http1 = http1_1ConnectionDebugInitializer, http2 = http2ConnectionDebugInitializer
        http1_1ConnectionDebugInitializer = { channel in
            let checked = check.check(channel)
            guard let http1 else { return checked }
            return checked.flatMap { http1(channel) }
        }
        http2ConnectionDebugInitializer = { channel in
            let checked = check.check(channel)
            guard let http2 else { return checked }
            return checked.flatMap { http2(channel) }
        }
        redirectConfiguration = .disallow
        connectionPool.retryConnectionEstablishment = false
        var tls = tlsConfiguration ?? .makeClientConfiguration()
        try Self.apply(boringSSL, settings: verifier.settings, judgeSkipsEvaluation: verifier.judge.acceptsWithoutEvaluating, to: &tls)
        tlsConfiguration = tls
    }

    /// Sets `tls`'s certificate verification and trust roots for `mode`.
    package static func apply(
        _ mode: BoringSSLVerification, settings: TLSTrustSettings, judgeSkipsEvaluation: Bool,
        to tls: inout TLSConfiguration
    ) throws(HTTPClientTrustConfigurationError) {
        let on: Bool
        switch mode {
        // BoringSSL checks validity now (a configured verify date is another instant), against fixed
        // trust roots (an anchor provider picks them per handshake) and the host name (a SPIFFE
        // peer's identity is its SPIFFE ID): beside any of these it would contradict SwiftTrust.
        case .automatic:
            on = !judgeSkipsEvaluation && settings.verifyDate == nil && settings.anchorProvider == nil && settings.options.profile != .spiffe
        case .on:
            guard !judgeSkipsEvaluation else { throw .boringSSLContradictsJudge }
            guard settings.verifyDate == nil else { throw .boringSSLContradictsVerifyDate }
            guard settings.anchorProvider == nil else { throw .boringSSLContradictsAnchorProvider }
            guard settings.options.profile != .spiffe else { throw .boringSSLContradictsSPIFFEProfile }
            on = true
        case .off: on = false
        }
        guard on else {
            tls.certificateVerification = .none
            return
        }
        tls.certificateVerification = .fullVerification
        guard let anchors = settings.anchors else {
            tls.trustRoots = .default
            return
        }
        let handles = anchors.compactMap { try? NIOSSLCertificate(bytes: $0.derEncoded, format: .der) }
        if settings.anchorsOnly {
            tls.trustRoots = .certificates(handles)
        } else {
            tls.trustRoots = .default
            tls.additionalTrustRoots = [.certificates(handles)]
        }
    }
}
#endif // AsyncHTTPClient
