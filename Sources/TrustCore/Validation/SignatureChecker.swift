import TrustCrypto
import TrustX509

/// Checks "issuer signed child" for one evaluation, remembering each answer so the path
/// builder and the validator never verify the same pair twice.
final class SignatureChecker {
    /// A signed certificate and a candidate issuer, by the SHA-256 of their DER: equal exactly when
    /// the certificates' DER is (SHA-256's collision resistance, which the process-wide caches rely
    /// on too), and holding no reference, so remembering a pair retains neither certificate
    /// (objects that concurrent evaluations share). Should libcrypto fail to digest a certificate,
    /// its digest is random (see `Digest`): another parsed copy of it then misses the memo and is
    /// checked again, never the reverse.
    private struct Pair: Hashable {
        let child: DigestWords
        let issuer: DigestWords

        init(child: Certificate, issuer: Certificate) {
            self.child = child.sha256Words
            self.issuer = issuer.sha256Words
        }
    }

    private struct Entry {
        let pair: Pair
        /// Where the failure is in `Memo.failures`, or -1 for a verified signature (so that a hit
        /// on a good signature copies no `TrustFailureReason`).
        let failure: Int
    }

    /// The answers so far. A typical evaluation asks about two or three pairs, for which a scan of
    /// a short list is cheaper than hashing; beyond ``indexThreshold`` pairs (large path-building
    /// searches) a dictionary takes over. One stored property, so that a lookup is one access.
    private struct Memo {
        var entries: [Entry] = []
        var failures: [TrustFailureReason] = []
        var index: [Pair: TrustFailureReason?]?

        /// What is known about a pair, without copying a failure reason (a large enum, copied
        /// through runtime value witnesses) on the common path, a verified signature.
        enum Known {
            case unknown
            case verified
            case failed(TrustFailureReason)
        }

        func known(_ pair: Pair) -> Known {
            if let index {
                guard let outcome = index[pair] else { return .unknown }
                return outcome.map(Known.failed) ?? .verified
            }
            for position in entries.indices where entries[position].pair == pair {
                let failure = entries[position].failure
                return failure < 0 ? .verified : .failed(failures[failure])
            }
            return .unknown
        }

        mutating func record(_ pair: Pair, outcome: TrustFailureReason?) {
            if index != nil {
                index?[pair] = .some(outcome)
            } else if entries.count < SignatureChecker.indexThreshold {
                if entries.isEmpty { entries.reserveCapacity(4) }
                var failure = -1
                if let outcome {
                    failure = failures.count
                    failures.append(outcome)
                }
                entries.append(Entry(pair: pair, failure: failure))
            } else {
                var table: [Pair: TrustFailureReason?] = [:]
                for entry in entries {
                    table[entry.pair] = .some(entry.failure < 0 ? nil : failures[entry.failure])
                }
                table[pair] = .some(outcome)
                index = table
                entries = []
                failures = []
            }
        }
    }

    private var memo = Memo()
    private static let indexThreshold = 8

    let policy: SignaturePolicy
    /// How many real signature verifications were made.
    private(set) var verificationCount = 0

    init(policy: SignaturePolicy) { self.policy = policy }

    /// Whether the pair was already checked in this evaluation (asking again costs nothing).
    func knows(child: Certificate, issuer: Certificate) -> Bool {
        if case .unknown = memo.known(Pair(child: child, issuer: issuer)) { return false }
        return true
    }

    /// Whether `child` was signed by `issuer`'s key; nil when it was, otherwise the reason.
    func failure(child: Certificate, issuer: Certificate) -> TrustFailureReason? {
        let pair = Pair(child: child, issuer: issuer)
        switch memo.known(pair) {
        case .verified: return nil
        case let .failed(reason): return reason
        case .unknown: break
        }
        verificationCount += 1
        let outcome = SignatureChecker.verify(child: child, issuer: issuer, policy: policy)
        memo.record(pair, outcome: outcome)
        return outcome
    }

    static func verify(child: Certificate, issuer: Certificate, policy: SignaturePolicy) -> TrustFailureReason? {
        do {
            // A remembered signature still meets the policy on every evaluation: the cache records only
            // libcrypto's answer (and the algorithm it was given), which an earlier, more lenient policy
            // may have asked for. The key described here is the one that verified (same SPKI bytes).
            if let algorithm = SignatureCache.shared.verifiedAlgorithm(child: child, issuer: issuer),
                let key = issuer.publicKeyDescription
            {
                try SignatureVerifier.checkAcceptable(algorithm: algorithm, key: key, policy: policy)
                return nil
            }
            let algorithm = try child.signatureAlgorithm()
            let key = try issuer.verificationKey()
            try SignatureVerifier.verify(
                signature: child.signature, over: child.tbsCertificateBytes,
                algorithm: algorithm, key: key, policy: policy
            )
            SignatureCache.shared.recordVerified(child: child, issuer: issuer, algorithm: algorithm)
            return nil
        } catch SignatureError.invalidSignature {
            return .signatureInvalid
        } catch {
            return .signatureUnverifiable(error)
        }
    }
}
