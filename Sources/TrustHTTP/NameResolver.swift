#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import TrustCore

/// Name resolution bounded in time and in number. `getaddrinfo` blocks and cannot be cancelled, so
/// each lookup runs on a thread of its own and the caller stops waiting at its deadline (or when its
/// task is cancelled). At most ``maximumOutstanding`` lookups run at once, counting those whose
/// callers already left, and at most ``perHostLimit`` for one registrable domain (``FetchHostKey``);
/// further ones wait in arrival order, no longer than their deadline. So slow names cost a bounded
/// number of threads, one peer's names (`a1.evil.example`, `a2.evil.example`, …) cannot take every
/// lookup, and a name that resolves slowly never holds a request slot (resolution happens before a
/// slot is taken). An IP literal is not looked up.
package final class NameResolver: Sendable {
    /// Resolves `host` for `port`: the addresses, or why none.
    package typealias Lookup = @Sendable (_ host: String, _ port: Int) -> Result<[ResolvedAddress], FetchFailureReason>

    /// For CRL and OCSP fetches of validated chains.
    package static let revocation = NameResolver(maximumOutstanding: 8, perHostLimit: 2)
    /// For caIssuers downloads, whose names a peer chose before anything was verified.
    package static let issuers = NameResolver(maximumOutstanding: 2, perHostLimit: 1)
    /// For pin-failure report collectors (TrustNIO's uploader).
    package static let reports = NameResolver(maximumOutstanding: 4, perHostLimit: 2)

    /// Lookups that may run at once.
    package let maximumOutstanding: Int
    /// Lookups of one registrable domain that may run at once.
    package let perHostLimit: Int
    private let lookup: Lookup
    private let slots: RequestSlots
    private let outstanding = Atomic<Int>(0)

    /// A resolver with `getaddrinfo` (or `lookup`, for tests) and its caps (each at least one; the
    /// per-host one at most the total).
    package init(maximumOutstanding: Int, perHostLimit: Int? = nil, lookup: @escaping Lookup = NameResolver.systemLookup) {
        self.maximumOutstanding = max(1, maximumOutstanding)
        self.perHostLimit = min(max(1, perHostLimit ?? maximumOutstanding), self.maximumOutstanding)
        self.lookup = lookup
        slots = RequestSlots(limit: self.maximumOutstanding, perHostLimit: self.perHostLimit)
    }

    /// Lookups running now (their callers may have stopped waiting).
    package var outstandingLookups: Int { outstanding.load(ordering: .relaxed) }

    /// The addresses of `host` (a name, or an IP literal without brackets) for `port`, in the
    /// order the system gives them. Throws `timedOut()` when `deadline` passes first (waiting for a
    /// lookup to be allowed included), and ``FetchFailureReason/cancelled`` when the calling task is
    /// cancelled first.
    package func resolve(
        _ host: String, port: Int, until deadline: ContinuousClock.Instant,
        timedOut: @escaping @Sendable () -> FetchFailureReason
    ) async throws(FetchFailureReason) -> [ResolvedAddress] {
        // A literal needs no lookup: AI_NUMERICHOST converts it without touching the network.
        if IPAddress(host) != nil { return try Self.lookUp(host, port: port, numeric: true).get() }
        let key = FetchHostKey.key(for: host)
        do {
            return try await BoundedWait.run(until: deadline, timedOut: timedOut) { [self] in
                try await slots.acquire(for: key)
                // From here the lookup's thread owns the slot, and releases it when getaddrinfo returns.
                outstanding.wrappingAdd(1, ordering: .relaxed)
                return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[ResolvedAddress], any Error>) in
                    Thread.detachNewThread { [self] in
                        let result = lookup(host, port)
                        outstanding.wrappingSubtract(1, ordering: .relaxed)
                        slots.release(for: key)
                        continuation.resume(with: result.mapError { $0 as any Error })
                    }
                }
            }
        } catch {
            throw FetchFailureReason(error)
        }
    }

    /// `getaddrinfo` for TCP.
    package static let systemLookup: Lookup = { host, port in lookUp(host, port: port, numeric: false) }

    private static func lookUp(_ host: String, port: Int, numeric: Bool) -> Result<[ResolvedAddress], FetchFailureReason> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        if numeric { hints.ai_flags = AI_NUMERICHOST }
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        defer { if list != nil { freeaddrinfo(list) } }
        var addresses: [ResolvedAddress] = []
        var node = status == 0 ? list : nil
        while let current = node {
            if let address = ResolvedAddress(current.pointee, port: port), !addresses.contains(address) { addresses.append(address) }
            node = current.pointee.ai_next
        }
        return addresses.isEmpty ? .failure(.cannotResolve(host: host)) : .success(addresses)
    }
}
