import TrustCore
import TrustX509

extension IdentityRule {
    /// Whether `leaf` (the leaf of a validated chain) has the identity this rule asks for.
    public func matches(_ leaf: Certificate) -> Bool {
        refusal(of: leaf) == nil
    }

    /// The most specific rule `leaf` fails: the rule itself, or for ``all(_:)`` the first member
    /// that fails; nil when `leaf` matches. What ``TLSTrustFailure/identityNotAllowed(_:)`` names.
    public func refusal(of leaf: Certificate) -> IdentityRule? {
        let names = leaf.extensions.subjectAlternativeNames ?? []
        return refusal(names: names, subject: leaf.subject)
    }

    private func refusal(names: [GeneralName], subject: DistinguishedName) -> IdentityRule? {
        switch kind {
        case let .any(rules):
            return rules.contains { $0.refusal(names: names, subject: subject) == nil } ? nil : self
        case let .all(rules):
            for rule in rules {
                if let refused = rule.refusal(names: names, subject: subject) { return refused }
            }
            return nil
        default:
            return matchesName(names: names, subject: subject) ? nil : self
        }
    }

    private func matchesName(names: [GeneralName], subject: DistinguishedName) -> Bool {
        switch kind {
        case let .dnsName(labels, wildcard):
            return names.contains { name in
                guard case let .dnsName(value) = name else { return false }
                return Self.dnsName(value, matches: labels, wildcard: wildcard)
            }
        case let .uri(uri):
            return names.contains { if case let .uniformResourceIdentifier(value) = $0 { value.utf8.elementsEqual(uri.utf8) } else { false } }
        case let .uriPrefix(prefix):
            return names.contains { name in
                guard case let .uniformResourceIdentifier(value) = name else { return false }
                return Self.continues(value, prefix: prefix)
            }
        case let .spiffeID(trustDomain, path, exact):
            // An X.509-SVID has exactly one URI SAN, its SPIFFE ID (X.509-SVID §2); a leaf with
            // more is no SVID, whichever of its URIs would match.
            let uris = names.compactMap { if case let .uniformResourceIdentifier(value) = $0 { value } else { nil } }
            guard uris.count == 1, let id = try? SPIFFEID(uris[0]), id.trustDomain == trustDomain else { return false }
            return exact ? id.path.utf8.elementsEqual(path.utf8) : Self.continues(id.path, prefix: path)
        case let .ipNetwork(network):
            return names.contains { if case let .ipAddress(bytes) = $0 { network.contains(bytes) } else { false } }
        case let .email(address):
            return names.contains { if case let .rfc822Name(value) = $0 { address.matches(rfc822Name: value) } else { false } }
        case let .emailDomain(domain):
            return names.contains { name in
                guard case let .rfc822Name(value) = name, let mailbox = EmailAddress(value) else { return false }
                return mailbox.domain == domain
            }
        case let .subject(type, value):
            return subject.values(of: type).contains { $0.utf8.elementsEqual(value.utf8) }
        case .any, .all:
            return false
        }
    }

    /// Whether the dNSName `value` is `labels` (or one label and `labels` for a wildcard rule),
    /// case-insensitively and without a trailing dot. A value holding `*` matches only the identical
    /// wildcard rule: a wildcard certificate does not speak for one particular name.
    private static func dnsName(_ value: String, matches labels: String, wildcard: Bool) -> Bool {
        // ASCII case folding only: `String.lowercased()` would fold U+212A KELVIN SIGN to `k`.
        var name = value.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }[...]
        if name.last == UInt8(ascii: ".") { name = name.dropLast() }
        let rule = Array(labels.utf8)
        if name.starts(with: [UInt8(ascii: "*"), UInt8(ascii: ".")]) { return wildcard && name.dropFirst(2).elementsEqual(rule) }
        guard !name.contains(UInt8(ascii: "*")) else { return false }
        guard wildcard else { return name.elementsEqual(rule) }
        guard let dot = name.firstIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return false }
        return name[(dot + 1)...].elementsEqual(rule)
    }

    /// Whether `value` is `prefix` or continues it after a `/` (`prefix` may end with one).
    private static func continues(_ value: String, prefix: String) -> Bool {
        // Octets, not `String.hasPrefix`, which compares canonically equivalent characters.
        guard value.utf8.starts(with: prefix.utf8) else { return false }
        if value.utf8.count == prefix.utf8.count || prefix.isEmpty || prefix.utf8.last == UInt8(ascii: "/") { return true }
        return value.utf8.dropFirst(prefix.utf8.count).first == UInt8(ascii: "/")
    }
}
