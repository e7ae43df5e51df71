import Foundation
import TrustCrypto

/// caIssuers downloads by URL, for a while: a server that leaves out its intermediate makes every
/// handshake with it fetch the same URL. The bytes are kept, not a verdict: every evaluation parses
/// them again and path building verifies the certificates as it verifies any intermediate. Keyed on
/// the URL alone, which is all the download depends on (besides time: entries expire).
///
/// Part of a ``FetchCache``: the engine (`IssuerFetching`) consults it before it asks the fetcher,
/// and stores what the fetcher returned; the fetcher itself keeps nothing.
///
/// A ``BoundedCache``, so under ``TrustCaches/isEnabled``: with caches off nothing is stored or
/// returned, and every caIssuers URL is downloaded again. When full, the least recently used
/// download is forgotten first.
package final class IssuerDownloadCache: Sendable {
    /// What one download left: its bytes and when they stop being used.
    struct Entry: Sendable {
        let bytes: [UInt8]
        let expires: Date
    }

    /// How long a download is used.
    package let lifetime: TimeInterval
    private let entries: BoundedCache<String, Entry>

    /// The most downloads kept.
    package var capacity: Int { entries.capacity }

    /// A cache of at most `capacity` downloads, each used for `lifetime` seconds.
    package init(capacity: Int, lifetime: TimeInterval) {
        entries = BoundedCache(capacity: capacity)
        self.lifetime = lifetime.isFinite ? max(0, lifetime) : 0
    }

    /// The bytes downloaded from `url`, while fresh.
    package func bytes(for url: String, now: Date = Date()) -> [UInt8]? {
        guard let entry = entries.value(forKey: url), entry.expires > now else { return nil }
        return entry.bytes
    }

    /// Keeps `bytes` for `url` until `now` plus ``lifetime``.
    package func store(_ bytes: [UInt8], for url: String, now: Date = Date()) {
        entries.insert(Entry(bytes: bytes, expires: now.addingTimeInterval(lifetime)), forKey: url)
    }

    /// The number of downloads kept (expired ones included until they age out).
    package var count: Int { entries.count }

    /// Forgets every download.
    package func removeAll() { entries.removeAll() }
}
