/// One SCT as presented, kept with its source: parsed, or why it could not be.
public struct PresentedTimestamp: Hashable, Sendable {
    /// Where it came from.
    public let source: SCTSource
    /// Its serialized bytes (the SerializedSCT of the list).
    public let encoded: [UInt8]
    /// The parsed SCT, or why the bytes are not one.
    public let timestamp: Result<SignedCertificateTimestamp, SCTParseError>

    /// The SCT serialized as `encoded`, from `source`.
    public init(encoded: [UInt8], source: SCTSource) {
        self.source = source
        self.encoded = encoded
        do { timestamp = .success(try SignedCertificateTimestamp(encoded: encoded)) } catch {
            timestamp = .failure(error)
        }
    }
}
