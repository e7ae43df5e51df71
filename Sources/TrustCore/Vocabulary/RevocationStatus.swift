import TrustDER
import TrustX509

/// Where revocation information came from.
public enum RevocationSource: Hashable, Sendable, CustomStringConvertible {
    /// A CRL supplied by the caller (``ServerTrust/setCRLs(_:)``).
    case suppliedCRL
    /// A CRL fetched from a certificate's distribution point.
    case fetchedCRL(url: String)
    /// An OCSP response supplied by the caller (e.g. stapled: ``ServerTrust/setOCSPResponses(_:)``).
    case suppliedOCSP
    /// An OCSP response fetched from a certificate's AIA responder.
    case fetchedOCSP(url: String)

    /// e.g. `OCSP (stapled/supplied)` or `CRL http://crl.example.com/ca.crl`.
    public var description: String {
        switch self {
        case .suppliedCRL: return "CRL (supplied)"
        case let .fetchedCRL(url): return "CRL \(url)"
        case .suppliedOCSP: return "OCSP (supplied)"
        case let .fetchedOCSP(url): return "OCSP \(url)"
        }
    }

    /// The URL it was fetched from; nil when the caller supplied it.
    var url: String? {
        switch self {
        case let .fetchedCRL(url), let .fetchedOCSP(url): return url
        case .suppliedCRL, .suppliedOCSP: return nil
        }
    }

    /// Whether the information came over the network (as opposed to from the caller).
    var isFetched: Bool { url != nil }
}

/// What revocation checking established for one certificate.
public enum RevocationStatus: Hashable, Sendable, CustomStringConvertible {
    /// Fresh, authenticated proof that the certificate is not revoked.
    case good(source: RevocationSource)
    /// The certificate is revoked.
    case revoked(source: RevocationSource, time: DERTime, reason: CRLReason?)
    /// No usable information; `notes` says what was found and why it was not used.
    case unknown(notes: [String])
    /// Not checked: trust anchors need no revocation status.
    case notChecked

    /// One line for people.
    public var description: String {
        switch self {
        case let .good(source): return "good (\(source))"
        case let .revoked(source, time, reason):
            return "revoked \(time)\(reason.map { " (\($0))" } ?? "") per \(source)"
        case let .unknown(notes): return notes.isEmpty ? "unknown (no information)" : "unknown: " + notes.joined(separator: "; ")
        case .notChecked: return "not checked (trust anchor)"
        }
    }
}

/// The revocation status of one certificate of the built chain.
public struct CertificateRevocationStatus: Hashable, Sendable {
    /// Its index in the chain (0 = leaf).
    public let index: Int
    /// Its subject.
    public let subject: String
    /// What was found.
    public let status: RevocationStatus
    /// Every CRL or OCSP response found for the certificate but not used, and why (e.g. a fetched
    /// CRL whose signature does not verify, a stale response), whatever the status.
    public let notes: [String]
    /// The fetches of the certificate's CRL and OCSP URLs that gave nothing, and why (refused as a
    /// local destination, the deadline reached, an HTTP error, …), whatever the status: an
    /// `unknown` status lists them among its notes too.
    public let fetchFailures: [FetchFailure]

    init(index: Int, subject: String, status: RevocationStatus, notes: [String] = [], fetchFailures: [FetchFailure] = []) {
        self.index = index
        self.subject = subject
        self.status = status
        self.notes = notes
        self.fetchFailures = fetchFailures
    }
}

/// Revocation information available to one evaluation.
struct RevocationInputs: Sendable {
    var crls: [(CertificateRevocationList, RevocationSource)] = []
    var ocspResponses: [(OCSPResponse, RevocationSource)] = []
    /// Fetches of CRL and OCSP URLs that gave nothing, and why: reported on the statuses of the
    /// certificates naming those URLs.
    var fetchFailures: [FetchFailure] = []
}
