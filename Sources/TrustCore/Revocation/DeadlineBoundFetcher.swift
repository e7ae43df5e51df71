/// A fetcher bound to one evaluation's deadline: every request of that evaluation, whichever
/// fetcher serves it, ends for the evaluation at the same instant (or when its task is cancelled),
/// even if the fetcher itself does not stop then. Requests asked after the deadline are not started.
struct DeadlineBoundFetcher: RevocationFetcher {
    let base: any RevocationFetcher
    let deadline: ContinuousClock.Instant

    var responseCache: RevocationResponseCache? { base.responseCache }

    func fetchCRL(from url: String) async throws -> [UInt8] {
        try await bounded { [base] in try await base.fetchCRL(from: url) }
    }

    func fetchOCSPResponse(from url: String, request: [UInt8]) async throws -> [UInt8] {
        try await bounded { [base] in try await base.fetchOCSPResponse(from: url, request: request) }
    }

    func fetchIssuerCertificates(from url: String) async throws -> [UInt8] {
        try await bounded { [base] in try await base.fetchIssuerCertificates(from: url) }
    }

    private func bounded(_ fetch: @escaping @Sendable () async throws -> [UInt8]) async throws -> [UInt8] {
        try Task.checkCancellation()
        guard ContinuousClock.now < deadline else { throw RevocationFetchDeadlineError.deadlinePassed }
        return try await BoundedWait.run(until: deadline, timedOut: { RevocationFetchDeadlineError.deadlinePassed }, fetch)
    }
}

/// Why a fetch of a fetching evaluation gave no answer although the fetcher may still be working.
enum RevocationFetchDeadlineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The evaluation's revocation fetch deadline passed.
    case deadlinePassed

    var description: String {
        switch self {
        case .deadlinePassed: return "the evaluation's revocation fetch deadline passed"
        }
    }
}
