import TrustX509

/// Everything the engine needs to know about one revocation method, in the method's own folder
/// (`Methods/OCSP/`, `Methods/CRL/`): the flag that selects it, how it reads what is at hand, which
/// URLs a certificate names for it and how it fetches and verifies their documents. The engine
/// (`RevocationChecker`, `FetchingEvaluation`, `TrustEvaluation.Enforced`, the flag names) only ever
/// iterates `RevocationMethodRegistry.methods`, so a new method is its folder and one line there.
protocol RevocationMethodDefinition: Sendable {
    /// The method's name (its ``RevocationSource``s, ``FetchPurpose`` and fetch requests carry it).
    static var method: RevocationMethod { get }
    /// The ``RevocationOptions`` flag that selects it. With no method flag set, every method is
    /// checked (Apple's `kSecRevocationUseAnyAvailableMethod`).
    static var flag: RevocationOptions { get }
    /// The flag's name for `trustctl --revocation` and its Swift name for error texts.
    static var flagNames: (name: String, swiftName: String) { get }
    /// A flag that makes this method consulted and fetched before the others (`.preferCRL`,
    /// `kSecRevocationPreferCRL`), with its names; nil when there is none.
    static var preference: (flag: RevocationOptions, name: String, swiftName: String)? { get }
    /// The largest document its requests ask for, in bytes: what a fetcher without a limit of its
    /// own for the method reads at most (TrustHTTP's defaults are these).
    static var maximumResponseBytes: Int { get }

    /// The URLs `certificate` names for this method's documents (every one, fetchable or not):
    /// the fetch failures recorded for them are reported on its status.
    static func urls(of certificate: Certificate) -> [String]

    /// What the documents at hand (`checker.inputs`) say about the certificate at `index` of the
    /// complete `chain` (leaf first, anchor last). Signature checks draw on `checker`'s budget.
    static func status(of chain: [Certificate], at index: Int, checker: RevocationChecker) throws(BudgetExhausted)
        -> RevocationCheckOutcome

    /// Fetches the certificate's documents for this method through `session` (asking its cache
    /// first), until one verifies against `issuer`; what verified goes in `session.verified`.
    /// Verifying what was fetched draws on the evaluation's budget: running out throws.
    static func fetch(for certificate: Certificate, issuer: Certificate, in session: inout RevocationFetchSession)
        async throws(BudgetExhausted)
}

/// What one method's documents established for one certificate.
struct RevocationCheckOutcome {
    /// Good or revoked, when a document at hand proves it; nil when none does.
    var status: RevocationStatus?
    /// Documents found but not used, and why.
    var notes: [RevocationProblem] = []
    /// Problems with documents the caller supplied that cover the certificate: they fail closed,
    /// whatever else proves (docs/revocation.md: the caller's own data is never silently ignored).
    var integrityProblems: [RevocationProblem] = []
}
