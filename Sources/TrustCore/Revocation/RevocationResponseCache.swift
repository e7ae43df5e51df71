import Foundation
import Synchronization
import TrustDER
import TrustX509

/// CRLs and OCSP responses that were fetched and then verified against the issuer they were
/// fetched for, kept so later evaluations need not fetch them again.
///
/// Why it cannot change a verdict or be poisoned:
/// - Only documents that passed their integrity checks against the issuer are stored (a CRL signed
///   by the issuer's key; an OCSP response about the certificate signed by the issuer or by a
///   responder it authorised). Bytes that fail, or do not parse, are never stored, so one tampered
///   plain-HTTP answer cannot stand in for the real one.
/// - The key is everything the stored document was verified against: the URL, the issuer
///   certificate (its SHA-256 fingerprint) and, for OCSP, the request (which names the certificate).
/// - A stored document is re-checked in full at every use (signature under the evaluation's
///   signature policy, freshness at its verify date, scope), exactly like a freshly fetched one:
///   the cache only saves the round trip.
/// - Lifetime: until the document's own nextUpdate, but never longer than ``maximumLifetime``
///   (default one hour), so even a far-future nextUpdate (year 9999) is asked again within the hour;
///   documents without nextUpdate are not stored.
/// - Bounded: at most ``capacity`` entries; when full, expired entries go first, then the least
///   recently used one, whatever its expiry date.
public final class RevocationResponseCache: Sendable {
    /// What was fetched from where, for whom.
    struct Key: Hashable, Sendable {
        enum Kind: Hashable, Sendable { case crl, ocsp }
        let kind: Kind
        let url: String
        /// SHA-256 of the issuer certificate the document was verified against.
        let issuer: [UInt8]
        /// The DER OCSP request (empty for CRLs).
        let request: [UInt8]

        init(_ kind: Kind, url: String, issuer: Certificate, request: [UInt8] = []) {
            self.kind = kind
            self.url = url
            self.issuer = issuer.sha256Fingerprint
            self.request = request
        }
    }

    /// The verified documents of one fetch.
    enum Documents: Sendable {
        case crls([CertificateRevocationList])
        case ocsp(OCSPResponse)
    }

    private struct Entry: Sendable {
        let documents: Documents
        let expires: Date
        var lastUse: UInt64
    }

    private struct State: Sendable {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
    }

    /// Most entries kept.
    public let capacity: Int
    /// Longest time, in seconds, an entry is kept, whatever the document's nextUpdate says.
    public let maximumLifetime: TimeInterval
    private let state = Mutex(State())

    /// A cache of at most `capacity` entries, each kept at most `maximumLifetime` seconds.
    public init(capacity: Int = 256, maximumLifetime: TimeInterval = 3600) {
        self.capacity = max(0, capacity)
        self.maximumLifetime = maximumLifetime.isFinite ? max(0, maximumLifetime) : 0
    }

    /// The number of entries (expired ones included until they are looked up or evicted).
    public var count: Int { state.withLock { $0.entries.count } }

    /// Forgets every entry.
    public func removeAll() { state.withLock { $0.entries.removeAll() } }

    /// The documents stored under `key`, unless expired (then the entry is dropped).
    func documents(for key: Key, now: Date = Date()) -> Documents? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            guard entry.expires > now else {
                state.entries[key] = nil
                return nil
            }
            state.clock &+= 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.documents
        }
    }

    /// Stores verified documents until `nextUpdate`, capped at ``maximumLifetime`` from `now`.
    func store(_ documents: Documents, for key: Key, nextUpdate: DERTime?, now: Date = Date()) {
        guard capacity > 0, let nextUpdate else { return }
        let expires = min(Date(timeIntervalSince1970: TimeInterval(nextUpdate.secondsSince1970)),
                          now.addingTimeInterval(maximumLifetime))
        guard expires > now else { return }
        state.withLock { state in
            if state.entries[key] == nil, state.entries.count >= capacity {
                state.entries = state.entries.filter { $0.value.expires > now }
                if state.entries.count >= capacity, let leastRecent = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                    state.entries[leastRecent] = nil
                }
            }
            state.clock &+= 1
            state.entries[key] = Entry(documents: documents, expires: expires, lastUse: state.clock)
        }
    }
}
