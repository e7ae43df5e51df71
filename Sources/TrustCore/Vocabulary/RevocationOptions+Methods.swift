extension RevocationOptions {
    /// Whether OCSP responses are checked: `.ocsp`, or neither method flag (neither means both, as
    /// with Apple's `kSecRevocationUseAnyAvailableMethod`).
    package var checksOCSP: Bool { contains(.ocsp) || !contains(.crl) }

    /// Whether CRLs are checked: `.crl`, or neither method flag.
    package var checksCRL: Bool { contains(.crl) || !contains(.ocsp) }
}
