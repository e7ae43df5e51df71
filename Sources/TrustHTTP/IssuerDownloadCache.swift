import Foundation
import TrustCrypto

/// caIssuers downloads by URL, for a while: a server that leaves out its intermediate makes every
/// handshake with it fetch the same URL. The bytes are kept, not a verdict: every evaluation parses
/// them again and path building verifies the certificates as it verifies any intermediate. Keyed on
/// the URL alone, which is all the download depends on (besides time: entries expire).
///
/// A ``BoundedCache``, so under ``TrustCaches/isEnabled``: with caches off nothing is stored or
/// returned, and every caIssuers URL is downloaded again. When full, the least recently used
/// download is forgotten first.
final class IssuerDownloadCache: Sendable {
    /// What one download left: its bytes and when they stop being used.
    struct Entry: Sendable {
        let bytes: [UInt8]
        let expires: Date
    }

    /// How long a download is used.
    let lifetime: TimeInterval
    private let entries: BoundedCache<String, Entry>

    /// The most downloads kept.
    var capacity: Int { entries.capacity }

    init(capacity: Int, lifetime: TimeInterval) {
        entries = BoundedCache(capacity: capacity)
        self.lifetime = lifetime
    }

    /// The bytes downloaded from `url`, while fresh.
    func bytes(for url: String, now: Date = Date()) -> [UInt8]? {
        guard let entry = entries.value(forKey: url), entry.expires > now else { return nil }
        return entry.bytes
    }

    /// Keeps `bytes` for `url` until `now` plus ``lifetime``.
    func store(_ bytes: [UInt8], for url: String, now: Date = Date()) {
        entries.insert(Entry(bytes: bytes, expires: now.addingTimeInterval(lifetime)), forKey: url)
    }

    /// Forgets every download.
    func removeAll() { entries.removeAll() }
}
