import Foundation
import TrustCrypto
import TrustX509

/// One SCT checked against the log list, as trustd's `getSCTValidatingLog` checks it: the log it
/// validates, or why it validates none.
struct SCTValidation {
    /// A valid SCT: its position, source, log, and time in whole seconds (trustd's `sct_at`).
    struct Valid {
        let index: Int
        let source: SCTSource
        let log: CTLog
        let time: Date
    }

    /// The entries SCTs are signed over, built at most once per evaluation.
    struct Entries {
        let leaf: Certificate
        let issuer: Certificate?
        private(set) var x509: [UInt8]?
        private(set) var precertificate: Result<[UInt8], SCTRejection>?

        init(leaf: Certificate, issuer: Certificate?) {
            self.leaf = leaf
            self.issuer = issuer
        }

        mutating func entry(for source: SCTSource) -> Result<[UInt8], SCTRejection> {
            if source.isDelivered {
                let entry = x509 ?? CTSignedEntry.x509Entry(of: leaf)
                x509 = entry
                return .success(entry)
            }
            if let precertificate { return precertificate }
            let built: Result<[UInt8], SCTRejection>
            if let issuer {
                do { built = .success(try CTSignedEntry.precertificateEntry(of: leaf, issuer: issuer)) } catch {
                    built = .failure(.unrebuildableEntry(error.description))
                }
            } else {
                built = .failure(.issuerUnavailable)
            }
            precertificate = built
            return built
        }
    }

    /// The log `presented` validates, or why none, in trustd's order: parsed (v1, no trailing
    /// bytes), not from the future, its entry available, from a listed trusted log whose dates
    /// admit it, signed with a supported algorithm by the log's key.
    static func validate(
        _ presented: PresentedTimestamp, index: Int, logs: CTLogList, at date: Date,
        notAfter: Date, entries: inout Entries
    ) -> Result<Valid, SCTRejection> {
        let sct: SignedCertificateTimestamp
        switch presented.timestamp {
        case let .success(parsed): sct = parsed
        case let .failure(error): return .failure(.malformed(error))
        }
        // trustd: `timestamp > vt`, vt the evaluation time in whole seconds, as milliseconds.
        if sct.timestamp > evaluationMilliseconds(date) { return .failure(.fromTheFuture(timestamp: sct.date, evaluatedAt: date)) }
        let entry: [UInt8]
        switch entries.entry(for: presented.source) {
        case let .success(built): entry = built
        case let .failure(reason): return .failure(reason)
        }
        guard let log = logs.log(id: sct.logID) else { return .failure(.unknownLog(Data(sct.logID).base64EncodedString())) }
        let name = log.logDescription ?? log.base64ID
        guard log.state.isTrusted else { return .failure(.logNotTrusted(log: name, state: log.state)) }
        let time = sct.wholeSeconds
        if presented.source.isDelivered, log.isRetired {
            return .failure(.deliveredFromRetiredLog(log: name, retiredSince: log.retiredSince ?? .distantPast))
        }
        if let frozen = log.readOnlySince, time > frozen {
            return .failure(.afterReadOnly(log: name, timestamp: sct.date, readOnlySince: frozen))
        }
        if let shard = log.shard, !shard.covers(notAfter: notAfter) {
            return .failure(.outsideShard(log: name, notAfter: notAfter, shard: shard))
        }
        guard let algorithm = signatureAlgorithm(hash: sct.hashAlgorithm, signature: sct.signatureAlgorithm) else {
            return .failure(.unsupportedAlgorithm(hash: sct.hashAlgorithm, signature: sct.signatureAlgorithm))
        }
        let signed = CTSignedEntry.signedData(of: sct, type: presented.source.isDelivered ? .x509 : .precertificate, entry: entry)
        do {
            // The log list is trusted input: no key-size or SHA-1 policy beyond what trustd applies.
            try SignatureVerifier.verify(
                signature: sct.signature[...], over: signed[...], algorithm: algorithm,
                key: log.verificationKey, policy: .legacy)
        } catch {
            return .failure(.badSignature(log: name, error))
        }
        return .success(Valid(index: index, source: presented.source, log: log, time: time))
    }

    /// trustd's `TimestampFromCFAbsoluteTime`: whole seconds, times 1000 (0 before 1970).
    static func evaluationMilliseconds(_ date: Date) -> UInt64 {
        guard let seconds = Int64(exactly: date.timeIntervalSince1970.rounded(.towardZero)), seconds > 0 else { return 0 }
        return UInt64(seconds).multipliedReportingOverflow(by: 1000).overflow ? .max : UInt64(seconds) * 1000
    }

    /// trustd's `oidForSigAlg`: SHA-1 (2), SHA-256 (4), SHA-384 (5) with RSA (1) or ECDSA (3).
    static func signatureAlgorithm(hash: UInt8, signature: UInt8) -> SignatureAlgorithm? {
        let digest: DigestAlgorithm
        switch hash {
        case 2: digest = .sha1
        case 4: digest = .sha256
        case 5: digest = .sha384
        default: return nil
        }
        switch signature {
        case 1: return .rsaPKCS1v15(digest)
        case 3: return .ecdsa(digest)
        default: return nil
        }
    }
}
