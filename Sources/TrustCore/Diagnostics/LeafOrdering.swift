import TrustX509

/// Finding the leaf in a bundle whose order cannot be trusted (files, misconfigured servers).
public enum LeafOrdering {
    /// `certificates` with the leaf first. TLS requires the leaf to come first (RFC 8446 §4.4.2),
    /// and ``ServerTrust`` takes the first certificate as the leaf, as `SecTrust` does; files and
    /// misconfigured servers get this wrong. When the first certificate issued another certificate
    /// of the list, and exactly one certificate issues none of the others (and is not self-issued),
    /// that one is moved to the front; otherwise the order is returned unchanged.
    public static func leafFirst(_ certificates: [Certificate]) -> [Certificate] {
        guard let first = certificates.first, certificates.count > 1 else { return certificates }
        func issuesAnother(_ candidate: Certificate) -> Bool {
            certificates.contains { $0 != candidate && $0.issuer == candidate.subject }
        }
        guard issuesAnother(first) else { return certificates }
        let leaves = certificates.indices.filter { !issuesAnother(certificates[$0]) && !certificates[$0].isSelfIssued }
        guard leaves.count == 1, let index = leaves.first else { return certificates }
        var ordered = certificates
        let leaf = ordered.remove(at: index)
        return [leaf] + ordered
    }
}
