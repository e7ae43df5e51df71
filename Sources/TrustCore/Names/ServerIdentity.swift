// ServerIdentity.swift
// The reference identity of a server that a certificate is checked against.

/// The identity a client expects a server certificate to present
/// (the "reference identity" of RFC 6125).
///
/// A DNS identity is only ever compared with `dNSName` subject alternative
/// names and an IP identity only with `iPAddress` ones (see
/// ``HostnameMatcher``).
public enum ServerIdentity: Hashable, Sendable, CustomStringConvertible {
    /// A DNS host name in ASCII form: lowercase, A-labels for
    /// internationalised labels, no trailing dot (as produced by
    /// ``IDNA/toASCII(_:)``).
    case dns(String)

    /// An IP address.
    case ip(IPAddress)

    /// Parses a host as written by a user or found in a URL.
    ///
    /// If `text` is a valid IP address (see ``IPAddress/init(_:)``, which
    /// also accepts a bracketed IPv6 address) the identity is ``ip(_:)``.
    /// Otherwise it is converted with ``IDNA/toASCII(_:)`` and becomes
    /// ``dns(_:)``.
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
    public init?(_ text: String) {
        if let address = IPAddress(text) {
            self = .ip(address)
            return
        }
        guard let name = IDNA.toASCII(text), !IDNA.endsInNumericLabel(name) else { return nil }
        self = .dns(name)
    }

    /// The host name, or the canonical text form of the IP address.
    public var description: String {
        switch self {
        case .dns(let name):
            return name
        case .ip(let address):
            return address.description
        }
    }
}
