// HostnameMatcher.swift
// RFC 6125 / CA/Browser Forum matching of a server identity against a certificate.

import TrustDER
import TrustX509

/// Matches a ``ServerIdentity`` against the names in a certificate, following
/// RFC 6125 §6 and the CA/Browser Forum Baseline Requirements.
///
/// Rules:
///
/// - DNS identities are compared only with `dNSName` entries and IP
///   identities only with `iPAddress` entries; an IP address written in a
///   `dNSName` never matches.
/// - Comparison is ASCII case-insensitive. One trailing dot on the
///   reference is ignored (Apple `SecDNSMatch`); a `dNSName` (or common name)
///   ending in a dot never matches, as Apple's `SecFrameworkIsDNSName` drops
///   such SAN names. Internationalised names are compared in A-label form, so
///   a reference created from `"bücher.example"` matches a `dNSName` of
///   `"xn--bcher-kva.example"`.
/// - Underscores are allowed anywhere in a label of the reference and of the
///   `dNSName` (`_srv.internal.example`, `my_host.example.com`), as Apple's
///   `SecFrameworkIsDNSName` allows them in SAN names and `SecDNSMatch` does
///   not validate the reference. (The strict profiles still refuse such SAN
///   names: ``ProfileRule/subjectAltNameSyntax``.)
/// - The wildcard `*` is only recognised as the complete left-most label
///   (`*.example.com`) and matches exactly one non-empty label. Partial-label
///   wildcards (`f*.example.com`, `*oo.example.com`), wildcards in any other
///   label and wildcards followed by fewer than two labels (`*`, `*.com`) never
///   match.
/// - A wildcard whose remainder is a public suffix (`*.co.uk`, `*.kobe.jp`'s
///   `*.c.kobe.jp`) never matches: CA/Browser Forum Baseline Requirements
///   §3.2.2.6 forbid issuing them, and a client must not let one certificate
///   speak for every domain under a registry. Which suffixes are public is the
///   ``PublicSuffixList`` passed in (default ``PublicSuffixList/snapshot``,
///   ICANN section).
/// - A wildcard **may** match an A-label: `*.example.com` matches
///   `xn--bcher-kva.example.com`. RFC 6125 §6.4.3 only discourages matching
///   wildcards *within* A-labels, which the ban on partial-label wildcards
///   already rules out, and the Baseline Requirements let the wildcard stand
///   for any label.
/// - Patterns and references that are not valid ASCII host names (non-ASCII
///   characters, spaces, other punctuation, empty labels, labels over 63
///   octets, names over 253 octets, or a numeric right-most label) never match.
package enum HostnameMatcher {
    /// Returns whether `identity` matches one of the certificate's subject
    /// alternative names.
    ///
    /// - Parameters:
    ///   - identity: The reference identity.
    ///   - dnsNames: The certificate's `dNSName` entries, as encoded.
    ///   - ipAddresses: The certificate's `iPAddress` entries.
    ///   - publicSuffixList: The suffixes a wildcard may not span.
    /// - Returns: `true` if a DNS identity matches one of `dnsNames` (see
    ///   ``matchesDNSName(_:pattern:publicSuffixList:)``) or an IP identity equals one of
    ///   `ipAddresses` octet for octet; `false` for an email identity (see
    ///   ``EmailAddress/matches(rfc822Name:)``).
    package static func matches(
        _ identity: ServerIdentity, dnsNames: [String], ipAddresses: [IPAddress],
        publicSuffixList: PublicSuffixList = .snapshot
    ) -> Bool {
        switch identity {
        case .dns(let reference):
            // Fast path: a SAN spelled exactly like the (normalised, lower-case) reference. Both sides
            // are valid host names here, so byte equality is a match under every rule below (a SAN
            // ending in a dot never matches: not when the reference, built by hand, ends in one too).
            if !endsInDot(reference), dnsNames.contains(where: { $0.utf8.elementsEqual(reference.utf8) }),
                hostLabels(reference, isPattern: false) != nil
            {
                return true
            }
            guard let referenceLabels = hostLabels(reference, isPattern: false) else { return false }
            return dnsNames.contains { matches(referenceLabels, pattern: $0, publicSuffixList: publicSuffixList) }
        case .ip(let address):
            return ipAddresses.contains(address)
        case .email:
            return false
        }
    }

    /// Returns whether a DNS reference identity matches one `dNSName` value.
    ///
    /// - Parameters:
    ///   - reference: The reference host name, already in ASCII (A-label)
    ///     form. It is compared case-insensitively and may have one trailing
    ///     dot; it must not contain a wildcard.
    ///   - pattern: A `dNSName` value exactly as found in the certificate,
    ///     possibly with a left-most `*` label.
    ///   - publicSuffixList: The suffixes a wildcard may not span.
    /// - Returns: `true` if `pattern` matches `reference` under the rules
    ///   described in ``HostnameMatcher``.
    package static func matchesDNSName(
        _ reference: String, pattern: String,
        publicSuffixList: PublicSuffixList = .snapshot
    ) -> Bool {
        guard let referenceLabels = hostLabels(reference, isPattern: false) else { return false }
        return matches(referenceLabels, pattern: pattern, publicSuffixList: publicSuffixList)
    }

    /// Returns whether `identity` matches one of the certificate subject's
    /// common names, for callers that explicitly opt into the legacy
    /// (RFC 6125 §6.4.4, deprecated) use of the common name.
    ///
    /// Callers should only consult the common name when the certificate has
    /// no `dNSName` or `iPAddress` subject alternative names at all.
    ///
    /// Each common name is treated exactly like a `dNSName` pattern (see
    /// ``matchesDNSName(_:pattern:)``): it must be an ASCII host name, so a
    /// common name in U-label form never matches. IP identities never match
    /// a common name.
    ///
    /// - Parameters:
    ///   - identity: The reference identity.
    ///   - commonNames: The subject's common name attribute values.
    ///   - publicSuffixList: The suffixes a wildcard may not span.
    /// - Returns: `true` if a DNS identity matches one of `commonNames`.
    package static func matchesCommonName(
        _ identity: ServerIdentity, commonNames: [String],
        publicSuffixList: PublicSuffixList = .snapshot
    ) -> Bool {
        switch identity {
        case .dns(let reference):
            guard let referenceLabels = hostLabels(reference, isPattern: false) else { return false }
            return commonNames.contains { matches(referenceLabels, pattern: $0, publicSuffixList: publicSuffixList) }
        case .ip, .email:
            return false
        }
    }

    /// ``matches(_:dnsNames:ipAddresses:publicSuffixList:)`` over a certificate's SAN entries, with
    /// the reference identity prepared beforehand (its labels split and lower-cased once, not per
    /// certificate); an email identity is compared with the rfc822Name entries.
    package static func matches(
        _ prepared: PreparedIdentity, subjectAlternativeNames: [GeneralName],
        publicSuffixList: PublicSuffixList
    ) -> Bool {
        switch prepared.identity {
        case .dns(let reference):
            guard let referenceLabels = prepared.referenceLabels else { return false }
            // Fast path: a SAN spelled exactly like the (normalised, lower-case) reference. Both sides
            // are valid host names here, so byte equality is a match under every rule below (not for
            // a reference built by hand with a trailing dot: a SAN ending in one never matches).
            let referenceCount = reference.utf8.count
            if !endsInDot(reference) {
                for name in subjectAlternativeNames {
                    if case let .dnsName(value) = name, value.utf8.count == referenceCount, sameBytes(value, reference) {
                        return true
                    }
                }
            }
            for name in subjectAlternativeNames {
                if case let .dnsName(value) = name, matches(referenceLabels, pattern: value, publicSuffixList: publicSuffixList) {
                    return true
                }
            }
            return false
        case .ip(let address):
            // `IPAddress(bytes:)` accepts exactly 4 or 16 octets, which is what `address` holds:
            // comparing the octets is comparing the addresses.
            for name in subjectAlternativeNames {
                if case let .ipAddress(bytes) = name, bytes.elementsEqual(address.bytes) { return true }
            }
            return false
        case .email(let address):
            for name in subjectAlternativeNames {
                if case let .rfc822Name(value) = name, address.matches(rfc822Name: value) { return true }
            }
            return false
        }
    }

    /// Whether two strings have the same UTF-8 bytes (not Unicode canonical equivalence).
    package static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        // `withUTF8` reads a native or small string in place (a bridged one is made native first).
        var lhs = lhs, rhs = rhs
        return lhs.withUTF8 { left in rhs.withUTF8 { right in ByteComparison.equal(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right)) } }
    }

    /// The lower-case labels of a DNS reference identity, or nil when it is not a valid host name.
    package static func referenceLabels(_ reference: String) -> [ArraySlice<UInt8>]? { hostLabels(reference, isPattern: false) }

    // MARK: - Private

    /// Whether `name` ends in a dot.
    private static func endsInDot(_ name: String) -> Bool { name.utf8.last == UInt8(ascii: ".") }

    /// Splits a valid host name into lowercase labels, or returns `nil` if it
    /// is not a valid ASCII host name (underscores allowed, as Apple's
    /// `SecFrameworkIsDNSName` allows them) or ends in a numeric label. A
    /// reference may end in one dot, which is removed (Apple `SecDNSMatch`); a
    /// pattern (`isPattern`) ending in a dot is refused, as
    /// `SecFrameworkIsDNSName` refuses such SAN names.
    private static func hostLabels(_ name: String, isPattern: Bool) -> [ArraySlice<UInt8>]? {
        // One copy of the bytes, validated, trimmed and lower-cased in place (a valid host name is
        // at most 254 octets, well within `IDNA.trimmedNameBytes`'s bound).
        var bytes = Array(name.utf8)
        guard IDNA.scanASCIIHostname(bytes, allowingUnderscores: true) != nil else { return nil }
        if bytes.last == UInt8(ascii: ".") {
            if isPattern { return nil }
            bytes.removeLast()
        }
        guard !IDNA.endsInNumericLabel(trimmed: bytes[...]) else { return nil }
        var dots = 0
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") { dots += 1 }
            bytes[index] = IDNA.asciiLowercased(byte)
        }
        // `split(separator: ".", omittingEmptySubsequences: false)`, into an array of the right size.
        var labels: [ArraySlice<UInt8>] = []
        labels.reserveCapacity(dots + 1)
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == UInt8(ascii: ".") {
            labels.append(bytes[start..<index])
            start = index + 1
        }
        labels.append(bytes[start..<bytes.endIndex])
        return labels
    }

    /// Matches pre-split reference labels against a pattern.
    private static func matches(_ reference: [ArraySlice<UInt8>], pattern: String, publicSuffixList: PublicSuffixList) -> Bool {
        let wildcardPrefix = "*."
        if pattern.utf8.starts(with: wildcardPrefix.utf8) {
            // Wildcard: "*" followed by at least two valid labels, matching
            // exactly one non-empty reference label.
            let rest = String(decoding: pattern.utf8.dropFirst(2), as: UTF8.self)
            guard let trimmed = IDNA.trimmedNameBytes(pattern),
                trimmed.count <= IDNA.maximumHostnameLength,
                let suffix = hostLabels(rest, isPattern: true), suffix.count >= 2,
                reference.count == suffix.count + 1,
                let first = reference.first, !first.isEmpty,
                zip(reference.dropFirst(), suffix).allSatisfy({ $0.elementsEqual($1) })
            else { return false }
            // CABF BR §3.2.2.6: no wildcard spans a public suffix. Asked last: only for a pattern
            // that would otherwise match.
            return !publicSuffixList.isPublicSuffix(labels: suffix)
        }
        guard let labels = hostLabels(pattern, isPattern: true), labels.count == reference.count else { return false }
        return zip(reference, labels).allSatisfy { $0.elementsEqual($1) }
    }
}
