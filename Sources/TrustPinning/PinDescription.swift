import TrustX509

/// One pinned or presented value in a pinning failure: a certificate's SHA-256 fingerprint or a
/// public key's `sha256/BASE64` SPKI pin, with the subject of the certificate it came from.
public struct PinDescription: Hashable, Sendable, CustomStringConvertible {
    /// The fingerprint (`sha256:` followed by lower-case hex with colons) or SPKI pin (`sha256/BASE64`).
    public let value: String
    /// The subject (RFC 4514) of the certificate the value was taken from, when known.
    public let subject: String?

    /// Creates a description from a value and an optional subject.
    public init(value: String, subject: String?) {
        self.value = value
        self.subject = subject
    }

    /// The certificate's SHA-256 fingerprint, `sha256:ab:cd:…`, and its subject.
    public static func certificate(_ certificate: Certificate) -> PinDescription {
        PinDescription(
            value: "sha256:" + Certificate.hex(certificate.sha256Fingerprint, separator: ":"),
            subject: certificate.subject.description)
    }

    /// The SPKI pin (`sha256/BASE64`) of the certificate's public key, and its subject.
    public static func publicKey(of certificate: Certificate) -> PinDescription {
        PinDescription(value: certificate.spkiPin, subject: certificate.subject.description)
    }

    /// The value, followed by the subject in parentheses when known.
    public var description: String {
        guard let subject else { return value }
        return "\(value) (\(subject.isEmpty ? "empty subject" : subject))"
    }
}

extension Array where Element == PinDescription {
    /// `[a, b, c]`, or `[]`.
    var listed: String { "[" + map(\.description).joined(separator: ", ") + "]" }
}
