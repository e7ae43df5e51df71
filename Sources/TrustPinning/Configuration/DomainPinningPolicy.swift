import Foundation
import TrustCore
import TrustX509

/// The pinning policy of one configured domain: which hosts it covers, the pins they must match,
/// until when, what a mismatch does, where it is reported, and which anchors are trusted.
public struct DomainPinningPolicy: Hashable, Sendable {
    /// The domain, normalised as a ``HostPattern``'s is (IDNA ASCII, lower case, no trailing dot;
    /// canonical text for an IP address).
    public let domain: String
    /// Which hosts below ``domain`` are covered too.
    public var subdomains: SubdomainCoverage
    /// Requirements that must all hold; empty when the domain only configures anchors.
    public var requirements: [PinRequirement]
    /// The instant after which pins are no longer enforced nor reported (chain and host validation
    /// still are); nil for never. Every format writes a day, `yyyy-MM-dd`, meaning midnight UTC
    /// at the start of that day.
    public var expirationDate: Date?
    /// Whether a mismatch rejects the connection or is only reported.
    public var enforcement: PinEnforcement
    /// Where mismatches are reported (TrustKit's `kTSKReportUris`), each URI once: a report is sent
    /// once to each, whichever format listed it twice (every format loads to the same policy).
    public var reportURIs: [URL] {
        didSet { if reportURIs.count > 1 { reportURIs = reportURIs.uniqued() } }
    }
    /// The anchors trusted for this domain; nil keeps the trust's own configuration.
    public var trustAnchors: PinningTrustAnchors?

    /// Creates a domain policy.
    ///
    /// - Throws: ``PinningConfigurationError/invalidHostPattern(_:reason:)`` for a domain that is
    ///   neither a host name nor an IP address, or that asks for subdomains of an IP address.
    public init(
        domain: String, subdomains: SubdomainCoverage = .none, requirements: [PinRequirement],
        expirationDate: Date? = nil, enforcement: PinEnforcement = .enforce, reportURIs: [URL] = [],
        trustAnchors: PinningTrustAnchors? = nil
    ) throws(PinningConfigurationError) {
        guard let normalized = HostPattern.normalize(domain) else {
            throw .invalidHostPattern(domain, reason: "not a valid host name or IP address")
        }
        if subdomains.includesSubdomains, IPAddress(normalized) != nil {
            throw .invalidHostPattern(domain, reason: "subdomains apply to DNS names, not IP addresses")
        }
        self.domain = normalized
        self.subdomains = subdomains
        self.requirements = requirements
        self.expirationDate = expirationDate
        self.enforcement = enforcement
        self.reportURIs = reportURIs.uniqued()
        self.trustAnchors = trustAnchors
    }

    /// Whether the pins are enforced (or reported) at `date`.
    public func pinsApply(at date: Date) -> Bool {
        guard let expirationDate else { return true }
        return date < expirationDate
    }

    /// Every pin of the policy, in requirement order, without duplicates.
    public var allPins: [SPKIPin] { requirements.flatMap(\.pins).uniqued() }

    /// The host patterns this policy is registered under in a ``ServerTrustManager``.
    var hostPatterns: [String] { subdomains.hostPatterns(for: domain) }
}
