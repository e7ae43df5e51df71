import TrustX509

extension Sequence where Element == Certificate {
    /// The certificates' public keys (SubjectPublicKeyInfo), in order, without duplicates.
    public var publicKeys: [SubjectPublicKeyInfo] { map(\.publicKeyInfo).uniqued() }
}
