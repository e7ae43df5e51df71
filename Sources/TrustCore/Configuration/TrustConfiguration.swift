import Foundation
import TrustX509

/// Everything an evaluation is configured with besides the presented certificates and the policies:
/// which anchors are trusted, extra intermediates, the verify date, the ``TrustOptions``, the
/// revocation information supplied and the Certificate Transparency logs and delivered SCTs. One value: ``ServerTrust`` holds it
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
    /// The fields, shared by copies until one of them changes (copy on write): a trust, its
    /// snapshot for each evaluation and the settings that made it hold one value, so that copying
    /// a configuration is one reference count, not one per field.
    private var storage: Storage

    /// The caller's anchors, indexed once when they are set (nil: none set).
    var anchorStore: CertificateStore? { storage.anchorStore }

    /// The caller's trust anchors (`SecTrustSetAnchorCertificates`); nil (the default) trusts the
    /// system trust store. Setting a list does not change ``anchorsOnly``.
    public var anchors: [Certificate]? {
        get { storage.anchorStore?.certificates }
        set { unique().anchorStore = newValue.map { CertificateStore($0) } }
    }

    /// Whether ``anchors``, when set, are the only anchors (`SecTrustSetAnchorCertificatesOnly`). Default
    /// true, as after `SecTrustSetAnchorCertificates`; false trusts the system trust store besides them.
    public var anchorsOnly: Bool {
        get { storage.anchorsOnly }
        set { unique().anchorsOnly = newValue }
    }

    /// Untrusted intermediates to build paths with, beyond those the peer presented.
    public var additionalIntermediates: [Certificate] {
        get { storage.additionalIntermediates }
        _modify { yield &unique().additionalIntermediates }
    }

    /// The instant validity is checked at (`SecTrustSetVerifyDate`); nil means the time of the evaluation.
    public var verifyDate: Date? {
        get { storage.verifyDate }
        set { unique().verifyDate = newValue }
    }

    /// Everything beyond `SecTrust`'s own surface: profile, revocation, limits, signature policy,
    /// RFC 5280 policy inputs, public suffixes, fetching of missing issuers.
    public var options: TrustOptions {
        get { storage.options }
        _modify { yield &unique().options }
    }

    /// Supplied revocation documents (each method's accessor: ``crls``, ``ocspResponses``), each
    /// marked as supplied (not fetched).
    var revocationInputs: RevocationInputs {
        get { storage.revocationInputs }
        _modify { yield &unique().revocationInputs }
    }

    /// The Certificate Transparency logs (nil, the default: CT is neither evaluated nor enforced).
    /// With logs, every trusted chain's leaf is evaluated as trustd evaluates it
    /// (``TrustEvaluation/certificateTransparency``), and CT is required where trustd requires it:
    /// the SSL server policy, a chain ending at a system root, a leaf issued from 2018-10-16 and
    /// valid now, and a fresh list or one the caller set (`CTEnforcement`).
    public var certificateTransparencyLogs: CTLogSelection? {
        get { storage.certificateTransparencyLogs }
        set { unique().certificateTransparencyLogs = newValue }
    }

    /// SCTs delivered in the TLS handshake's `signed_certificate_timestamp` extension, each one
    /// serialized SCT (`SecTrustSetSignedCertificateTimestamps`); read only with
    /// ``certificateTransparencyLogs``. `SCTList.tlsExtension(_:)` splits the extension's list.
    public var signedCertificateTimestamps: [[UInt8]] {
        get { storage.signedCertificateTimestamps }
        set { unique().signedCertificateTimestamps = newValue }
    }

    /// A configuration that trusts `anchors` (nil: the system trust store; with `anchorsOnly`
    /// false, both) under `options`.
    public init(anchors: [Certificate]? = nil, anchorsOnly: Bool = true, options: TrustOptions = TrustOptions()) {
        storage = Storage(anchorStore: anchors.map { CertificateStore($0) }, anchorsOnly: anchorsOnly, options: options)
    }

    /// Whether the caller's anchors are the only ones: anchors set and ``anchorsOnly``.
    public var trustsOnlyExplicitAnchors: Bool { storage.anchorStore != nil && storage.anchorsOnly }

    /// The storage, copied first when another configuration shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// The fields of a configuration. Changed only while uniquely referenced (``unique()``), so no
    /// configuration ever sees another's change and no access to a field overlaps a change of it:
    /// safe to share across threads, and the run-time exclusivity checks, which would cost every
    /// evaluation's reads, are not needed.
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var anchorStore: CertificateStore?
        @exclusivity(unchecked) var anchorsOnly: Bool
        @exclusivity(unchecked) var additionalIntermediates: [Certificate] = []
        @exclusivity(unchecked) var verifyDate: Date?
        @exclusivity(unchecked) var options: TrustOptions
        @exclusivity(unchecked) var revocationInputs = RevocationInputs()
        @exclusivity(unchecked) var certificateTransparencyLogs: CTLogSelection?
        @exclusivity(unchecked) var signedCertificateTimestamps: [[UInt8]] = []

        init(anchorStore: CertificateStore?, anchorsOnly: Bool, options: TrustOptions) {
            self.anchorStore = anchorStore
            self.anchorsOnly = anchorsOnly
            self.options = options
        }

        func copy() -> Storage {
            let copy = Storage(anchorStore: anchorStore, anchorsOnly: anchorsOnly, options: options)
            copy.additionalIntermediates = additionalIntermediates
            copy.verifyDate = verifyDate
            copy.revocationInputs = revocationInputs
            copy.certificateTransparencyLogs = certificateTransparencyLogs
            copy.signedCertificateTimestamps = signedCertificateTimestamps
            return copy
        }
    }
}
