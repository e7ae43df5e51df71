import Foundation

/// SwiftTrust's JSON pinning configuration, version 1, as `Codable` types (docs/pinning-configuration.md).
///
/// ```json
/// {
///   "version": 1,
///   "domains": [{
///     "domain": "example.com",
///     "subdomains": "anyDepth",
///     "pins": { "chain": ["sha256/…", "sha256/…"] },
///     "expires": "2027-06-30",
///     "enforcement": "reportOnly",
///     "reportURIs": ["https://reports.example.com/pins"],
///     "trustAnchors": { "system": true, "certificates": ["anchors/corp-root.pem"] }
///   }]
/// }
/// ```
///
/// Decoding is strict: unknown keys are errors (a misspelt `"subdomain"` must not silently leave
/// a host unpinned), and every value is checked when the document becomes a ``PinningConfiguration``.
public struct PinningConfigurationDocument: Codable, Hashable, Sendable {
    /// The only version this library reads and writes.
    public static let currentVersion = 1

    /// The format version; must be ``currentVersion``.
    public var version: Int
    /// The domain entries.
    public var domains: [Domain]

    /// Creates a document.
    public init(version: Int = PinningConfigurationDocument.currentVersion, domains: [Domain]) {
        self.version = version
        self.domains = domains
    }

    /// One domain's entry.
    public struct Domain: Codable, Hashable, Sendable {
        /// The host name or IP address.
        public var domain: String
        /// `none` (default), `oneLevel` or `anyDepth`.
        public var subdomains: SubdomainCoverage?
        /// The pins by scope; absent when the entry only configures anchors.
        public var pins: Pins?
        /// `yyyy-MM-dd`: pins are not enforced from the start (UTC) of that day.
        public var expires: String?
        /// `enforce` (default) or `reportOnly`.
        public var enforcement: PinEnforcement?
        /// Absolute `http`/`https` URLs mismatches are reported to.
        public var reportURIs: [String]?
        /// Anchors replacing the trust's own; absent keeps them.
        public var trustAnchors: TrustAnchors?

        /// Creates an entry.
        public init(
            domain: String, subdomains: SubdomainCoverage? = nil, pins: Pins? = nil, expires: String? = nil,
            enforcement: PinEnforcement? = nil, reportURIs: [String]? = nil, trustAnchors: TrustAnchors? = nil
        ) {
            (self.domain, self.subdomains, self.pins, self.expires) = (domain, subdomains, pins, expires)
            (self.enforcement, self.reportURIs, self.trustAnchors) = (enforcement, reportURIs, trustAnchors)
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case domain, subdomains, pins, expires, enforcement, reportURIs, trustAnchors
        }

        /// Decodes strictly: unknown keys are errors.
        public init(from decoder: any Decoder) throws {
            try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            domain = try container.decode(String.self, forKey: .domain)
            subdomains = try container.decodeIfPresent(SubdomainCoverage.self, forKey: .subdomains)
            pins = try container.decodeIfPresent(Pins.self, forKey: .pins)
            expires = try container.decodeIfPresent(String.self, forKey: .expires)
            enforcement = try container.decodeIfPresent(PinEnforcement.self, forKey: .enforcement)
            reportURIs = try container.decodeIfPresent([String].self, forKey: .reportURIs)
            trustAnchors = try container.decodeIfPresent(TrustAnchors.self, forKey: .trustAnchors)
        }
    }

    /// A domain's pins by scope (``PinScope``); every non-empty list must be matched.
    public struct Pins: Codable, Hashable, Sendable {
        /// Pins the leaf must match (`sha256/BASE64`).
        public var leaf: [String]?
        /// Pins a CA certificate of the chain must match.
        public var ca: [String]?
        /// Pins any certificate of the chain must match.
        public var chain: [String]?

        /// Creates the pins.
        public init(leaf: [String]? = nil, ca: [String]? = nil, chain: [String]? = nil) {
            (self.leaf, self.ca, self.chain) = (leaf, ca, chain)
        }

        private enum CodingKeys: String, CodingKey, CaseIterable { case leaf, ca, chain }

        /// Decodes strictly: unknown keys are errors.
        public init(from decoder: any Decoder) throws {
            try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            leaf = try container.decodeIfPresent([String].self, forKey: .leaf)
            ca = try container.decodeIfPresent([String].self, forKey: .ca)
            chain = try container.decodeIfPresent([String].self, forKey: .chain)
        }
    }

    /// Anchors for a domain: the system store and certificates, each a path relative to the
    /// configuration file or an inline PEM block.
    public struct TrustAnchors: Codable, Hashable, Sendable {
        /// Whether the system trust store is trusted. Default false.
        public var system: Bool?
        /// Anchors whose chains are pin-checked.
        public var certificates: [String]?
        /// Anchors whose chains skip the pin check (Android's `overridePins`).
        public var pinOverridingCertificates: [String]?

        /// Creates the anchors.
        public init(system: Bool? = nil, certificates: [String]? = nil, pinOverridingCertificates: [String]? = nil) {
            (self.system, self.certificates, self.pinOverridingCertificates) = (system, certificates, pinOverridingCertificates)
        }

        private enum CodingKeys: String, CodingKey, CaseIterable { case system, certificates, pinOverridingCertificates }

        /// Decodes strictly: unknown keys are errors.
        public init(from decoder: any Decoder) throws {
            try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            system = try container.decodeIfPresent(Bool.self, forKey: .system)
            certificates = try container.decodeIfPresent([String].self, forKey: .certificates)
            pinOverridingCertificates = try container.decodeIfPresent([String].self, forKey: .pinOverridingCertificates)
        }
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case version, domains }

    /// Decodes strictly: unknown keys are errors; the version is checked before anything else.
    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        guard version == Self.currentVersion else {
            throw UnsupportedVersion(version: version, codingPath: container.codingPath + [CodingKeys.version])
        }
        domains = try container.decode([Domain].self, forKey: .domains)
    }

    /// A version other than ``currentVersion``, found while decoding.
    struct UnsupportedVersion: Error {
        let version: Int
        let codingPath: [any CodingKey]
    }
}

/// Refuses keys a `Codable` type does not define: `JSONDecoder` would otherwise ignore them.
enum StrictKeys {
    /// A key not among those allowed.
    struct Unexpected: Error {
        let key: String
        let codingPath: [any CodingKey]
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func check(_ decoder: any Decoder, allowed: [String]) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        if let unexpected = container.allKeys.map(\.stringValue).sorted().first(where: { !allowed.contains($0) }) {
            throw Unexpected(key: unexpected, codingPath: container.codingPath + [AnyKey(stringValue: unexpected)])
        }
    }
}
