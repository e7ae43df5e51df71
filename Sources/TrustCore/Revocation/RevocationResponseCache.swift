import Foundation
import TrustCrypto
import TrustDER
import TrustX509

/// CRLs and OCSP responses that were fetched and then verified against the issuer they were
/// fetched for, kept so later evaluations need not fetch them again: part of a ``FetchCache``,
/// consulted and filled by the engine (`RevocationFetchSession`), never by the fetcher.
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
package final class RevocationResponseCache: Sendable {
    /// What was fetched from where, for whom.
    struct Key: Hashable, Sendable {
        /// The kind of document.
        let method: RevocationMethod
        let url: String
        /// SHA-256 of the issuer certificate the document was verified against.
        let issuer: [UInt8]
        /// What else the document was verified against: the DER OCSP request, which names the
        /// certificate (empty for CRLs).
        let request: [UInt8]

        init(_ method: RevocationMethod, url: String, issuer: Certificate, request: [UInt8] = []) {
            self.method = method
            self.url = url
            self.issuer = issuer.sha256Fingerprint
            self.request = request
        }
    }

    /// The verified documents of one fetch (CRLs, one OCSP response, …): each method reads its own
    /// type back.
    typealias Documents = [any Sendable]

    /// Documents and the instant they stop being served.
    private struct Entry: Sendable {
        let documents: Documents
        let expires: Date
    }

    /// Most entries kept.
    package let capacity: Int
    /// Longest time, in seconds, an entry is kept, whatever the document's nextUpdate says.
    package let maximumLifetime: TimeInterval
    /// The one bounded cache type (least recently used out first; off with ``TrustCaches``). An
    /// expired entry is a miss, so it is never served, and it ages out like any other.
    private let entries: BoundedCache<Key, Entry>

    /// A cache of at most `capacity` entries, each kept at most `maximumLifetime` seconds.
    package init(capacity: Int = 256, maximumLifetime: TimeInterval = 3600) {
        self.capacity = max(0, capacity)
        self.maximumLifetime = maximumLifetime.isFinite ? max(0, maximumLifetime) : 0
        entries = BoundedCache(capacity: max(1, capacity))
    }

    /// The number of entries (expired ones included until they age out).
    package var count: Int { entries.count }

    /// Forgets every entry.
    package func removeAll() { entries.removeAll() }

    /// The documents stored under `key`, unless expired.
    func documents(for key: Key, now: Date = Date()) -> Documents? {
        guard let entry = entries.value(forKey: key), entry.expires > now else { return nil }
        return entry.documents
    }

    /// Stores verified documents until `nextUpdate`, capped at ``maximumLifetime`` from `now`.
    func store(_ documents: Documents, for key: Key, nextUpdate: DERTime?, now: Date = Date()) {
        guard capacity > 0, let nextUpdate else { return }
        let expires = min(
            Date(timeIntervalSince1970: TimeInterval(nextUpdate.secondsSince1970)),
            now.addingTimeInterval(maximumLifetime))
        guard expires > now else { return }
        entries.insert(Entry(documents: documents, expires: expires), forKey: key)
    }
}
