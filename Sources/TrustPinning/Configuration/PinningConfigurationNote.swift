import TrustDER

/// Something a loader read that is worth fixing in the file but does not stop it loading: the
/// configuration means what the format's own parser reads (TrustKit's, Android's), and the note
/// says where the text departs from its canonical form. `trustctl pins` prints them.
public struct PinningConfigurationNote: Hashable, Sendable, CustomStringConvertible {
    /// What was noticed.
    public enum Kind: Hashable, Sendable {
        /// A pin whose base64 is not canonical (RFC 4648 §3.5): the last character has padding
        /// bits set, or more `=` follow than the length needs. The format's parser decodes it
        /// to the same digest as `canonical` (TrustKit: Foundation's `Data(base64Encoded:)`
        /// drops the padding bits), and so does the loader.
        case nonCanonicalPin(domain: String, written: String, canonical: String)
    }

    /// The file, as given to the loader.
    public let file: String
    /// The key path of the value, when the format has one.
    public let keyPath: String?
    /// What was noticed.
    public let kind: Kind

    /// Creates a note.
    public init(file: String, keyPath: String?, kind: Kind) {
        self.file = file
        self.keyPath = keyPath
        self.kind = kind
    }

    /// `file: at keyPath: what was noticed`.
    public var description: String {
        var location = file
        if let keyPath, !keyPath.isEmpty { location += ": at \(keyPath)" }
        switch kind {
        case let .nonCanonicalPin(domain, written, canonical):
            return
                "\(location): pin \"\(QuotedValue.capped(written))\" of domain \(domain) is not canonical base64 (padding bits set or extra \"=\"); "
                + "read as TrustKit reads it, as the digest whose canonical form is \"\(canonical)\": write that instead"
        }
    }
}
