import TrustDER
import TrustX509

/// Applies every CA's nameConstraints to the certificates below it (RFC 5280 §6.1.3 (b), (c)
/// and §4.2.1.10), with a budget on the number of comparisons so hostile inputs stay cheap.
enum NameConstraintChecker {
    /// The names of one certificate, grouped by the constraint type they are checked against.
    private struct Names {
        var dns: [String] = []
        var email: [String] = []
        var ip: [ArraySlice<UInt8>] = []
        var directory: [DistinguishedName] = []
        var uri: [String] = []
        var uncheckable: [String] = [] // otherName, x400, ediParty, registeredID
    }

    /// The name-constraint violations of `chain`. With `leafCommonNameIsDNSName` (the legacy
    /// common-name fallback is on), a SAN-less leaf's host-name-like common names are DNS names here
    /// too: a host name that could match must be constrained like one, or a constrained CA could issue
    /// `CN=victim.com` (Go rejects the combination; NSS constrains the CN as we do).
    /// Every comparison is charged to `budget` before it is made; running out throws.
    static func violations(in chain: [Certificate], budget: BudgetMeter, leafCommonNameIsDNSName: Bool = false)
        throws(BudgetExhausted) -> [TrustFailure]
    {
        var failures: [TrustFailure] = []
        for (caIndex, ca) in chain.enumerated() where caIndex > 0 {
            guard let constraints = ca.extensions.nameConstraints else { continue }
            if let problem = malformedConstraint(constraints) {
                failures.append(TrustFailure(.nameConstraintMalformed(problem), certificate: ca, index: caIndex))
                continue
            }
            for index in 0..<caIndex {
                let certificate = chain[index]
                // Self-issued intermediates are exempt; the leaf never is (§6.1.3 (b)).
                if index > 0 && certificate.isSelfIssued { continue }
                let names = collectNames(certificate, commonNameIsDNSName: index == 0 && leafCommonNameIsDNSName)
                switch try check(names, against: constraints, budget: budget) {
                case .ok: continue
                case let .violation(name, breach):
                    failures.append(
                        TrustFailure(
                            .nameConstraintViolation(name: name, breach: breach, constrainingCertificate: caIndex),
                            certificate: certificate, index: index))
                }
            }
        }
        return failures
    }

    private enum Outcome { case ok, violation(String, NameConstraintBreach) }

    /// Whether the common-name fallback could match `name`: a host name, or one behind `*.`.
    private static func isMatchableCommonName(_ name: String) -> Bool {
        let host = name.hasPrefix("*.") ? String(name.dropFirst(2)) : name
        return IDNA.isValidASCIIHostname(host, allowingUnderscores: true)
    }

    private static func collectNames(_ certificate: Certificate, commonNameIsDNSName: Bool) -> Names {
        var names = Names()
        if commonNameIsDNSName, certificate.extensions.subjectAlternativeNames == nil {
            // Every common name the host-name matcher could match (underscores included, and a whole
            // left-most wildcard label: `*.example.com` is constrained as the same SAN would be).
            names.dns.append(contentsOf: certificate.subject.commonNames.filter(isMatchableCommonName))
        }
        if !certificate.subject.isEmpty {
            names.directory.append(certificate.subject)
            // RFC 5280 §4.2.1.10: emailAddress attributes in the subject are rfc822 names too.
            names.email.append(contentsOf: certificate.subject.values(of: OID.emailAddress))
        }
        for name in certificate.extensions.subjectAlternativeNames ?? [] {
            switch name {
            case let .dnsName(value): names.dns.append(value)
            case let .rfc822Name(value): names.email.append(value)
            case let .ipAddress(bytes): names.ip.append(bytes)
            case let .directoryName(dn): names.directory.append(dn)
            case let .uniformResourceIdentifier(value): names.uri.append(value)
            case let .otherName(typeID, _): names.uncheckable.append("otherName \(typeID.dotted)")
            case .x400Address: names.uncheckable.append("x400Address")
            case .ediPartyName: names.uncheckable.append("ediPartyName")
            case .registeredID: names.uncheckable.append("registeredID")
            }
        }
        return names
    }

    /// Constraints that cannot be evaluated reliably make the CA unusable (fail closed).
    private static func malformedConstraint(_ constraints: NameConstraints) -> MalformedNameConstraint? {
        for subtree in constraints.permittedSubtrees + constraints.excludedSubtrees {
            switch subtree {
            case let .dnsName(value):
                if !isValidDNSConstraint(value) { return .dnsName(value) }
            case let .ipAddress(bytes):
                if !NameConstraintMatching.isValidIPConstraint(Array(bytes)) { return .ipAddress(Array(bytes)) }
            case let .rfc822Name(value):
                if !NameConstraintMatching.isValidEmailConstraint(value) { return .rfc822Name(value) }
            default:
                continue
            }
        }
        return nil
    }

    /// Whether `value` is a dNSName constraint we can evaluate: empty (every name), or a host name,
    /// after at most one leading period, with underscores allowed in its labels.
    ///
    /// - A leading period (`.example.com`) means proper subdomains only, as Apple's
    ///   SecDNSNameConstraintsMatch (nameconstraints.c), OpenSSL's nc_dns and Go read it
    ///   (``NameConstraintMatching/dnsName(_:isWithin:)``). RFC 5280 §4.2.1.10 does not allow it for
    ///   DNS names: the strict profiles refuse it (``ProfileRule/nameConstraintsDNSNameSyntax``).
    /// - Underscores: Apple, OpenSSL and Go all accept them in a constraint, and host names with
    ///   them match (Apple SecFrameworkIsDNSName, ``HostnameMatcher``).
    /// - Decided, stricter than Apple and OpenSSL (which compare any string as a suffix) and Go
    ///   (any printable ASCII): a wildcard or other punctuation, a label that is empty, over 63
    ///   octets or starts or ends with a hyphen, or a name over 253 octets, still makes the CA
    ///   unusable. No host name we match can hold such a label, so no real constraint is lost; and
    ///   read literally, as they read it, an excluded `*.example.com` would exclude nothing its CA
    ///   can have meant to exclude. Refusing it fails closed.
    static func isValidDNSConstraint(_ value: String) -> Bool {
        if value.isEmpty { return true }
        let host = value.utf8.first == UInt8(ascii: ".") ? value.utf8.dropFirst() : value.utf8[...]
        return !host.isEmpty && IDNA.scanASCIIHostname(host, allowingUnderscores: true) != nil
    }

    /// Checks `values` of one name type against the constraints of that type: excluded wins,
    /// then a value must fall in some permitted subtree when any exist.
    private static func checkType<T>(
        _ values: [T], permitted: [GeneralName], excluded: [GeneralName], budget: BudgetMeter,
        label: (T) -> String, isOfType: (GeneralName) -> Bool,
        within: (T, GeneralName) -> Bool, intersects: (T, GeneralName) -> Bool
    ) throws(BudgetExhausted) -> Outcome {
        let permittedOfType = permitted.filter(isOfType)
        let excludedOfType = excluded.filter(isOfType)
        for value in values {
            try budget.spend(.nameConstraintComparisons, permittedOfType.count + excludedOfType.count)
            if let hit = excludedOfType.first(where: { intersects(value, $0) }) {
                return .violation(label(value), .insideExcludedSubtree(hit))
            }
            if !permittedOfType.isEmpty && !permittedOfType.contains(where: { within(value, $0) }) {
                return .violation(label(value), .outsidePermittedSubtrees(permittedOfType))
            }
        }
        return .ok
    }

    private static func check(_ names: Names, against constraints: NameConstraints, budget: BudgetMeter) throws(BudgetExhausted) -> Outcome {
        let permitted = constraints.permittedSubtrees
        let excluded = constraints.excludedSubtrees
        var outcome = try checkType(
            names.dns, permitted: permitted, excluded: excluded, budget: budget, label: { "DNS:\($0)" },
            isOfType: { if case .dnsName = $0 { true } else { false } },
            within: { if case let .dnsName(c) = $1 { dnsWithin($0, c) } else { false } },
            intersects: { if case let .dnsName(c) = $1 { dnsIntersects($0, c) } else { false } })
        guard case .ok = outcome else { return outcome }
        let email: (String, GeneralName) -> Bool = {
            if case let .rfc822Name(c) = $1 { NameConstraintMatching.email($0, isWithin: c) } else { false }
        }
        outcome = try checkType(
            names.email, permitted: permitted, excluded: excluded, budget: budget, label: { "email:\($0)" },
            isOfType: { if case .rfc822Name = $0 { true } else { false } }, within: email, intersects: email)
        guard case .ok = outcome else { return outcome }
        let ip: (ArraySlice<UInt8>, GeneralName) -> Bool = {
            if case let .ipAddress(c) = $1 { NameConstraintMatching.ipAddress(Array($0), isWithin: Array(c)) } else { false }
        }
        outcome = try checkType(
            names.ip, permitted: permitted, excluded: excluded, budget: budget, label: { "IP:\(GeneralName.formatIP($0))" },
            isOfType: { if case .ipAddress = $0 { true } else { false } }, within: ip, intersects: ip)
        guard case .ok = outcome else { return outcome }
        let directory: (DistinguishedName, GeneralName) -> Bool = {
            if case let .directoryName(c) = $1 { $0.hasPrefix(c) } else { false }
        }
        outcome = try checkType(
            names.directory, permitted: permitted, excluded: excluded, budget: budget, label: { "DirName:\($0)" },
            isOfType: { if case .directoryName = $0 { true } else { false } }, within: directory, intersects: directory)
        guard case .ok = outcome else { return outcome }
        let uri: (String, GeneralName) -> Bool = {
            if case let .uniformResourceIdentifier(c) = $1 { NameConstraintMatching.uri($0, isWithin: c) } else { false }
        }
        outcome = try checkType(
            names.uri, permitted: permitted, excluded: excluded, budget: budget, label: { "URI:\($0)" },
            isOfType: { if case .uniformResourceIdentifier = $0 { true } else { false } }, within: uri, intersects: uri)
        guard case .ok = outcome else { return outcome }

        // Names we cannot compare: any constraint on their type makes them a violation (fail closed).
        for name in names.uncheckable {
            let constrained = (permitted + excluded).contains { constraint in
                switch constraint {
                case let .otherName(typeID, _): return name == "otherName \(typeID.dotted)"
                case .x400Address: return name == "x400Address"
                case .ediPartyName: return name == "ediPartyName"
                case .registeredID: return name == "registeredID"
                default: return false
                }
            }
            if constrained { return .violation(name, .uncheckableNameType) }
        }
        return .ok
    }

    /// Whether every name a (possibly wildcard) dNSName can match lies within constraint `c`.
    static func dnsWithin(_ name: String, _ c: String) -> Bool {
        NameConstraintMatching.dnsName(name, isWithin: c)
    }

    /// Whether some name a (possibly wildcard) dNSName can match lies within constraint `c`.
    static func dnsIntersects(_ name: String, _ c: String) -> Bool {
        if NameConstraintMatching.dnsName(name, isWithin: c) { return true }
        guard name.hasPrefix("*.") else { return false }
        let base = String(name.dropFirst(2))
        // `*.example.com` can be `foo.example.com`, which is excluded by constraint `foo.example.com`.
        guard let dot = c.firstIndex(of: "."), !c.hasPrefix(".") else { return false }
        return c[c.index(after: dot)...].lowercased() == base.lowercased()
    }
}
