// ServerIdentity.swift
// The reference identity of a server that a certificate is checked against.

import TrustCrypto

/// The identity a client expects a server certificate to present
/// (the "reference identity" of RFC 6125), or that a server expects of a
/// client certificate issued to a person (a mailbox).
///
/// A DNS identity is only ever compared with `dNSName` subject alternative
/// names, an IP identity only with `iPAddress` ones (see
/// ``HostnameMatcher``) and an email identity only with `rfc822Name` ones
/// (see ``EmailAddress/matches(rfc822Name:)``).
package enum ServerIdentity: Hashable, Sendable, CustomStringConvertible {
    /// A DNS host name in ASCII form: lowercase, A-labels for
    /// internationalised labels, no trailing dot (as produced by
    /// ``IDNA/toASCII(_:allowingUnderscores:)``).
    case dns(String)

    /// An IP address.
    case ip(IPAddress)

    /// A mailbox (RFC 5280 §4.2.1.6 rfc822Name, RFC 8398).
    case email(EmailAddress)

    /// Parses a host as written by a user or found in a URL.
    ///
    /// If `text` is a valid IP address (see ``IPAddress/init(_:)``, which
    /// also accepts a bracketed IPv6 address) the identity is ``ip(_:)``.
    /// Otherwise it is converted with ``IDNA/toASCII(_:allowingUnderscores:)``
    /// and becomes ``dns(_:)``. Underscores are accepted in ASCII labels
    /// (`_srv.internal.example`, `my_host.example.com`): Apple's `SecDNSMatch`
    /// does not validate the reference, and such names are matched against
    /// SAN names with underscores (``HostnameMatcher``).
    ///
    /// Names whose right-most label is numeric (all decimal digits, or `0x`
    /// followed by hexadecimal digits, as in `"1.2.3.04"` or `"0x7f.1"`) are
    /// rejected: they are not valid host names (RFC 1123 §2.1), and URL
    /// parsers and resolvers may interpret them as IPv4 addresses, so
    /// treating them as DNS names could verify a certificate for a different
    /// host than the one connected to.
    ///
    /// - Parameter text: For example `"www.example.com"`, `"Bücher.example."`,
    ///   `"192.0.2.1"` or `"[2001:db8::1]"`.
    /// - Returns: `nil` if `text` is neither a valid IP address nor a valid
    ///   host name.
    package init?(_ text: String) {
        if let address = IPAddress(text) {
            self = .ip(address)
            return
        }
        guard let name = IDNA.toASCII(text, allowingUnderscores: true), !IDNA.endsInNumericLabel(name) else { return nil }
        self = .dns(name)
    }

    /// Parses a mailbox (see ``EmailAddress/init(_:)``); nil when `text` is not one. Host names are
    /// never read as mailboxes: ``init(_:)`` parses those.
    package init?(emailAddress text: String) {
        guard let address = EmailAddress(text) else { return nil }
        self = .email(address)
    }

    /// The host name, the canonical text form of the IP address, or the mailbox.
    package var description: String {
        switch self {
        case .dns(let name):
            return name
        case .ip(let address):
            return address.description
        case .email(let address):
            return address.description
        }
    }
}

/// A ``ServerIdentity`` prepared for matching against many certificates: a DNS reference is
/// validated, lower-cased and split into labels once.
package struct PreparedIdentity: Sendable {
    package let identity: ServerIdentity
    /// The DNS reference's labels; nil for an IP or email identity or an invalid DNS reference (which
    /// matches nothing).
    package let referenceLabels: [ArraySlice<UInt8>]?

    package init(_ identity: ServerIdentity) {
        self.identity = identity
        if case let .dns(reference) = identity {
            referenceLabels = HostnameMatcher.referenceLabels(reference)
        } else {
            referenceLabels = nil
        }
    }
}

package extension PreparedIdentity {
    /// The reference identity for a host name as written (``ServerIdentity/init(_:)``), prepared;
    /// nil when the host name is neither an IP address nor a valid DNS name.
    ///
    /// The last few host names are remembered process-wide: the answer is a pure function of the
    /// text's UTF-8 bytes (entries are matched byte for byte, not by Unicode canonical equivalence),
    /// and a client verifies the same few hosts over and over, one ``ServerTrust`` per connection.
    static func forHostname(_ hostname: String) -> PreparedIdentity? {
        recentHostnames.value(forKey: HostnameKey(text: hostname)) { ServerIdentity(hostname).map(PreparedIdentity.init) }
    }

    /// A host name as written, compared and hashed by its UTF-8 bytes: `String` equality is canonical
    /// equivalence, the answer is not. The bytes are hashed in one call from the string's own
    /// storage (no array is built per lookup, no byte is hashed on its own).
    private struct HostnameKey: Hashable, Sendable {
        let text: String

        static func == (lhs: HostnameKey, rhs: HostnameKey) -> Bool { HostnameMatcher.sameBytes(lhs.text, rhs.text) }

        func hash(into hasher: inout Hasher) {
            let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            // The same bytes the same way when the string is not stored contiguously.
            if hashed == nil { Array(text.utf8).withUnsafeBytes { hasher.combine(bytes: $0) } }
        }
    }

    /// The one bounded cache type (off with ``TrustCaches``), sized for the hosts a client talks to;
    /// 256 entries make it a sharded cache, so concurrent evaluations for different hosts do not
    /// queue on one lock (docs/performance-log.md, "Scaling").
    private static let recentHostnames = BoundedCache<HostnameKey, PreparedIdentity?>(capacity: 256)
}
