import Foundation
import TrustCrypto

/// Why one SCT did not count toward trustd's Certificate Transparency rule
/// (`getSCTValidatingLog`, `isSCTValidForLogData` and `verify_tls_ct_policy` in
/// `CertificateTransparency.m`).
public enum SCTRejection: Error, Hashable, Sendable, CustomStringConvertible {
    // Invalid SCTs: they validate no log.

    /// The bytes are not a v1 SCT (wrong version, truncated, trailing bytes).
    case malformed(SCTParseError)
    /// Dated after the evaluation time (trustd: "SCT is in the future").
    case fromTheFuture(timestamp: Date, evaluatedAt: Date)
    /// No log in the list has this ID (base64).
    case unknownLog(String)
    /// The log is listed but not trusted (pending, rejected, or a state this version does not know).
    case logNotTrusted(log: String, state: CTLog.State)
    /// Delivered by TLS or OCSP from a retired log: only embedded SCTs count from a retired log.
    case deliveredFromRetiredLog(log: String, retiredSince: Date)
    /// Dated after its log became read-only (trustd: the log "issued SCT after freezing").
    case afterReadOnly(log: String, timestamp: Date, readOnlySince: Date)
    /// The leaf's notAfter is outside the log's temporal shard.
    case outsideShard(log: String, notAfter: Date, shard: CTLog.Shard)
    /// An embedded SCT, and no issuer to rebuild the precertificate entry with.
    case issuerUnavailable
    /// The precertificate entry could not be rebuilt from the leaf (its TBSCertificate or
    /// extensions do not re-read).
    case unrebuildableEntry(String)
    /// A hash or signature algorithm trustd does not verify SCTs with (`oidForSigAlg`: SHA-1,
    /// SHA-256 or SHA-384 with RSA or ECDSA), as TLS code points.
    case unsupportedAlgorithm(hash: UInt8, signature: UInt8)
    /// The signature does not verify with the log's key.
    case badSignature(log: String, SignatureError)

    // Valid SCTs that the deciding rule did not count.

    /// An earlier SCT from the same log stands for the log (trustd judges each log once, by its
    /// earliest valid SCT).
    case sameLogAlreadyCounted(log: String)
    /// Delivered by TLS or OCSP, while the rule deciding (embedded SCTs from enough logs) counts
    /// only embedded SCTs.
    case notEmbedded
    /// From a retired log, while the rule deciding (SCTs from two currently qualified logs) counts
    /// only logs not retired.
    case retiredLog(log: String, retiredSince: Date)
    /// Embedded, from a retired log, but dated at or after its retirement.
    case loggedAfterRetirement(log: String, timestamp: Date, retiredSince: Date)
    /// Embedded, from a retired log, but the certificate's issuance time (its earliest SCT from a
    /// current log) is at or after the log's retirement.
    case issuedAfterRetirement(log: String, issuance: Date, retiredSince: Date)

    /// Whether the SCT itself is invalid, rather than valid and not needed or not counted.
    public var isInvalid: Bool {
        switch self {
        case .malformed, .fromTheFuture, .unknownLog, .logNotTrusted, .deliveredFromRetiredLog, .afterReadOnly,
            .outsideShard, .issuerUnavailable, .unrebuildableEntry, .unsupportedAlgorithm, .badSignature:
            return true
        case .sameLogAlreadyCounted, .notEmbedded, .retiredLog, .loggedAfterRetirement, .issuedAfterRetirement:
            return false
        }
    }

    /// The reason in words.
    public var description: String {
        switch self {
        case let .malformed(error): return "malformed SCT: \(error)"
        case let .fromTheFuture(timestamp, date):
            return "dated \(CTTime.text(timestamp)), after the evaluation time \(CTTime.text(date))"
        case let .unknownLog(id): return "from log \(id), which is not in the log list"
        case let .logNotTrusted(log, state): return "from log \(log), which is \(state), not trusted"
        case let .deliveredFromRetiredLog(log, since):
            return "delivered from log \(log), retired since \(CTTime.text(since)): only embedded SCTs count from a retired log"
        case let .afterReadOnly(log, timestamp, since):
            return "dated \(CTTime.text(timestamp)), after log \(log) became read-only at \(CTTime.text(since))"
        case let .outsideShard(log, notAfter, shard):
            return "the leaf's notAfter \(CTTime.text(notAfter)) is outside log \(log)'s shard \(shard)"
        case .issuerUnavailable: return "embedded, and no issuer certificate to rebuild the precertificate with"
        case let .unrebuildableEntry(reason): return "the precertificate entry cannot be rebuilt: \(reason)"
        case let .unsupportedAlgorithm(hash, signature):
            return "signed with TLS hash \(hash) and signature \(signature), which are not verified"
        case let .badSignature(log, error): return "the signature does not verify with log \(log)'s key: \(error)"
        case let .sameLogAlreadyCounted(log): return "an earlier SCT from log \(log) stands for the log"
        case .notEmbedded: return "delivered, and the rule deciding counts embedded SCTs only"
        case let .retiredLog(log, since):
            return "log \(log) retired at \(CTTime.text(since)); the rule deciding counts current logs only"
        case let .loggedAfterRetirement(log, timestamp, since):
            return "dated \(CTTime.text(timestamp)), not before log \(log)'s retirement at \(CTTime.text(since))"
        case let .issuedAfterRetirement(log, issuance, since):
            return "the certificate was issued at \(CTTime.text(issuance)), not before log \(log)'s retirement at \(CTTime.text(since))"
        }
    }
}
