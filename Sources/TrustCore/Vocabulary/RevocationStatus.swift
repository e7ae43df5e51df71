import TrustDER
import TrustX509

/// Where revocation information came from: a method's document the caller supplied, or one fetched
/// from a URL the certificate names. Each method's folder names its own (``suppliedCRL``,
/// ``fetchedOCSP(url:)``, …).
public struct RevocationSource: Hashable, Sendable, CustomStringConvertible {
    /// The kind of document.
    public let method: RevocationMethod
    /// The URL it was fetched from; nil when the caller supplied it.
    public let url: String?

    /// A `method` document fetched from `url`, or supplied by the caller when `url` is nil.
    package init(_ method: RevocationMethod, url: String?) {
        self.method = method
        self.url = url
    }

    /// e.g. `OCSP (supplied)` or `CRL http://crl.example.com/ca.crl`.
    public var description: String { url.map { "\(method) \($0)" } ?? "\(method) (supplied)" }

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

/// Revocation information available to one evaluation: every method's documents, each with where
/// it came from, and the fetches that gave nothing.
struct RevocationInputs: Sendable {
    /// Every document, in the order it was supplied or fetched; each method reads its own
    /// (``documents(_:of:)``).
    var documents: [RevocationEvidence] = []
    /// Fetches of revocation URLs that gave nothing, and why: reported on the statuses of the
    /// certificates naming those URLs.
    var fetchFailures: [FetchFailure] = []

    /// Whether it holds nothing at all.
    var isEmpty: Bool { documents.isEmpty && fetchFailures.isEmpty }

    /// `method`'s documents, in order, with their sources: those its sources name it and that are
    /// of its `Document` type.
    func documents<Document: Sendable>(_: Document.Type, of method: RevocationMethod) -> [(Document, RevocationSource)] {
        documents.compactMap { evidence in
            guard evidence.source.method == method else { return nil }
            return (evidence.document as? Document).map { ($0, evidence.source) }
        }
    }

    /// Replaces `method`'s documents with `replacement` (each from `source`), keeping every other
    /// method's.
    mutating func setDocuments(_ replacement: [some Sendable], of method: RevocationMethod, from source: RevocationSource) {
        documents.removeAll { $0.source.method == method }
        documents += replacement.map { RevocationEvidence(document: $0, source: source) }
    }

    /// Adds `document`, from `source`.
    mutating func append(_ document: some Sendable, from source: RevocationSource) {
        documents.append(RevocationEvidence(document: document, source: source))
    }
}

/// One revocation document (a CRL, an OCSP response, …) and where it came from.
struct RevocationEvidence: Sendable {
    /// The parsed document; its method reads it by its type.
    let document: any Sendable
    /// Supplied, or fetched from a URL.
    let source: RevocationSource
}
