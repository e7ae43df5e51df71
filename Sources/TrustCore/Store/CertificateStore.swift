import TrustDER
import TrustX509

/// A set of certificates indexed by normalised subject name and by subject key identifier,
/// so that finding the candidate issuers of a certificate is a hash lookup, not a scan.
///
/// Used for trust anchors and for pools of untrusted intermediates. A value type: copies share
/// storage until one is modified. Stores of up to ``indexThreshold`` certificates (the chain a
/// peer sends) are searched directly, which is faster than building hash indexes for them.
public struct CertificateStore: Sendable {
    /// Above this many certificates the store builds its hash indexes.
    public static let indexThreshold = 12

    private var bySubject: [[UInt8]: [Certificate]] = [:]
    private var byKeyIdentifier: [ArraySlice<UInt8>: [Certificate]] = [:]
    private var members: Set<Certificate> = []
    private var isIndexed = false
    /// The certificates in insertion order, without duplicates.
    public private(set) var certificates: [Certificate] = []

    /// An empty store.
    public init() {}

    /// A store holding `certificates` (duplicates are dropped).
    public init(_ certificates: some Sequence<Certificate>) {
        for certificate in certificates { insert(certificate) }
    }

    /// The number of distinct certificates.
    public var count: Int { certificates.count }
    /// Whether the store is empty.
    public var isEmpty: Bool { certificates.isEmpty }

    /// Adds `certificate` unless an identical one is present.
    public mutating func insert(_ certificate: Certificate) {
        if isIndexed {
            guard members.insert(certificate).inserted else { return }
        } else {
            guard !certificates.contains(certificate) else { return }
        }
        certificates.append(certificate)
        if isIndexed {
            index(certificate)
        } else if certificates.count > CertificateStore.indexThreshold {
            isIndexed = true
            for member in certificates {
                members.insert(member)
                index(member)
            }
        }
    }

    private mutating func index(_ certificate: Certificate) {
        bySubject[certificate.subject.normalizedKey, default: []].append(certificate)
        if let ski = certificate.extensions.subjectKeyID {
            byKeyIdentifier[ski, default: []].append(certificate)
        }
    }

    /// Whether an identical certificate is in the store.
    public func contains(_ certificate: Certificate) -> Bool {
        isIndexed ? members.contains(certificate) : certificates.contains(certificate)
    }

    /// Whether names are matched with `DistinguishedName.==` (a small store) rather than by
    /// normalised key through the index.
    var matchesNamesByComparison: Bool { !isIndexed }

    /// Certificates whose subject equals `name` (RFC 5280 §7.1 comparison).
    public func certificates(withSubject name: DistinguishedName) -> [Certificate] {
        isIndexed ? bySubject[name.normalizedKey] ?? [] : certificates.filter { $0.subject == name }
    }

    /// Certificates whose subjectKeyIdentifier is `keyIdentifier`.
    public func certificates(withKeyIdentifier keyIdentifier: ArraySlice<UInt8>) -> [Certificate] {
        if isIndexed { return byKeyIdentifier[keyIdentifier] ?? [] }
        return certificates.filter { $0.extensions.subjectKeyID.map { ByteComparison.equal($0, keyIdentifier) } == true }
    }

    /// Candidate issuers of `certificate`: subject matches its issuer name; those whose SKI
    /// matches its AKI keyIdentifier come first, those whose SKI contradicts it last.
    public func candidateIssuers(of certificate: Certificate) -> [Certificate] {
        let byName: [Certificate]
        if isIndexed {
            byName = certificates(withSubject: certificate.issuer)
        } else {
            // `certificates(withSubject: certificate.issuer)`, except that the certificate itself (a
            // chain's intermediate is in the pool it is looked up in) is its own candidate exactly
            // when it is self-issued, which it has decided once: no name comparison for it.
            byName = certificates.filter { member in
                member == certificate ? certificate.isSelfIssued : member.hasSubjectNamingIssuer(of: certificate)
            }
        }
        guard byName.count > 1, let aki = certificate.extensions.authorityKeyID else { return byName }
        // Each candidate ranked once, not once per comparison of the sort.
        let ranks = byName.map { candidate -> Int in
            guard let ski = candidate.extensions.subjectKeyID else { return 1 }
            return ByteComparison.equal(ski, aki) ? 0 : 2
        }
        return byName.indices.sorted { (ranks[$0], $0) < (ranks[$1], $1) }.map { byName[$0] }
    }
}
