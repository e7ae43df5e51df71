import TrustTransparency

/// What Certificate Transparency decided for a trusted chain (``TrustEvaluation/certificateTransparency``):
/// trustd's rule evaluated on the SCTs of the three sources (`kSecTrustCertificateTransparency` is
/// `evaluation.isQualified`), and whether the chain had to be qualified.
public struct CertificateTransparencyReport: Hashable, Sendable, CustomStringConvertible {
    /// A source's SCT list that could not be read at all (a broken frame yields no SCTs, as in trustd).
    public struct UnreadableList: Hashable, Sendable {
        /// Where the list came from.
        public let source: SCTSource
        /// Why it could not be read.
        public let error: SCTParseError
    }

    /// The rule's result: qualified or not, the SCTs that counted, and why each other one did not.
    public let evaluation: CTEvaluation
    /// Why CT was not required of this chain; nil when it was (then an unqualified chain is not trusted).
    public let exemption: CTEnforcement.Exemption?
    /// The SCTs evaluated, in the order `evaluation`'s indices refer to: the leaf's embedded SCTs,
    /// those delivered by TLS, then those of the OCSP responses.
    public let timestamps: [PresentedTimestamp]
    /// Lists that could not be read.
    public let unreadableLists: [UnreadableList]

    /// Whether CT was required of the chain.
    public var isEnforced: Bool { exemption == nil }

    /// Whether the chain fails for CT: required and not qualified (Apple's
    /// `kSecPolicyCheckSystemTrustedCTRequired`, a recoverable failure).
    public var isRequiredButNotQualified: Bool { isEnforced && !evaluation.isQualified }

    /// The result, and whether it was enforced.
    public var description: String {
        "\(evaluation); " + (exemption.map { "not required: \($0)" } ?? "required (chain ends at a system root)")
    }
}
