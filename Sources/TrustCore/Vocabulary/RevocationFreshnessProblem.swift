import TrustDER

/// Why a CRL or an OCSP response is not fresh at the verify date (RFC 5280 §6.3.3 (a),
/// RFC 6960 §3.2 (5)–(6)), the clock skew tolerated on either side.
public enum RevocationFreshnessProblem: Hashable, Sendable, CustomStringConvertible {
    /// Its thisUpdate is after the verify date.
    case thisUpdateInFuture(thisUpdate: DERTime)
    /// Its nextUpdate has passed.
    case nextUpdatePassed(nextUpdate: DERTime)
    /// It has no nextUpdate and its thisUpdate is older than such an OCSP response is trusted for.
    case tooOldWithoutNextUpdate(thisUpdate: DERTime)
    /// It has no nextUpdate, which a CRL must have to be used.
    case noNextUpdate

    /// e.g. `stale: nextUpdate 2026-01-01T00:00:00Z has passed`.
    public var description: String {
        switch self {
        case let .thisUpdateInFuture(thisUpdate): return "thisUpdate \(thisUpdate) is in the future"
        case let .nextUpdatePassed(nextUpdate): return "stale: nextUpdate \(nextUpdate) has passed"
        case let .tooOldWithoutNextUpdate(thisUpdate): return "stale: no nextUpdate and thisUpdate \(thisUpdate) is too old"
        case .noNextUpdate: return "no nextUpdate"
        }
    }
}
