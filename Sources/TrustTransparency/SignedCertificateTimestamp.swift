import Foundation

/// One SignedCertificateTimestamp, v1 (RFC 6962 §3.2), parsed as trustd's `getSCTValidatingLog`
/// parses it:
///
///     struct {
///         Version sct_version;                 // 1 byte, v1 = 0
///         LogID id;                            // 32 bytes
///         uint64 timestamp;                    // milliseconds since 1970
///         CtExtensions extensions;             // opaque <0..2^16-1>
///         digitally-signed struct { ... };     // hash (1), signature (1), opaque <0..2^16-1>
///     } SignedCertificateTimestamp;
public struct SignedCertificateTimestamp: Hashable, Sendable {
    /// The SCT as serialized.
    public let encoded: [UInt8]
    /// The ID of the log that signed it (SHA-256 of the log's key).
    public let logID: [UInt8]
    /// Milliseconds since 1970, UTC.
    public let timestamp: UInt64
    /// The CtExtensions (signed over as they are).
    public let extensions: [UInt8]
    /// The TLS HashAlgorithm (RFC 5246 §7.4.1.4.1): 4 is SHA-256.
    public let hashAlgorithm: UInt8
    /// The TLS SignatureAlgorithm: 1 is RSA, 3 is ECDSA.
    public let signatureAlgorithm: UInt8
    /// The signature (DER ECDSA-Sig-Value or RSA PKCS #1 v1.5).
    public let signature: [UInt8]

    /// Parses one serialized SCT.
    ///
    /// - Throws: ``SCTParseError/unsupportedVersion(_:)`` unless the first byte is 0 (v1);
    ///   ``SCTParseError/truncated(field:offset:)``; ``SCTParseError/trailingBytes(_:)`` for any byte
    ///   after the signature.
    public init(encoded bytes: some Collection<UInt8>) throws(SCTParseError) {
        var reader = TLSReader(Array(bytes))
        let version = try reader.byte("sct_version")
        guard version == 0 else { throw .unsupportedVersion(version) }
        let logID = try reader.bytes(32, "id")
        let timestamp = try reader.uint64("timestamp")
        let extensions = try reader.vector16("extensions")
        let hashAlgorithm = try reader.byte("hash algorithm")
        let signatureAlgorithm = try reader.byte("signature algorithm")
        let signature = try reader.vector16("signature")
        guard reader.remaining == 0 else { throw .trailingBytes(reader.remaining) }
        encoded = reader.bytes
        self.logID = logID
        self.timestamp = timestamp
        self.extensions = extensions
        self.hashAlgorithm = hashAlgorithm
        self.signatureAlgorithm = signatureAlgorithm
        self.signature = signature
    }

    /// The timestamp to the millisecond.
    public var date: Date { Date(timeIntervalSince1970: Double(timestamp) / 1000) }

    /// The timestamp in whole seconds, as trustd compares it with log dates
    /// (`TimestampToCFAbsoluteTime`: `ts / 1000`, integer division).
    var wholeSeconds: Date { Date(timeIntervalSince1970: Double(timestamp / 1000)) }
}

/// Reads TLS presentation-language fields (RFC 5246 §4) front to back.
struct TLSReader {
    let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - position }

    mutating func bytes(_ count: Int, _ field: String) throws(SCTParseError) -> [UInt8] {
        guard count <= remaining else { throw .truncated(field: field, offset: position) }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    mutating func byte(_ field: String) throws(SCTParseError) -> UInt8 {
        try bytes(1, field)[0]
    }

    mutating func uint16(_ field: String) throws(SCTParseError) -> Int {
        try bytes(2, field).reduce(0) { $0 << 8 | Int($1) }
    }

    mutating func uint64(_ field: String) throws(SCTParseError) -> UInt64 {
        try bytes(8, field).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// `opaque field<0..2^16-1>`.
    mutating func vector16(_ field: String) throws(SCTParseError) -> [UInt8] {
        try bytes(try uint16(field + " length"), field)
    }
}
