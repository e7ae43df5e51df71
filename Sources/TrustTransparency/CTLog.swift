import Foundation
import TrustCrypto

/// One Certificate Transparency log as a log list describes it: its key, its operator, its state
/// and the dates that decide which of its SCTs count (trustd's `TrustedCTLogs.plist` entry, read
/// by `CertificateTransparency.m`).
///
/// The log ID is the SHA-256 of the key's SubjectPublicKeyInfo DER (RFC 6962 §3.2), unless the
/// list gives one (trustd's `ConvertTrustedCTLogsArrayToDictionary` uses a given `log_id` as is).
public struct CTLog: Hashable, Sendable, CustomStringConvertible {
    /// Where a log stands in its list.
    public enum State: Hashable, Sendable, CustomStringConvertible {
        /// Applied, not yet trusted (schema v4 `pending`): its SCTs never count.
        case pending
        /// Trusted (schema v4 `qualified`).
        case qualified
        /// Trusted (schema v4 `usable`; a property-list entry without `expiry`).
        case usable
        /// Trusted, but frozen (schema v4 `readonly`; a property-list `frozen` date): SCTs dated
        /// after ``CTLog/readOnlySince`` do not count.
        case readOnly
        /// No longer trusted for new SCTs (schema v4 `retired`; a property-list `expiry` date):
        /// only embedded SCTs dated before ``CTLog/retiredSince`` count.
        case retired
        /// Distrusted (schema v4 `rejected`): its SCTs never count.
        case rejected
        /// A state this version does not know (Apple's lists may grow states, such as `expired`):
        /// its SCTs never count.
        case unrecognised(String)

        /// Whether SCTs from the log can count at all (trustd's list holds only such logs).
        public var isTrusted: Bool {
            switch self {
            case .qualified, .usable, .readOnly, .retired: return true
            case .pending, .rejected, .unrecognised: return false
            }
        }

        /// The state's name in the JSON schema.
        public var description: String {
            switch self {
            case .pending: return "pending"
            case .qualified: return "qualified"
            case .usable: return "usable"
            case .readOnly: return "readonly"
            case .retired: return "retired"
            case .rejected: return "rejected"
            case let .unrecognised(name): return name
            }
        }
    }

    /// A temporal shard: the log accepts only certificates whose notAfter is in
    /// [``start``, ``end``) (schema v4 `temporal_interval`, trustd's `start_inclusive` /
    /// `end_exclusive`; either bound may be absent in a property list).
    public struct Shard: Hashable, Sendable, CustomStringConvertible {
        /// The earliest notAfter covered, inclusive.
        public let start: Date?
        /// The first notAfter no longer covered, exclusive.
        public let end: Date?

        /// A shard from `start` (inclusive) to `end` (exclusive).
        public init(start: Date?, end: Date?) {
            self.start = start
            self.end = end
        }

        /// Whether a certificate expiring at `notAfter` is in the shard
        /// (`isSCTValidForLogData` in `CertificateTransparency.m`).
        public func covers(notAfter: Date) -> Bool {
            if let start, notAfter < start { return false }
            if let end, notAfter >= end { return false }
            return true
        }

        /// `[start, end)` in ISO 8601.
        public var description: String {
            "[\(start.map(CTTime.text) ?? "…"), \(end.map(CTTime.text) ?? "…"))"
        }
    }

    /// The log ID SCTs name (32 bytes).
    public let id: [UInt8]
    /// The log's SubjectPublicKeyInfo DER.
    public let key: [UInt8]
    /// The operator's name, if the list gives one.
    public let operatorName: String?
    /// The list's description of the log, if any.
    public let logDescription: String?
    /// The log's state.
    public let state: State
    /// When the log became read-only, if it did.
    public let readOnlySince: Date?
    /// When the log was retired, if it was.
    public let retiredSince: Date?
    /// The log's temporal shard, if it is sharded.
    public let shard: Shard?
    /// The key, parsed once for verification.
    let verificationKey: VerificationKey

    /// A log with key `key` (SubjectPublicKeyInfo DER) and ID `id` (by default the key's SHA-256).
    ///
    /// - Throws: the ``SignatureError`` of a key this library cannot verify with.
    public init(
        key: [UInt8], id: [UInt8]? = nil, operatorName: String? = nil, description: String? = nil,
        state: State = .usable, readOnlySince: Date? = nil, retiredSince: Date? = nil,
        shard: Shard? = nil
    ) throws(SignatureError) {
        verificationKey = try VerificationKey(spki: key[...])
        self.key = key
        self.id = id ?? Digest.sha256(key)
        self.operatorName = operatorName
        logDescription = description
        self.state = state
        self.readOnlySince = readOnlySince
        self.retiredSince = retiredSince
        self.shard = shard
    }

    /// Whether the log is retired (trustd: the entry has an `expiry` date).
    public var isRetired: Bool { retiredSince != nil || state == .retired }

    /// The log ID in base64, as log lists write it.
    public var base64ID: String { Data(id).base64EncodedString() }

    /// The description (or the ID) and the state.
    public var description: String { "\(logDescription ?? base64ID) (\(state))" }

    /// Equal when every listed field is; the parsed key follows from ``key``.
    public static func == (lhs: CTLog, rhs: CTLog) -> Bool {
        lhs.id == rhs.id && lhs.key == rhs.key && lhs.operatorName == rhs.operatorName
            && lhs.logDescription == rhs.logDescription && lhs.state == rhs.state
            && lhs.readOnlySince == rhs.readOnlySince && lhs.retiredSince == rhs.retiredSince && lhs.shard == rhs.shard
    }

    /// Hashes the ID and the key.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(key)
    }
}
