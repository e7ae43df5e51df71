import TrustCore
import TrustX509

/// Accepts a trust when one of the pinned certificates is among the server's certificates:
/// Alamofire 5's `PinnedCertificatesTrustEvaluator`.
///
/// Steps, in Alamofire's order: with `acceptSelfSignedCertificates`, the pinned certificates
/// become the trust's only anchors (so a self-signed pinned leaf, or a private CA, validates);
/// then default validation and host validation as requested; then the pin check. The server's
/// certificates are the chain the evaluation built, trusted or not, as Alamofire reads
/// `trust.af.certificates`: a pinned root the server did not send matches when it is an anchor,
/// and a certificate the server appended outside the chain does not.
///
/// Keep default and host validation on in production: without them, a pinned intermediate or
/// root only proves that the server sent that (public) certificate.
public struct PinnedCertificatesTrustEvaluator: ServerTrustEvaluating {
    /// The pinned certificates, without duplicates.
    public let certificates: [Certificate]
    /// Whether the pinned certificates are made the only trust anchors.
    public let acceptSelfSignedCertificates: Bool
    let validation: StandardValidation

    /// Creates the evaluator.
    ///
    /// - Parameters:
    ///   - certificates: The pinned certificates (see ``CertificateBundle`` to load a directory).
    ///   - acceptSelfSignedCertificates: Make the pinned certificates the only anchors. Default false.
    ///   - performDefaultValidation: Whether to run default validation. Default true.
    ///   - validateHost: Whether to validate the host name (a full evaluation). Default true.
    public init(
        certificates: [Certificate], acceptSelfSignedCertificates: Bool = false,
        performDefaultValidation: Bool = true, validateHost: Bool = true
    ) {
        self.certificates = certificates.uniqued()
        self.acceptSelfSignedCertificates = acceptSelfSignedCertificates
        validation = StandardValidation(performDefaultValidation: performDefaultValidation, validateHost: validateHost)
    }

    /// Throws ``ServerTrustFailureReason/noCertificatesFound``, a validation failure, or
    /// ``ServerTrustFailureReason/certificatePinningFailed(host:pinned:presented:)``.
    public func evaluate(_ trust: ServerTrust, forHost host: String) throws {
        try refuseSkippingEvaluation(of: trust, forHost: host)
        guard !certificates.isEmpty else { throw ServerTrustFailureReason.noCertificatesFound }
        if acceptSelfSignedCertificates {
            trust.setAnchorCertificates(certificates)
            trust.anchorsOnly = true
        }
        let evaluation = try validation.run(on: trust, forHost: host)
        let server = trust.certificatesForPinning(evaluation)
        let pinned = Set(certificates)
        guard server.contains(where: pinned.contains) else {
            throw ServerTrustFailureReason.certificatePinningFailed(
                host: host, pinned: certificates.map(PinDescription.certificate), presented: server.map(PinDescription.certificate))
        }
    }
}
