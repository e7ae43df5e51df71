/// What a fetching evaluation asked a URL for.
public enum FetchPurpose: Hashable, Sendable, CustomStringConvertible {
    /// A revocation document of `method`: a CRL from a cRLDistributionPoints URL (RFC 5280
    /// §4.2.1.13, ``crl``), an OCSP response from an authorityInfoAccess OCSP URL (RFC 6960 §4.1,
    /// ``ocsp``).
    case revocation(RevocationMethod)
    /// An issuer certificate, from an authorityInfoAccess caIssuers URL (RFC 5280 §4.2.2.1).
    case caIssuers

    /// `CRL`, `OCSP` (the method's name) or `caIssuers`.
    public var description: String {
        switch self {
        case let .revocation(method): method.name
        case .caIssuers: "caIssuers"
        }
    }
}

/// One URL a fetching evaluation asked that gave nothing usable, and why: recorded on the
/// certificate's revocation status (``CertificateRevocationStatus/fetchFailures``) and on the
/// evaluation (``TrustEvaluation/fetchFailures``), so that an unknown status says why it is unknown.
public struct FetchFailure: Hashable, Sendable, CustomStringConvertible {
    /// The URL asked.
    public let url: String
    /// What it was asked for.
    public let purpose: FetchPurpose
    /// Why it gave nothing.
    public let reason: FetchFailureReason

    /// A failure of the fetch of `url` for `purpose`.
    public init(url: String, purpose: FetchPurpose, reason: FetchFailureReason) {
        self.url = url
        self.purpose = purpose
        self.reason = reason
    }

    /// e.g. `CRL http://10.0.0.5/ca.crl not fetched: fetch refused: 10.0.0.5 is a private-use address`.
    public var description: String { "\(purpose) \(url) not fetched: \(reason)" }
}
