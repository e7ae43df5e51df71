/// A way of learning a certificate's revocation status: each has one checker (``OCSPCheck``,
/// ``CRLCheck``) and one fetch (`RevocationFetchSession`), and ``RevocationOptions/methodsInOrder``
/// says which are used, in which order. A new source of revocation information is a case here,
/// its checker, and its fetch.
package enum RevocationMethod: Hashable, Sendable {
    /// OCSP responses (RFC 6960): supplied, stapled or fetched from the AIA OCSP URL.
    case ocsp
    /// CRLs (RFC 5280 §5): supplied or fetched from the CRL distribution points.
    case crl
}

extension RevocationOptions {
    /// Whether OCSP responses are checked: `.ocsp`, or neither method flag (neither means both, as
    /// with Apple's `kSecRevocationUseAnyAvailableMethod`).
    package var checksOCSP: Bool { contains(.ocsp) || !contains(.crl) }

    /// Whether CRLs are checked: `.crl`, or neither method flag.
    package var checksCRL: Bool { contains(.crl) || !contains(.ocsp) }

    /// The methods these options use, in the order they are consulted and fetched: OCSP first, CRLs
    /// first with `.preferCRL` (`kSecRevocationPreferCRL`).
    package var methodsInOrder: [RevocationMethod] {
        switch (checksOCSP, checksCRL) {
        case (true, true): return contains(.preferCRL) ? RevocationMethod.crlThenOCSP : RevocationMethod.ocspThenCRL
        case (true, false): return RevocationMethod.ocspOnly
        case (false, true): return RevocationMethod.crlOnly
        case (false, false): return []
        }
    }
}

extension RevocationMethod {
    // Built once: the lists are read for every certificate of every chain whose revocation is checked.
    fileprivate static let ocspThenCRL: [RevocationMethod] = [.ocsp, .crl]
    fileprivate static let crlThenOCSP: [RevocationMethod] = [.crl, .ocsp]
    fileprivate static let ocspOnly: [RevocationMethod] = [.ocsp]
    fileprivate static let crlOnly: [RevocationMethod] = [.crl]
}
