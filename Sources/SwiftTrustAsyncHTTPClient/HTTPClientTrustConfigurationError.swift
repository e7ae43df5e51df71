#if AsyncHTTPClient
/// A SwiftTrust configuration of AsyncHTTPClient that cannot be honoured, refused when it is made.
public enum HTTPClientTrustConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// BoringSSL's verification was asked for (`BoringSSLVerification.on`) beside a judge that may
    /// accept a chain without evaluating it: BoringSSL would refuse what the judge accepts.
    case boringSSLContradictsJudge
    /// BoringSSL's verification was asked for beside settings with a `verifyDate`: BoringSSL checks
    /// validity at the current time, and would judge another instant than the one configured.
    case boringSSLContradictsVerifyDate
    /// BoringSSL's verification was asked for beside a `TLSTrustSettings.anchorProvider`: BoringSSL's
    /// trust roots are fixed when the client is made, the provider's are read per handshake.
    case boringSSLContradictsAnchorProvider
    /// BoringSSL's verification was asked for under the `spiffe` profile: BoringSSL checks the host
    /// name, while an X.509-SVID's identity is its SPIFFE ID (`TLSTrustSettings.requiredIdentity`).
    case boringSSLContradictsSPIFFEProfile
    /// A request whose URL is not `https://` with a host: nothing of it is sent (no TLS, nothing to verify).
    case notHTTPS(url: String)
    /// More hosts than ``TrustedHTTPClient/maximumHosts`` were asked for (one client each).
    case tooManyHosts(limit: Int)

    /// One sentence.
    public var description: String {
        switch self {
        case .boringSSLContradictsJudge:
            return "BoringSSL verification was turned on beside a judge that may accept without evaluating the chain; use .automatic or .off"
        case .boringSSLContradictsVerifyDate:
            return "BoringSSL verification was turned on beside a configured verify date, which BoringSSL cannot use; use .automatic or .off"
        case .boringSSLContradictsAnchorProvider:
            return
                "BoringSSL verification was turned on beside an anchor provider, whose anchors BoringSSL cannot read per handshake; use .automatic or .off"
        case .boringSSLContradictsSPIFFEProfile:
            return
                "BoringSSL verification was turned on under the spiffe profile, where the identity is the SPIFFE ID, not the host name BoringSSL checks; use .automatic or .off"
        case let .notHTTPS(url):
            return "refused to send a request to '\(url)': SwiftTrust verifies https:// URLs with a host only"
        case let .tooManyHosts(limit):
            return "more than \(limit) hosts were asked for through one TrustedHTTPClient"
        }
    }
}
#endif // AsyncHTTPClient
