import Foundation
import TrustX509

/// Everything an evaluation is configured with besides the presented certificates and the policies:
/// which anchors are trusted, extra intermediates, the verify date, the ``TrustOptions`` and the
/// revocation information supplied. One value: ``ServerTrust`` holds it
/// (``ServerTrust/configuration``), TrustSession's `TLSTrustSettings` embeds it, `trustctl` builds it
/// with one function, and the engine reads it, never copying it field by field.
///
/// ```swift
/// var configuration = TrustConfiguration(anchors: privateRoots)   // only these roots
/// configuration.options.revocation = [.useAnyAvailableMethod, .requirePositiveResponse]
/// let trust = ServerTrust(certificates: presented, policies: [.ssl(server: true, hostname: host)],
///                         configuration: configuration)
/// ```
public struct TrustConfiguration: Sendable {
    /// The caller's anchors, indexed once when they are set (nil: none set).
    private(set) var anchorStore: CertificateStore?

    /// The caller's trust anchors (`SecTrustSetAnchorCertificates`); nil (the default) trusts the
    /// system trust store. Setting a list does not change ``anchorsOnly``.
    public var anchors: [Certificate]? {
        get { anchorStore?.certificates }
        set { anchorStore = newValue.map { CertificateStore($0) } }
    }

    /// Whether ``anchors``, when set, are the only anchors (`SecTrustSetAnchorCertificatesOnly`). Default
    /// true, as after `SecTrustSetAnchorCertificates`; false trusts the system trust store besides them.
    public var anchorsOnly = true

    /// Untrusted intermediates to build paths with, beyond those the peer presented.
    public var additionalIntermediates: [Certificate] = []

    /// The instant validity is checked at (`SecTrustSetVerifyDate`); nil means the time of the evaluation.
    public var verifyDate: Date?

    /// Everything beyond `SecTrust`'s own surface: profile, revocation, limits, signature policy,
    /// RFC 5280 policy inputs, public suffixes, fetching of missing issuers.
    public var options: TrustOptions

    /// Supplied CRLs and OCSP responses, each marked as supplied (not fetched).
    var revocationInputs = RevocationInputs()

    /// CRLs to check revocation with when it is checked (a `.revocation` policy or ``TrustOptions/revocation``).
    public var crls: [CertificateRevocationList] {
        get { revocationInputs.crls.map(\.0) }
        set { revocationInputs.crls = newValue.map { ($0, .suppliedCRL) } }
    }

    /// OCSP responses to check revocation with, e.g. one stapled in the TLS handshake (`SecTrustSetOCSPResponse`).
    public var ocspResponses: [OCSPResponse] {
        get { revocationInputs.ocspResponses.map(\.0) }
        set { revocationInputs.ocspResponses = newValue.map { ($0, .suppliedOCSP) } }
    }

    /// A configuration that trusts `anchors` (nil: the system trust store; with `anchorsOnly`
    /// false, both) under `options`.
    public init(anchors: [Certificate]? = nil, anchorsOnly: Bool = true, options: TrustOptions = TrustOptions()) {
        anchorStore = anchors.map { CertificateStore($0) }
        self.anchorsOnly = anchorsOnly
        self.options = options
    }

    /// Whether the caller's anchors are the only ones: anchors set and ``anchorsOnly``.
    public var trustsOnlyExplicitAnchors: Bool { anchorStore != nil && anchorsOnly }
}
