// NameConstraintMatching.swift
// RFC 5280 §4.2.1.10 name-constraint subtree matching primitives.

/// Primitives deciding whether a name lies within a name-constraint subtree
/// (RFC 5280 §4.2.1.10).
///
/// Each function answers "is this name inside this `base`?"; applying the
/// answer to permitted or excluded subtrees is the caller's job.
///
/// All comparisons of domain names are ASCII case-insensitive and label-wise,
/// so `"example.com"` never matches `"badexample.com"`. Domain names and
/// constraints must be ASCII with no empty labels (one trailing dot is
/// ignored on DNS names and constraints); a malformed name or constraint
/// matches nothing. Because a `false` answer would *not* exclude a name from
/// an excluded subtree, callers must reject certificates carrying malformed
/// names independently of these primitives.
package enum NameConstraintMatching {
    /// Returns whether the DNS name `name` lies within the `dNSName`
    /// constraint `constraint`.
    ///
    /// - An empty constraint matches every name.
    /// - `"example.com"` matches `"example.com"` and any name ending in
    ///   `".example.com"`.
    /// - `".example.com"` matches only names ending in `".example.com"`
    ///   (proper subdomains), not `"example.com"` itself.
    ///
    /// A wildcard name such as `"*.example.com"` is compared with `*` treated
    /// as an ordinary label: it is within `"example.com"` and
    /// `".example.com"`, but not within `"a.example.com"` even though it could
    /// stand for that host. Callers that check excluded subtrees for wildcard
    /// names may want to apply a stricter rule.
    ///
    /// - Parameters:
    ///   - name: A `dNSName` value.
    ///   - constraint: The `dNSName` base of a subtree.
    /// - Returns: `true` if `name` is within `constraint`.
    package static func dnsName(_ name: String, isWithin constraint: String) -> Bool {
        if constraint.isEmpty { return true }
        guard let nameLabels = domainLabels(name, allowTrailingDot: true) else { return false }
        return domain(nameLabels, isWithin: constraint, allowTrailingDot: true, bareConstraintMatchesSubdomains: true)
    }

    /// Returns whether the email address `address` lies within the
    /// `rfc822Name` constraint `constraint`.
    ///
    /// - An empty constraint matches every address.
    /// - `"user@host.example"` matches exactly that mailbox: the local part
    ///   is compared case-sensitively, the domain case-insensitively.
    /// - `"host.example"` matches all mailboxes on exactly that host.
    /// - `".example.com"` matches all mailboxes on proper subdomains of
    ///   `example.com`.
    ///
    /// The address must be a mailbox (``EmailAddress``) and the constraint a
    /// mailbox, a host or `.domain` (``isValidEmailConstraint(_:)``),
    /// otherwise nothing matches. Every character of a mailbox constraint is
    /// literal: `*@example.com` is the one mailbox `*@example.com`.
    ///
    /// - Parameters:
    ///   - address: An `rfc822Name` value (`local@domain`).
    ///   - constraint: The `rfc822Name` base of a subtree.
    /// - Returns: `true` if `address` is within `constraint`.
    package static func email(_ address: String, isWithin constraint: String) -> Bool {
        if constraint.isEmpty { return true }
        guard let mailbox = EmailAddress(address),
            let domainLabels = domainLabels(mailbox.domain, allowTrailingDot: false)
        else { return false }
        if constraint.utf8.contains(UInt8(ascii: "@")) {
            return EmailAddress(constraint) == mailbox
        }
        return Self.domain(
            domainLabels, isWithin: constraint, allowTrailingDot: false,
            bareConstraintMatchesSubdomains: false)
    }

    /// Returns whether `constraint` is a well-formed `rfc822Name` name
    /// constraint (RFC 5280 §4.2.1.10): empty (every address), a mailbox
    /// (``EmailAddress``), a host name, or a host name after one `.` (its
    /// proper subdomains).
    ///
    /// - Parameter constraint: The `rfc822Name` base of a subtree.
    /// - Returns: `true` if the constraint is well-formed.
    package static func isValidEmailConstraint(_ constraint: String) -> Bool {
        if constraint.isEmpty { return true }
        if constraint.utf8.contains(UInt8(ascii: "@")) { return EmailAddress(constraint) != nil }
        let host = constraint.utf8.first == UInt8(ascii: ".") ? constraint.dropFirst() : Substring(constraint)
        return host.utf8.last != UInt8(ascii: ".") && IDNA.isValidASCIIHostname(host)
    }

    /// Returns whether `address` lies within the `iPAddress` constraint
    /// `constraint`.
    ///
    /// The constraint is an address followed by a mask of the same length:
    /// 8 octets for IPv4, 32 for IPv6. The address must be of the same family
    /// (4 or 16 octets). A malformed constraint (see
    /// ``isValidIPConstraint(_:)``) matches nothing. Host bits set in the
    /// constraint's address part are ignored.
    ///
    /// - Parameters:
    ///   - address: The address octets from an `iPAddress` name.
    ///   - constraint: The `iPAddress` base of a subtree (address + mask).
    /// - Returns: `true` if `address` is within the masked network.
    package static func ipAddress(_ address: [UInt8], isWithin constraint: [UInt8]) -> Bool {
        guard isValidIPConstraint(constraint), constraint.count == address.count * 2 else { return false }
        let count = address.count
        for index in 0..<count {
            let mask = constraint[count + index]
            if address[index] & mask != constraint[index] & mask {
                return false
            }
        }
        return true
    }

    /// Returns whether `constraint` is a well-formed `iPAddress` name
    /// constraint: 8 (IPv4) or 32 (IPv6) octets whose second half is a
    /// contiguous mask (leading one bits followed only by zero bits).
    ///
    /// - Parameter constraint: The constraint octets (address + mask).
    /// - Returns: `true` if the constraint is well-formed.
    package static func isValidIPConstraint(_ constraint: [UInt8]) -> Bool {
        guard constraint.count == 8 || constraint.count == 32 else { return false }
        var seenZero = false
        for byte in constraint[(constraint.count / 2)...] {
            if seenZero {
                guard byte == 0 else { return false }
            } else if byte != 0xFF {
                // The first octet that is not 0xFF must look like 1…10…0,
                // i.e. its complement must look like 0…01…1.
                let inverted = ~byte
                guard inverted & (inverted &+ 1) == 0 else { return false }
                seenZero = true
            }
        }
        return true
    }

    /// Returns whether the host of `uri` lies within the
    /// `uniformResourceIdentifier` constraint `constraint`.
    ///
    /// Per RFC 5280 the constraint applies to the host part of the URI:
    ///
    /// - An empty constraint matches every URI.
    /// - `"host.example.com"` matches only URIs whose host is exactly
    ///   `host.example.com` (subdomains do not match).
    /// - `".example.com"` matches URIs whose host is a proper subdomain of
    ///   `example.com`.
    ///
    /// The URI must have the form `scheme://authority...`; user information
    /// and a port are removed from the authority. URIs without an authority
    /// or with an empty host, IP-literal hosts (`[::1]`, `192.0.2.1`) and
    /// hosts containing percent-encoding or non-ASCII never match a
    /// non-empty constraint.
    ///
    /// - Parameters:
    ///   - uri: A `uniformResourceIdentifier` value.
    ///   - constraint: The `uniformResourceIdentifier` base of a subtree.
    /// - Returns: `true` if the URI's host is within `constraint`.
    package static func uri(_ uri: String, isWithin constraint: String) -> Bool {
        if constraint.isEmpty { return true }
        guard let host = uriHost(uri),
            IPAddress(host) == nil,
            let hostLabels = domainLabels(host, allowTrailingDot: true)
        else { return false }
        return domain(
            hostLabels, isWithin: constraint, allowTrailingDot: true,
            bareConstraintMatchesSubdomains: false)
    }

    // MARK: - Private

    /// Upper bound on the length of any name or constraint, to bound work.
    private static let maximumLength = 1024

    /// Splits an ASCII domain into lowercase labels; `nil` if it is empty,
    /// too long, non-ASCII or has an empty label.
    private static func domainLabels(_ name: some StringProtocol, allowTrailingDot: Bool) -> [[UInt8]]? {
        var bytes: [UInt8] = []
        for byte in name.utf8 {
            guard bytes.count < maximumLength, byte < 0x80 else { return nil }
            bytes.append(IDNA.asciiLowercased(byte))
        }
        if allowTrailingDot, bytes.count > 1, bytes.last == UInt8(ascii: ".") {
            bytes.removeLast()
        }
        guard !bytes.isEmpty else { return nil }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.allSatisfy({ !$0.isEmpty }) else { return nil }
        return labels.map { Array($0) }
    }

    /// Label-wise subtree test shared by the DNS, email and URI forms.
    ///
    /// A constraint with a leading `.` matches proper subdomains only; a bare
    /// constraint matches the domain itself and, if
    /// `bareConstraintMatchesSubdomains`, its subdomains.
    private static func domain(
        _ nameLabels: [[UInt8]], isWithin constraint: String, allowTrailingDot: Bool,
        bareConstraintMatchesSubdomains: Bool
    ) -> Bool {
        let subdomainsOnly = constraint.utf8.first == UInt8(ascii: ".")
        let base = subdomainsOnly ? Substring(constraint).dropFirst() : Substring(constraint)
        guard let constraintLabels = domainLabels(base, allowTrailingDot: allowTrailingDot) else { return false }
        guard nameLabels.count >= constraintLabels.count,
            nameLabels.suffix(constraintLabels.count).elementsEqual(constraintLabels)
        else { return false }
        let isSubdomain = nameLabels.count > constraintLabels.count
        if subdomainsOnly {
            return isSubdomain
        }
        return !isSubdomain || bareConstraintMatchesSubdomains
    }

    /// Extracts the host from `scheme://[userinfo@]host[:port][/...]`.
    private static func uriHost(_ uri: String) -> String? {
        let bytes = Array(uri.utf8.prefix(maximumLength + 1))
        guard bytes.count <= maximumLength,
            let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0
        else { return nil }
        // RFC 3986 scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
        for (offset, byte) in bytes[..<colon].enumerated() {
            let isAlpha = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let isOther =
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isAlpha || (offset > 0 && isOther) else { return nil }
        }
        let afterScheme = bytes[(colon + 1)...]
        guard afterScheme.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) else { return nil }
        let authorityStart = afterScheme.startIndex + 2
        let authorityEnd =
            bytes[authorityStart...].firstIndex {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            } ?? bytes.endIndex
        var host = bytes[authorityStart..<authorityEnd]
        if let at = host.lastIndex(of: UInt8(ascii: "@")) {
            host = host[(at + 1)...]
        }
        // IP literals ("[...]") are never matched against domain constraints.
        guard host.first != UInt8(ascii: "[") else { return nil }
        if let portColon = host.lastIndex(of: UInt8(ascii: ":")) {
            let port = host[(portColon + 1)...]
            guard port.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            host = host[..<portColon]
        }
        guard !host.isEmpty, !host.contains(UInt8(ascii: "%")) else { return nil }
        return String(decoding: host, as: UTF8.self)
    }
}
