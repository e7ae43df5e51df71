/// Limits on all the work one trust evaluation may do, so hostile or pathological inputs
/// (cross-signing meshes, cycles, thousands of look-alike issuers, huge name-constraint or policy
/// sets, many revocation responses) end quickly with a rejection instead of running long.
///
/// One allowance per evaluation, shared by every stage (as rustls-webpki threads one `Budget`):
/// path building, name constraints, certificate-policy processing and revocation all draw from
/// the same `BudgetMeter`, so no stage's allowance resets when the builder tries another path.
public struct VerificationBudget: Hashable, Sendable {
    /// The most certificate signature verifications (rustls-webpki allows 100).
    public var signatureChecks: Int
    /// The most candidate paths (complete or abandoned) to consider.
    public var candidatePaths: Int
    /// The most certificates in one path, leaf and anchor included (a hard stop under any depth setting).
    public var maximumPathLength: Int
    /// The most name-constraint comparisons (one name against one subtree), over all paths.
    public var nameConstraintComparisons: Int
    /// The most valid-policy-graph nodes and edges created (RFC 5280 §6.1 policy processing), over all paths.
    public var policyGraphOperations: Int
    /// The most CRL and OCSP response signature verifications and candidate comparisons, over all paths.
    public var revocationChecks: Int
    /// The most certificates a peer may present (leaf included); a longer list is rejected with
    /// ``TrustFailureReason/tooManyCertificates(presented:limit:)`` before any of it is indexed.
    ///
    /// The default, 256, is above anything a real TLS peer can get through the common stacks: rustls
    /// reads handshake messages of at most 64 KiB, OpenSSL and BoringSSL certificate lists of at most
    /// 100 KiB (`SSL_MAX_CERT_LIST_DEFAULT`), Go certificate messages of at most 256 KiB
    /// (`maxHandshakeCertificateMsg`); at the 1–2 KB of a typical certificate that is 30–250
    /// certificates, while real chains have 2–5 and a server misconfigured to send a whole CA bundle
    /// sends about 150. The TLS message itself allows 16 MB (RFC 8446 §4.4.2): tens of thousands of
    /// small certificates.
    public var maximumPresentedCertificates: Int
    /// The most missing intermediates a fetching evaluation downloads from authorityInfoAccess
    /// caIssuers URLs (Apple's `kSecCAIssuerSource`): one per level of a chain whose server left out
    /// its intermediates. Running out stops the fetching (the chain then fails for its missing
    /// issuer); it is not an exhaustion of the evaluation.
    public var issuerFetches: Int

    /// Creates a budget; the defaults are generous for real chains (docs/robustness.md says what
    /// each allows).
    public init(
        signatureChecks: Int = 100, candidatePaths: Int = 200, maximumPathLength: Int = 16,
        nameConstraintComparisons: Int = 250_000, policyGraphOperations: Int = 100_000,
        revocationChecks: Int = 200, maximumPresentedCertificates: Int = 256, issuerFetches: Int = 3
    ) {
        self.issuerFetches = issuerFetches
        self.signatureChecks = signatureChecks
        self.candidatePaths = candidatePaths
        self.maximumPathLength = maximumPathLength
        self.nameConstraintComparisons = nameConstraintComparisons
        self.policyGraphOperations = policyGraphOperations
        self.revocationChecks = revocationChecks
        self.maximumPresentedCertificates = maximumPresentedCertificates
    }

    /// The default budget.
    public static let `default` = VerificationBudget()
}

/// The kind of work whose allowance ran out.
public enum BudgetResource: String, Hashable, Sendable, CustomStringConvertible {
    /// Certificate signature verifications.
    case signatureChecks
    /// Candidate paths.
    case candidatePaths
    /// Name-constraint comparisons.
    case nameConstraintComparisons
    /// Certificate-policy graph operations.
    case policyGraphOperations
    /// Revocation checks (CRL / OCSP signatures and candidates).
    case revocationChecks

    /// `"signature checks"`, `"name-constraint comparisons"`, ….
    public var description: String {
        switch self {
        case .signatureChecks: return "signature checks"
        case .candidatePaths: return "candidate paths"
        case .nameConstraintComparisons: return "name-constraint comparisons"
        case .policyGraphOperations: return "policy graph operations"
        case .revocationChecks: return "revocation checks"
        }
    }
}
