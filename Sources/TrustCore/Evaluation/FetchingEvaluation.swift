import Foundation
import TrustCrypto
import TrustDER
import TrustX509

/// ``ServerTrust/evaluate(fetching:within:)``: an evaluation that may fetch revocation information for
/// the chain it built. One instant and one budget for every step: the first pass (a path search),
/// the verification of what was fetched, and the second look at the same chain with it (no new
/// search unless that chain now fails). One deadline for every fetch (see ``DeadlineBoundFetcher``),
/// and one ``FetchCache`` (or none) for every lookup. The trust only records the outcome.
enum FetchingEvaluation {
    /// Runs a fetching evaluation of `state`. `evaluate` runs the engine on inputs with the meter
    /// (and records the result, with the revocation information to keep, when given); `record`
    /// records an evaluation made without a new path search. Fetching ends at `deadline`: what
    /// was fetched by then is used, the rest stays unknown. `fetching`'s cache is consulted before
    /// its fetcher is asked, and keeps what the fetcher returned (downloads) or what verified
    /// (revocation answers).
    static func run(
        _ state: ServerTrustState, fetching: RevocationFetching, deadline: ContinuousClock.Instant,
        evaluate: (EvaluationSnapshot, BudgetMeter, RevocationInputs?) -> TrustEvaluation,
        record: (TrustEvaluation, RevocationInputs?) -> TrustEvaluation,
        keepIssuers: ([FetchedIssuer], [FetchFailure]) -> Void
    ) async -> TrustEvaluation {
        var inputs = EvaluationSnapshot(state)
        let config = state.configuration
        // One instant and one budget for every step: the first evaluation, the fetches' checks and
        // the evaluation with what was fetched.
        let instant = config.verifyDate ?? Date()
        inputs.configuration.verifyDate = instant
        let meter = BudgetMeter(config.options.budget)
        var first = evaluate(inputs, meter, nil)
        // One deadline for every fetch of this evaluation, issuers and revocation alike.
        let bounded = DeadlineBoundFetcher(base: fetching.fetcher, deadline: deadline)
        // Missing intermediates first (Apple builds the path, fetching parents, before it checks
        // revocation on it).
        if inputs.options.fetchesMissingIssuers, inputs.revocation?.contains(.networkAccessDisabled) != true,
            IssuerFetching.nextURL(for: first, inputs: inputs, asked: []) != nil
        {
            let (completed, issuers) = await IssuerFetching.complete(
                first, inputs: &inputs, fetcher: bounded,
                downloads: fetching.cache?.issuerDownloads, meter: meter
            ) { inputs, meter in
                evaluate(inputs, meter, nil)
            }
            first = completed
            if !issuers.isEmpty || !inputs.issuerFetchFailures.isEmpty { keepIssuers(issuers, inputs.issuerFetchFailures) }
        }
        guard let flags = inputs.revocation, !flags.contains(.networkAccessDisabled),
            isValidApartFromRevocation(first),
            let time = DERTime(timeIntervalSince1970: instant.timeIntervalSince1970)
        else { return first }
        let unknown = first.revocationStatuses.filter { if case .unknown = $0.status { true } else { false } }
        guard !unknown.isEmpty else { return first }

        let chain = first.chain
        let signatures = SignatureChecker(policy: config.options.signaturePolicy)
        let verifier = RevocationChecker(options: flags, inputs: RevocationInputs(), time: time, signatures: signatures, budget: meter)
        // The CRL and OCSP URLs of a chain validated to explicit anchors alone were signed by a CA the
        // configuration trusts, and the peer cannot choose them: they may reach local addresses when
        // the trust says so (docs/revocation.md, "Local addresses"). caIssuers URLs never may (above).
        let validatedToExplicitAnchors = config.trustsOnlyExplicitAnchors && first.endsAtAnchor
        let revocationFetcher =
            state.revocationFetchesMayReachLocalAddresses && validatedToExplicitAnchors
            ? bounded.allowingLocalAddresses() : bounded
        var session = RevocationFetchSession(fetcher: revocationFetcher, cache: fetching.cache?.responses, checker: verifier)
        // Whether what is known now (supplied, kept from earlier fetches, fetched so far) gives the
        // certificate at `index` a status: a fetched document that verifies is not yet an answer (it
        // may say tryLater or unknown, or be stale).
        func isAnswered(_ index: Int) throws(BudgetExhausted) -> Bool {
            let known = RevocationInputs(
                documents: config.revocationInputs.documents + state.fetchedRevocationInputs.documents + session.verified.documents)
            let checker = RevocationChecker(options: flags, inputs: known, time: time, signatures: signatures, budget: meter)
            guard let status = try checker.check(chain).statuses.first(where: { $0.index == index })?.status else { return true }
            if case .unknown = status { return false }
            return true
        }
        do throws(BudgetExhausted) {
            for status in unknown {
                let index = status.index
                guard index + 1 < chain.count else { continue }
                let certificate = chain[index]
                let issuer = chain[index + 1]
                for method in flags.methodsInOrder {
                    let before = session.verifiedCount
                    try await method.fetch(for: certificate, issuer: issuer, in: &session)
                    // The preferred method answered (good or revoked): do not also ask the other one.
                    if session.verifiedCount > before, try isAnswered(index) { break }
                }
            }
        } catch {
            // Verifying what was fetched used up the evaluation's budget: it ends here, rejected.
            return record(first.stopped(by: error), nil)
        }
        guard !session.asked.isEmpty else { return first }

        // Kept on the trust: what verified now, plus what earlier fetches kept for URLs of this chain
        // that were not asked again. Bounded by the chain's URLs, replaced in one step.
        let chainURLs = Set(chain.flatMap(revocationURLs))
        func stillCurrent(_ source: RevocationSource) -> Bool {
            guard let url = source.url else { return false }
            return chainURLs.contains(url) && !session.asked.contains(url)
        }
        let kept = RevocationInputs(
            documents: state.fetchedRevocationInputs.documents.filter { stillCurrent($0.source) } + session.verified.documents,
            fetchFailures: state.fetchedRevocationInputs.fetchFailures.filter { chainURLs.contains($0.url) && !session.asked.contains($0.url) }
                + session.failures)
        // This evaluation also sees what failed verification, so its statuses can say why it was not used.
        inputs.configuration.revocationInputs = RevocationInputs(
            documents: config.revocationInputs.documents + kept.documents + session.rejected.documents,
            fetchFailures: kept.fetchFailures)
        // The chain is decided again with what was fetched, without a new path search (Apple checks
        // revocation on the path it built). Only a chain that fails now is searched again: another
        // path may be valid, and the search explains the failure. Recorded only if the configuration
        // did not change while fetching (the fetched information belongs to the snapshot's chain).
        let rechecked = TrustEngine.revalidate(chain, inputs, meter: meter)
        guard rechecked.isTrusted else {
            return evaluate(inputs, meter, kept)
        }
        return record(rechecked.explored(first.attempts, signatureChecks: first.signatureChecks), kept)
    }

    /// Whether `evaluation` built a complete chain that breaks no rule except, possibly, that some
    /// certificate's revocation status is unavailable: the only chains worth fetching for. A chain
    /// that fails anything else (a forged signature, a wrong host, an expired certificate) would
    /// let anyone who can present certificates make this client request URLs of their choosing.
    static func isValidApartFromRevocation(_ evaluation: TrustEvaluation) -> Bool {
        evaluation.endsAtAnchor && !evaluation.chain.isEmpty
            && evaluation.failures.allSatisfy { if case .revocationUnavailable = $0.reason { true } else { false } }
    }

    /// The URLs `certificate` names for every revocation method (OCSP responders, CRL distribution points).
    static func revocationURLs(of certificate: Certificate) -> [String] {
        RevocationMethodRegistry.methods.flatMap { $0.urls(of: certificate) }
    }
}
