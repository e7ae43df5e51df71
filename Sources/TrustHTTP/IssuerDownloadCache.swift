import Foundation
import Synchronization

/// caIssuers downloads by URL, for a while: a server that leaves out its intermediate makes every
/// handshake with it fetch the same URL. The bytes are kept, not a verdict: every evaluation parses
/// them again and path building verifies the certificates as it verifies any intermediate. Keyed on
/// the URL alone, which is all the download depends on (besides time: entries expire).
final class IssuerDownloadCache: Sendable {
    let capacity: Int
    let lifetime: TimeInterval
    private let entries = Mutex<[String: (bytes: [UInt8], expires: Date)]>([:])

    init(capacity: Int, lifetime: TimeInterval) {
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// The bytes downloaded from `url`, while fresh.
    func bytes(for url: String, now: Date = Date()) -> [UInt8]? {
        entries.withLock { entries in
            guard let entry = entries[url] else { return nil }
            if entry.expires <= now {
                entries[url] = nil
                return nil
            }
            return entry.bytes
        }
    }

    /// Keeps `bytes` for `url`; when full, expired entries go first, then an arbitrary one.
    func store(_ bytes: [UInt8], for url: String, now: Date = Date()) {
        entries.withLock { entries in
            if entries[url] == nil, entries.count >= capacity {
                entries = entries.filter { $0.value.expires > now }
                if entries.count >= capacity, let victim = entries.keys.first { entries[victim] = nil }
            }
            entries[url] = (bytes, now.addingTimeInterval(lifetime))
        }
    }

    func removeAll() { entries.withLock { $0.removeAll() } }
}
