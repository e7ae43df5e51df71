/// A fetcher bound to one evaluation's deadline: every request of that evaluation, whichever
/// fetcher serves it, ends for the evaluation at the same instant (or when its task is cancelled),
/// even if the fetcher itself does not stop then. Requests asked after the deadline are not started.
struct DeadlineBoundFetcher: RevocationFetcher {
    let base: any RevocationFetcher
    let deadline: ContinuousClock.Instant

    /// The same deadline over the base fetcher's local-address allowance.
    func allowingLocalAddresses() -> any RevocationFetcher {
        DeadlineBoundFetcher(base: base.allowingLocalAddresses(), deadline: deadline)
    }

    func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] {
        try await bounded { [base] in try await base.fetch(request) }
    }

    func fetchIssuerCertificates(from url: String) async throws -> [UInt8] {
        try await bounded { [base] in try await base.fetchIssuerCertificates(from: url) }
    }

    private func bounded(_ fetch: @escaping @Sendable () async throws -> [UInt8]) async throws -> [UInt8] {
        if Task.isCancelled { throw FetchFailureReason.cancelled }
        guard ContinuousClock.now < deadline else { throw FetchFailureReason.deadlineReached }
        return try await BoundedWait.run(until: deadline, timedOut: { FetchFailureReason.deadlineReached }, fetch)
    }
}
