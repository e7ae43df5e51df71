import TrustX509

extension Certificate {
    /// The certificate's URI subjectAltNames, in order: where an X.509-SVID carries its SPIFFE ID
    /// (X509-SVID §2).
    package var uriSubjectAltNames: [String] {
        var uris: [String] = []
        for case let .uniformResourceIdentifier(uri) in extensions.subjectAlternativeNames ?? [] { uris.append(uri) }
        return uris
    }
}
