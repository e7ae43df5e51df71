import TrustCrypto
import TrustDER
import TrustX509

/// An HPKP-style public-key pin: the SHA-256 of a DER SubjectPublicKeyInfo, written
/// `sha256/BASE64` (RFC 7469 §2.4; the form TrustKit and OkHttp's `CertificatePinner` use).
///
/// ```swift
/// let pin = try SPKIPin("sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
/// pin.matches(certificate)
/// SPKIPin(certificate: certificate).description   // same as certificate.spkiPin
/// ```
public struct SPKIPin: Hashable, Sendable, CustomStringConvertible {
    /// The prefix of the textual form.
    public static let prefix = "sha256/"

    /// The 32-byte SHA-256 digest of the SubjectPublicKeyInfo.
    public let digest: [UInt8]

    /// Parses `sha256/` followed by the canonical base64 of 32 bytes.
    public init(_ text: String) throws(PinningConfigurationError) {
        guard text.hasPrefix(Self.prefix) else {
            throw .malformedPin(text, reason: "does not start with \(Self.prefix)")
        }
        let encoded = text.utf8.dropFirst(Self.prefix.utf8.count)
        guard let digest = Base64.decode(encoded) else {
            throw .malformedPin(text, reason: "not canonical base64")
        }
        guard digest.count == 32 else {
            throw .malformedPin(text, reason: "decodes to \(digest.count) bytes, a SHA-256 digest has 32")
        }
        self.digest = digest
    }

    /// The bare base64 of a SHA-256 digest read as TrustKit reads `TSKPublicKeyHashes`: the bytes
    /// Foundation's `Data(base64Encoded:)` decodes it to are the pin, so a last character whose
    /// padding bits are set (`…B=` for `…A=`, as in TrustKit's demo backup pin) is accepted;
    /// characters outside the alphabet, misplaced `=` and any length but 32 bytes are still
    /// refused. Whether `text` was canonical is ``canonicalBase64`` `== text`.
    package init(trustKitBase64 text: String) throws(PinningConfigurationError) {
        guard let digest = FoundationBase64.decode(text.utf8) else {
            throw .malformedPin(text, reason: "not base64 (as Foundation's Data(base64Encoded:) reads it)")
        }
        guard digest.count == 32 else {
            throw .malformedPin(text, reason: "decodes to \(digest.count) bytes, a SHA-256 digest has 32")
        }
        self.digest = digest
    }

    /// The canonical base64 of the digest, without the prefix.
    package var canonicalBase64: String { Base64.encode(digest) }

    /// The pin of a public key.
    public init(publicKey: SubjectPublicKeyInfo) {
        digest = Digest.sha256(publicKey.der)
    }

    /// The pin of a certificate's public key.
    public init(certificate: Certificate) {
        digest = certificate.spkiSHA256
    }

    /// Whether `certificate`'s public key has this pin.
    public func matches(_ certificate: Certificate) -> Bool { certificate.spkiSHA256 == digest }

    /// `sha256/BASE64`.
    public var description: String { Self.prefix + canonicalBase64 }
}
