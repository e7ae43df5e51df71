import TrustCore
import TrustNames
import TrustX509

/// Finding the leaf in a bundle whose order cannot be trusted (files, misconfigured servers).
package enum LeafOrdering {
    /// `certificates` with the leaf first. TLS requires the leaf to come first (RFC 8446 §4.4.2),
    /// and ``ServerTrust`` takes the first certificate as the leaf, as `SecTrust` does; files and
    /// misconfigured servers get this wrong. When the first certificate issued another certificate
    /// of the list, and exactly one certificate issues none of the others (and is not self-issued),
    /// that one is moved to the front; otherwise the order is returned unchanged.
    ///
    /// Linear in the number of certificates: names are looked up in hash tables (RFC 5280 §7.1
    /// equality, as `DistinguishedName.==`), never compared pairwise, because the list may come
    /// from a peer. Lists longer than `limit` (default: what an evaluation considers,
    /// ``VerificationBudget/maximumPresentedCertificates``) are returned unchanged: an evaluation
    /// rejects them whatever their order.
    package static func leafFirst(
        _ certificates: [Certificate],
        limit: Int = VerificationBudget.default.maximumPresentedCertificates
    ) -> [Certificate] {
        guard certificates.count > 1, certificates.count <= limit, let first = certificates.first else { return certificates }
        // How many certificates name each issuer, and how many copies of each certificate the list
        // holds: "issues another" is then two lookups instead of a scan of the list.
        var issuedCount: [DistinguishedName: Int] = [:]
        var copies: [Certificate: Int] = [:]
        issuedCount.reserveCapacity(certificates.count)
        copies.reserveCapacity(certificates.count)
        for certificate in certificates {
            WorkCounter.count()
            issuedCount[certificate.issuer, default: 0] += 1
            copies[certificate, default: 0] += 1
        }
        func issuesAnother(_ candidate: Certificate) -> Bool {
            WorkCounter.count()
            let named = issuedCount[candidate.subject] ?? 0
            // A certificate's own copies name it as their issuer exactly when it is self-issued.
            let ownCopies = candidate.isSelfIssued ? copies[candidate] ?? 0 : 0
            return named > ownCopies
        }
        guard issuesAnother(first) else { return certificates }
        let leaves = certificates.indices.filter { !issuesAnother(certificates[$0]) && !certificates[$0].isSelfIssued }
        guard leaves.count == 1, let index = leaves.first else { return certificates }
        var ordered = certificates
        let leaf = ordered.remove(at: index)
        ordered.insert(leaf, at: 0)
        return ordered
    }
}
