import TrustCore
import TrustDER
import TrustX509

/// Who a verified peer must be: a rule on the names of the leaf of the chain that validated,
/// checked inside the decision after validation (``TLSTrustSettings/requiredIdentity``), so a peer
/// the rule refuses fails its handshake with ``TLSTrustFailure/identityNotAllowed(_:)`` and is
/// never served.
///
/// Each rule reads one kind of name, only from where that name is authenticated: the
/// subjectAltName extension (RFC 5280 §4.2.1.6) for DNS names, URIs, SPIFFE IDs, IP addresses and
/// e-mail addresses, the subject for attributes. Rules are built by throwing factories that check
/// their own syntax, and combined with ``any(_:)`` and ``all(_:)``:
///
/// ```swift
/// settings.requiredIdentity = .any([
///     try .spiffeID(trustDomain: "example.org", pathPrefix: "/ns/prod"),
///     try .dnsName("*.internal.example.com"),
/// ])
/// ```
///
/// Matching is exact and conservative: names are compared as the rule spells them (DNS names and
/// e-mail domains case-insensitively, as DNS compares them; URIs, SPIFFE paths and local parts octet
/// for octet), prefixes end at a `/`, and a wildcard in the *certificate* never widens what it
/// matches (a client holding `*.example.com` is not `api.example.com`).
public struct IdentityRule: Hashable, Sendable, CustomStringConvertible {
    /// What the rule checks.
    package enum Kind: Hashable, Sendable {
        /// A dNSName equal to `labels` (lower case, no trailing dot), or, with `wildcard`, one label
        /// followed by `labels`.
        case dnsName(labels: String, wildcard: Bool)
        /// A URI SAN equal to the text.
        case uri(String)
        /// A URI SAN that is the prefix or continues it after a `/`.
        case uriPrefix(String)
        /// The leaf's one URI SAN is a SPIFFE ID in `trustDomain` whose path is `path` or, unless
        /// `exact`, continues it after a `/` (an empty prefix: any path of the trust domain).
        case spiffeID(trustDomain: SPIFFETrustDomain, path: String, exact: Bool)
        /// An iPAddress SAN inside `network`.
        case ipNetwork(IPNetwork)
        /// An rfc822Name SAN naming the mailbox.
        case email(EmailAddress)
        /// An rfc822Name SAN whose domain is the text (lower-case A-labels).
        case emailDomain(String)
        /// A subject attribute of `type` whose string value is `value`, octet for octet.
        case subject(type: ASN1ObjectIdentifier, value: String)
        /// At least one rule matches (none: nothing matches).
        case any([IdentityRule])
        /// Every rule matches (none: everything matches).
        case all([IdentityRule])
    }

    /// What the rule checks.
    package let kind: Kind

    package init(_ kind: Kind) {
        self.kind = kind
    }

    /// The rule in the words `trustctl serve --allow-…` uses, e.g. `dns *.example.com` or
    /// `any(spiffe spiffe://example.org/ns/prod, ip 10.0.0.0/8)`.
    public var description: String {
        switch kind {
        case let .dnsName(labels, wildcard): return "dns " + (wildcard ? "*." : "") + labels
        case let .uri(uri): return "uri " + TerminalText.escaped(uri)
        case let .uriPrefix(prefix): return "uri-prefix " + TerminalText.escaped(prefix)
        case let .spiffeID(trustDomain, path, exact):
            return (exact ? "spiffe-id" : "spiffe") + " spiffe://\(trustDomain)\(path)"
        case let .ipNetwork(network): return "ip \(network)"
        case let .email(address): return "email " + TerminalText.escaped(address.description)
        case let .emailDomain(domain): return "email-domain " + domain
        case let .subject(type, value):
            return "subject \(SubjectAttribute.shortName(of: type))=" + TerminalText.escaped(value)
        case let .any(rules): return "any(" + rules.map(\.description).joined(separator: ", ") + ")"
        case let .all(rules): return "all(" + rules.map(\.description).joined(separator: ", ") + ")"
        }
    }
}

extension IdentityRule {
    /// At least one of `rules` matches; `any([])` matches no peer.
    public static func any(_ rules: [IdentityRule]) -> IdentityRule {
        rules.count == 1 ? rules[0] : IdentityRule(.any(rules))
    }

    /// Every one of `rules` matches; `all([])` matches every peer.
    public static func all(_ rules: [IdentityRule]) -> IdentityRule {
        rules.count == 1 ? rules[0] : IdentityRule(.all(rules))
    }

    /// A subjectAltName dNSName: exactly `pattern` (`api.example.com`), or, when `pattern` starts
    /// with `*.`, any one label before the rest (`*.svc.example.com` allows `a.svc.example.com`,
    /// not `svc.example.com` nor `a.b.svc.example.com`: RFC 6125 §6.4.3's one-label wildcard).
    /// Compared case-insensitively, a trailing dot ignored. A dNSName that itself holds a wildcard
    /// matches only the identical wildcard rule.
    ///
    /// - Throws: ``IdentityRuleError/invalidDNSName(_:)`` when `pattern` is not a host name in
    ///   preferred name syntax (ASCII letters, digits, hyphens; A-labels for international names),
    ///   or a wildcard leaves fewer than two labels after `*.`.
    public static func dnsName(_ pattern: String) throws(IdentityRuleError) -> IdentityRule {
        // ASCII case folding only (`lowercased()` folds U+212A KELVIN SIGN to `k`); the label
        // check below refuses everything else.
        var text = Substring(String(decoding: pattern.utf8.map { (65...90).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self))
        if text.hasSuffix(".") { text = text.dropLast() }
        let wildcard = text.hasPrefix("*.")
        if wildcard { text = text.dropFirst(2) }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.isEmpty, text.utf8.count <= 253, labels.allSatisfy(Self.isHostLabel),
            !wildcard || labels.count >= 2
        else { throw .invalidDNSName(pattern) }
        return IdentityRule(.dnsName(labels: String(text), wildcard: wildcard))
    }

    /// A subjectAltName uniformResourceIdentifier equal to `uri`, octet for octet.
    ///
    /// - Throws: ``IdentityRuleError/invalidURI(_:)`` when `uri` has no `scheme:` or holds spaces
    ///   or control characters.
    public static func uri(_ uri: String) throws(IdentityRuleError) -> IdentityRule {
        guard isURI(uri) else { throw .invalidURI(uri) }
        return IdentityRule(.uri(uri))
    }

    /// A subjectAltName uniformResourceIdentifier that is `prefix` or continues it after a `/`:
    /// `https://example.com/tenants/` and `https://example.com/tenants` both allow
    /// `https://example.com/tenants/a`, neither allows `https://example.com/tenantsx`.
    ///
    /// - Throws: ``IdentityRuleError/invalidURI(_:)`` as ``uri(_:)`` does, and for a prefix with a
    ///   query or fragment.
    public static func uri(prefix: String) throws(IdentityRuleError) -> IdentityRule {
        guard isURI(prefix), !prefix.contains("?"), !prefix.contains("#") else { throw .invalidURI(prefix) }
        return IdentityRule(.uriPrefix(prefix))
    }

    /// The leaf's SPIFFE ID (its one URI SAN, SPIFFE X.509-SVID §2) is in `trustDomain` and its
    /// path is `pathPrefix` or continues it after a `/`; the default empty prefix allows every
    /// workload of the trust domain. `spiffeID(trustDomain: "example.org", pathPrefix: "/ns/prod")`
    /// allows `spiffe://example.org/ns/prod/sa/api`, not `spiffe://example.org/ns/production`.
    ///
    /// - Throws: ``IdentityRuleError/invalidSPIFFEID(_:)`` when `trustDomain` or `pathPrefix`
    ///   break the SPIFFE ID specification's syntax (§2.1, §2.2).
    public static func spiffeID(trustDomain: String, pathPrefix: String = "") throws(IdentityRuleError) -> IdentityRule {
        var prefix = Substring(pathPrefix)
        if prefix.hasSuffix("/") { prefix = prefix.dropLast() }
        guard let domain = try? SPIFFETrustDomain(trustDomain), let id = try? SPIFFEID(trustDomain: domain, path: String(prefix)) else {
            throw .invalidSPIFFEID("spiffe://\(trustDomain)\(pathPrefix)")
        }
        return IdentityRule(.spiffeID(trustDomain: id.trustDomain, path: id.path, exact: false))
    }

    /// The leaf's SPIFFE ID is exactly `id` (`spiffe://example.org/ns/prod/sa/api`).
    ///
    /// - Throws: ``IdentityRuleError/invalidSPIFFEID(_:)`` when `id` is not a SPIFFE ID.
    public static func spiffeID(_ id: String) throws(IdentityRuleError) -> IdentityRule {
        guard let parsed = try? SPIFFEID(id) else { throw .invalidSPIFFEID(id) }
        return IdentityRule(.spiffeID(trustDomain: parsed.trustDomain, path: parsed.path, exact: true))
    }

    /// A subjectAltName iPAddress equal to `address` (`10.1.2.3`, `2001:db8::1`) or inside the
    /// network `address/prefixLength` (`10.0.0.0/8`, `2001:db8::/32`). IPv4 and IPv6 are distinct
    /// (an IPv4-mapped IPv6 address is not its IPv4 address).
    ///
    /// - Throws: ``IdentityRuleError/invalidIPAddress(_:)`` for anything else, including host bits
    ///   set below the prefix (`10.0.0.1/8`).
    public static func ipAddress(_ address: String) throws(IdentityRuleError) -> IdentityRule {
        guard let network = IPNetwork(address) else { throw .invalidIPAddress(address) }
        return IdentityRule(.ipNetwork(network))
    }

    /// A subjectAltName rfc822Name naming the mailbox `address` (the local part compared octet for
    /// octet, the domain case-insensitively: RFC 8398 §5).
    ///
    /// - Throws: ``IdentityRuleError/invalidEmailAddress(_:)`` when `address` is not a mailbox.
    public static func email(_ address: String) throws(IdentityRuleError) -> IdentityRule {
        guard let mailbox = EmailAddress(address) else { throw .invalidEmailAddress(address) }
        return IdentityRule(.email(mailbox))
    }

    /// A subjectAltName rfc822Name whose domain is exactly `domain` (not its subdomains).
    ///
    /// - Throws: ``IdentityRuleError/invalidDNSName(_:)`` when `domain` is not a host name.
    public static func emailDomain(_ domain: String) throws(IdentityRuleError) -> IdentityRule {
        guard case let .dnsName(labels, false) = try dnsName(domain).kind else { throw .invalidDNSName(domain) }
        return IdentityRule(.emailDomain(labels))
    }

    /// A subject attribute equal to `value` octet for octet (`.commonName` = `"payments"`); any of
    /// the subject's attributes of that type may match.
    public static func subject(_ attribute: SubjectAttribute, equals value: String) -> IdentityRule {
        IdentityRule(.subject(type: attribute.type, value: value))
    }

    /// Whether `label` is a preferred-name-syntax label (RFC 1034 §3.5, RFC 5890 A-labels).
    private static func isHostLabel(_ label: Substring) -> Bool {
        guard (1...63).contains(label.utf8.count), label.utf8.first != UInt8(ascii: "-"),
            label.utf8.last != UInt8(ascii: "-")
        else { return false }
        return label.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
    }

    /// Whether `text` starts with an RFC 3986 scheme and a colon and holds no space or control.
    private static func isURI(_ text: String) -> Bool {
        guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")), colon != text.utf8.startIndex,
            text.utf8.count <= 4096
        else { return false }
        let scheme = text.utf8[..<colon]
        guard let first = scheme.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20),
            scheme.allSatisfy({
                ($0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "z"))
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            })
        else { return false }
        return text.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F }
    }
}
