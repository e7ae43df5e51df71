import ArgumentParser
import SwiftTrust

/// The identity rule the `--allow-…` (serve) or `--expect-…` (verify) flags spell: every flag
/// given adds one rule, and the peer must match at least one of them (`IdentityRule.any`).
struct IdentityRuleFlags {
    var dnsNames: [String] = []
    var uris: [String] = []
    var uriPrefixes: [String] = []
    var spiffePrefixes: [String] = []
    var spiffeIDs: [String] = []
    var ipAddresses: [String] = []
    var emails: [String] = []
    var emailDomains: [String] = []
    var subjects: [String] = []

    /// The rule, nil when no flag was given; `prefix` (`--allow-` or `--expect-`) names the flag in errors.
    func rule(flagPrefix prefix: String) throws -> IdentityRule? {
        var rules: [IdentityRule] = []
        func add(_ flag: String, _ values: [String], _ make: (String) throws(IdentityRuleError) -> IdentityRule) throws {
            for value in values {
                do { rules.append(try make(value)) } catch { throw ValidationError("\(prefix)\(flag): \(error)") }
            }
        }
        try add("dns", dnsNames, IdentityRule.dnsName)
        try add("uri", uris) { text throws(IdentityRuleError) in try IdentityRule.uri(text) }
        try add("uri-prefix", uriPrefixes) { text throws(IdentityRuleError) in try IdentityRule.uri(prefix: text) }
        try add("spiffe", spiffePrefixes, Self.spiffePrefix)
        try add("spiffe-id", spiffeIDs) { text throws(IdentityRuleError) in try IdentityRule.spiffeID(text) }
        try add("ip", ipAddresses, IdentityRule.ipAddress)
        try add("email", emails, IdentityRule.email)
        try add("email-domain", emailDomains, IdentityRule.emailDomain)
        try add("subject", subjects, Self.subject)
        return rules.isEmpty ? nil : .any(rules)
    }

    /// The names of the flags given, for "needs --require-client-cert" messages.
    func givenFlags(prefix: String) -> [String] {
        let counts = [
            ("dns", dnsNames), ("uri", uris), ("uri-prefix", uriPrefixes), ("spiffe", spiffePrefixes),
            ("spiffe-id", spiffeIDs), ("ip", ipAddresses), ("email", emails), ("email-domain", emailDomains),
            ("subject", subjects),
        ]
        return counts.filter { !$0.1.isEmpty }.map { prefix + $0.0 }
    }

    /// `spiffe://TRUST-DOMAIN[/PATH-PREFIX]`: the trust domain and a path prefix.
    private static func spiffePrefix(_ text: String) throws(IdentityRuleError) -> IdentityRule {
        guard text.hasPrefix("spiffe://") else { throw .invalidSPIFFEID(text) }
        let rest = text.dropFirst("spiffe://".count)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        return try IdentityRule.spiffeID(trustDomain: String(rest[..<slash]), pathPrefix: String(rest[slash...]))
    }

    /// `NAME=value`: a subject attribute by short name or dotted OID.
    private static func subject(_ text: String) throws(IdentityRuleError) -> IdentityRule {
        guard let equals = text.firstIndex(of: "="), let attribute = SubjectAttribute(name: String(text[..<equals])) else {
            throw .invalidSubjectAttribute(text)
        }
        return IdentityRule.subject(attribute, equals: String(text[text.index(after: equals)...]))
    }
}

/// `trustctl serve`'s `--allow-…` flags: who a verified client must be.
struct AllowedIdentityOptions: ParsableArguments {
    @Option(name: .customLong("allow-dns"), help: "Allow clients with this dNSName SAN (exact, or *.domain for one label; repeatable).")
    var dnsNames: [String] = []
    @Option(name: .customLong("allow-uri"), help: "Allow clients with this URI SAN, exactly (repeatable).")
    var uris: [String] = []
    @Option(name: .customLong("allow-uri-prefix"), help: "Allow clients with a URI SAN that is this prefix or continues it after a '/' (repeatable).")
    var uriPrefixes: [String] = []
    @Option(name: .customLong("allow-spiffe"), help: "Allow clients whose SPIFFE ID is in spiffe://TRUST-DOMAIN[/PATH-PREFIX] (repeatable).")
    var spiffePrefixes: [String] = []
    @Option(name: .customLong("allow-spiffe-id"), help: "Allow clients with exactly this SPIFFE ID (repeatable).")
    var spiffeIDs: [String] = []
    @Option(name: .customLong("allow-ip"), help: "Allow clients with an iPAddress SAN in this address or ADDRESS/PREFIX network (repeatable).")
    var ipAddresses: [String] = []
    @Option(name: .customLong("allow-email"), help: "Allow clients with this rfc822Name SAN (repeatable).")
    var emails: [String] = []
    @Option(name: .customLong("allow-email-domain"), help: "Allow clients with an rfc822Name SAN in this domain (repeatable).")
    var emailDomains: [String] = []
    @Option(
        name: .customLong("allow-subject"),
        help: "Allow clients whose subject has NAME=value (CN, O, OU, C, serialNumber, UID or a dotted OID; repeatable).")
    var subjects: [String] = []

    var flags: IdentityRuleFlags {
        IdentityRuleFlags(
            dnsNames: dnsNames, uris: uris, uriPrefixes: uriPrefixes, spiffePrefixes: spiffePrefixes, spiffeIDs: spiffeIDs,
            ipAddresses: ipAddresses, emails: emails, emailDomains: emailDomains, subjects: subjects)
    }

    /// The rule (any of the flags), nil without any.
    func rule() throws -> IdentityRule? { try flags.rule(flagPrefix: "--allow-") }
}

/// `trustctl verify`'s `--expect-…` flags: who the verified leaf must be.
struct ExpectedIdentityOptions: ParsableArguments {
    @Option(name: .customLong("expect-dns"), help: "The leaf must have this dNSName SAN (exact, or *.domain for one label; repeatable: any).")
    var dnsNames: [String] = []
    @Option(name: .customLong("expect-uri"), help: "The leaf must have this URI SAN, exactly (repeatable: any).")
    var uris: [String] = []
    @Option(name: .customLong("expect-uri-prefix"), help: "The leaf must have a URI SAN that is this prefix or continues it after a '/'.")
    var uriPrefixes: [String] = []
    @Option(name: .customLong("expect-spiffe"), help: "The leaf's SPIFFE ID must be in spiffe://TRUST-DOMAIN[/PATH-PREFIX].")
    var spiffePrefixes: [String] = []
    @Option(name: .customLong("expect-spiffe-id"), help: "The leaf's SPIFFE ID must be exactly this.")
    var spiffeIDs: [String] = []
    @Option(name: .customLong("expect-ip"), help: "The leaf must have an iPAddress SAN in this address or ADDRESS/PREFIX network.")
    var ipAddresses: [String] = []
    @Option(name: .customLong("expect-email"), help: "The leaf must have this rfc822Name SAN.")
    var emails: [String] = []
    @Option(name: .customLong("expect-email-domain"), help: "The leaf must have an rfc822Name SAN in this domain.")
    var emailDomains: [String] = []
    @Option(name: .customLong("expect-subject"), help: "The leaf's subject must have NAME=value (CN, O, OU, C, serialNumber, UID or a dotted OID).")
    var subjects: [String] = []

    var flags: IdentityRuleFlags {
        IdentityRuleFlags(
            dnsNames: dnsNames, uris: uris, uriPrefixes: uriPrefixes, spiffePrefixes: spiffePrefixes, spiffeIDs: spiffeIDs,
            ipAddresses: ipAddresses, emails: emails, emailDomains: emailDomains, subjects: subjects)
    }

    /// The rule (any of the flags), nil without any.
    func rule() throws -> IdentityRule? { try flags.rule(flagPrefix: "--expect-") }
}
