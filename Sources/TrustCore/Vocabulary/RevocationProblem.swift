import TrustX509

/// Why a CRL or an OCSP response found for a certificate was not used, or, for a CRL the caller
/// supplied, why it fails closed: what a revocation status's notes and the revocation failures name.
public enum RevocationProblem: Hashable, Sendable, CustomStringConvertible {
    /// A CRL (a delta CRL when `delta`) from `issuer` that was not used as evidence: `reason`.
    case crlNotUsed(source: RevocationSource, issuer: DistinguishedName, delta: Bool, reason: CRLNotUsedReason)
    /// A fetched CRL (a delta CRL when `delta`) that fails its checks, ignored: it came over plain
    /// HTTP, so anyone on the path could have sent it.
    case fetchedCRLIgnored(source: RevocationSource, delta: Bool, problem: CRLProblem)
    /// A CRL the caller supplied (a delta CRL when `delta`) from `issuer` that covers the
    /// certificate but fails its checks: a revocation failure, whatever else proves.
    case suppliedCRLInvalid(source: RevocationSource, issuer: DistinguishedName, delta: Bool, problem: CRLProblem)
    /// The CRLs used cover only `reasons`, not all of them (RFC 5280 §6.3.3 (d), (l)).
    case reasonsNotCovered(RevocationReasons)
    /// A delta CRL of the certificate's issuer without a usable complete CRL (RFC 5280 §5.2.4).
    case deltaCRLWithoutBase
    /// The OCSP responder answered with an error status.
    case ocspResponderAnswered(source: RevocationSource, status: OCSPResponse.ResponseStatus)
    /// The OCSP response is not signed by an authorised responder: why not, for each candidate.
    case ocspResponseIgnored(source: RevocationSource, problems: [OCSPResponderProblem])
    /// The OCSP response is not fresh.
    case ocspResponseNotFresh(source: RevocationSource, problem: RevocationFreshnessProblem)
    /// The OCSP responder does not know the certificate (status unknown).
    case ocspCertificateUnknown(source: RevocationSource)

    /// e.g. `CRL (supplied) from CN=CA not used: stale: nextUpdate … has passed`.
    public var description: String {
        switch self {
        case let .crlNotUsed(source, issuer, delta, reason):
            return "\(delta ? "delta " : "")\(source) from \(issuer) not used: \(reason)"
        case let .fetchedCRLIgnored(source, delta, problem):
            return "\(delta ? "delta " : "")\(source) ignored: \(problem)"
        case let .suppliedCRLInvalid(source, issuer, delta, problem):
            return "\(delta ? "delta " : "")\(source) from \(issuer): \(problem)"
        case let .reasonsNotCovered(reasons):
            return "the CRLs found cover only the reasons \(reasons), not all of them (RFC 5280 §6.3.3 (d), (l))"
        case .deltaCRLWithoutBase:
            return "delta CRL without a usable base CRL (RFC 5280 §5.2.4)"
        case let .ocspResponderAnswered(source, status):
            return "\(source): responder answered \(status)"
        case let .ocspResponseIgnored(source, problems):
            return "\(source) ignored: \(problems.map(\.description).joined(separator: "; "))"
        case let .ocspResponseNotFresh(source, problem):
            return "\(source) not used: \(problem)"
        case let .ocspCertificateUnknown(source):
            return "\(source): responder does not know the certificate"
        }
    }
}
