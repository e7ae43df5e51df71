// EmailAddress.swift
// An RFC 5321 mailbox, as carried in rfc822Name subject alternative names and name constraints.

/// A mailbox `local-part@domain` (RFC 5321 §4.1.2), the form of an X.509 `rfc822Name`
/// (RFC 5280 §4.2.1.6).
///
/// The local part is a dot-string of `atext` characters (`user.name+tag`, `*`) or a quoted string
/// (`"a b"`, `"a@b"`), at most 64 octets, ASCII only: an internationalised local part can only be
/// carried in an `SmtpUTF8Mailbox` otherName (RFC 8398), which is not supported. The domain is a
/// host name (address literals such as `[192.0.2.1]` are not supported) and is kept in lower-case
/// A-label form, so `"Alice@Bücher.example"` has the domain `xn--bcher-kva.example`.
///
/// Two addresses are the same mailbox when their local parts are identical octet for octet (the
/// local part is case-sensitive, RFC 5321 §2.4; RFC 5280 §7.5) and their domains are equal, which
/// after normalisation means case-insensitively equal (RFC 8398 §5).
package struct EmailAddress: Hashable, Sendable, CustomStringConvertible {
    /// The local part, exactly as written (quotes included for a quoted string).
    package let localPart: String
    /// The domain in lower-case A-label form, without a trailing dot.
    package let domain: String

    /// The longest local part RFC 5321 §4.5.3.1.1 allows, in octets.
    package static let maximumLocalPartLength = 64

    /// Parses a mailbox, e.g. `"alice@example.com"` or `"alice@Bücher.example"`.
    ///
    /// - Parameter text: The address; no display name, no angle brackets, no surrounding space.
    /// - Returns: nil when `text` is not `local-part@domain` as described in ``EmailAddress``.
    package init?(_ text: String) {
        let utf8 = Array(text.utf8)
        guard let at = EmailAddress.localPartEnd(utf8), at <= EmailAddress.maximumLocalPartLength,
            at < utf8.endIndex, utf8[at] == UInt8(ascii: "@")
        else { return nil }
        let domainText = String(decoding: utf8[(at + 1)...], as: UTF8.self)
        // A trailing dot is a DNS spelling, not part of a mailbox's domain.
        guard domainText.utf8.last != UInt8(ascii: "."),
            let domain = IDNA.toASCII(domainText), !IDNA.endsInNumericLabel(domain)
        else { return nil }
        localPart = String(decoding: utf8[..<at], as: UTF8.self)
        self.domain = domain
    }

    /// `local-part@domain`.
    package var description: String { "\(localPart)@\(domain)" }

    /// Whether an `rfc822Name` value names this mailbox (RFC 8398 §5: the local part compared
    /// exactly, the domain case-insensitively; a value that is not a mailbox matches nothing).
    package func matches(rfc822Name: String) -> Bool {
        EmailAddress(rfc822Name) == self
    }

    /// The index just past a valid local part at the start of `bytes`, or nil when there is none.
    private static func localPartEnd(_ bytes: [UInt8]) -> Int? {
        guard let first = bytes.first else { return nil }
        if first == UInt8(ascii: "\"") {
            // Quoted-string: qtextSMTP (32–126 without `"` and `\`) or a quoted pair `\` 32–126.
            var index = 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { return index + 1 }
                if byte == UInt8(ascii: "\\") {
                    guard index + 1 < bytes.count, (32...126).contains(bytes[index + 1]) else { return nil }
                    index += 2
                } else {
                    guard (32...126).contains(byte) else { return nil }
                    index += 1
                }
            }
            return nil
        }
        // Dot-string: atoms of atext separated by single dots, neither leading nor trailing.
        var index = 0
        var atomLength = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "@") {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard atomLength > 0 else { return nil }
                atomLength = 0
            } else {
                guard isAtext(byte) else { return nil }
                atomLength += 1
            }
            index += 1
        }
        return atomLength > 0 ? index : nil
    }

    /// RFC 5322 §3.2.3 atext: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    private static func isAtext(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-/=?^_`{|}~".utf8.contains(byte)
        }
    }
}
