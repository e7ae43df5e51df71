import TrustCrypto
import TrustDER
import TrustTransparency
import TrustX509

/// How bad a failure is, in Apple's `SecTrustResultType` vocabulary.
public enum TrustFailureSeverity: Int, Comparable, Hashable, Sendable {
    /// The user could reasonably override it (expired, host mismatch, unknown root).
    case recoverable = 1
    /// Never overridable (bad signature, malformed or revoked certificate).
    case fatal = 2

    /// Orders by badness.
    public static func < (lhs: TrustFailureSeverity, rhs: TrustFailureSeverity) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The rule a certificate broke.
public indirect enum TrustFailureReason: Hashable, Sendable {
    /// The issuer's key does not verify the signature.
    case signatureInvalid
    /// The signature could not be checked: unsupported, legacy or malformed algorithm or key.
    case signatureUnverifiable(SignatureError)
    /// The verify date is after notAfter (RFC 5280 §6.1.3 (a)(2)).
    case expired(notAfter: DERTime)
    /// The verify date is before notBefore.
    case notYetValid(notBefore: DERTime)
    /// An issuing certificate is not a CA (basicConstraints cA missing or false, RFC 5280 §6.1.4 (k)).
    case notCA
    /// More intermediates follow than the pathLenConstraint allows (RFC 5280 §6.1.4 (l)).
    case pathLengthExceeded(limit: Int)
    /// An issuing certificate's keyUsage lacks keyCertSign (RFC 5280 §6.1.4 (n)).
    case missingKeyCertSign
    /// The leaf's keyUsage (`present`) lacks the key usage the options require
    /// (``TrustOptions/requiredLeafKeyUsage``, Apple's `SecPolicyCreateSSLWithKeyUsage`): every bit of
    /// one of `required`'s alternatives. Recoverable, as Apple's `KeyUsage` check.
    case requiredKeyUsageMissing(required: LeafKeyUsageRequirement, present: KeyUsage)
    /// The leaf's SPKI SHA-256 (`spkiSHA256`) is not among the `pinned` digests of
    /// ``TrustOptions/leafSPKISHA256`` (Apple's `kSecPolicyCheckLeafSPKISHA256`; an empty list
    /// matches nothing). Recoverable, as Apple's.
    case leafSPKISHA256NotPinned(spkiSHA256: [UInt8], pinned: [[UInt8]])
    /// No CA certificate of the chain (the `examined` certificates above the leaf, the anchor
    /// included; none for a chain of the leaf alone) has its SPKI SHA-256 among the `pinned` digests
    /// of ``TrustOptions/caSPKISHA256`` (Apple's `kSecPolicyCheckCAspkiSHA256`; an empty list
    /// matches nothing). About the whole chain. Recoverable, as Apple's.
    case caSPKISHA256NotPinned(pinned: [[UInt8]], examined: Int)
    /// The extendedKeyUsage does not allow the purpose.
    case extendedKeyUsageIncompatible(purpose: String)
    /// A name in the chain is outside a permitted subtree or inside an excluded one (RFC 5280 §4.2.1.10).
    /// `breach` says how; `constrainingCertificate` is the index of the CA whose constraints it
    /// breaks.
    case nameConstraintViolation(name: String, breach: NameConstraintBreach, constrainingCertificate: Int)
    /// No certificate policy acceptable to the caller is valid for the path, but one is required:
    /// by a policyConstraints requireExplicitPolicy or the caller's initial-explicit-policy
    /// (RFC 5280 §6.1.3 (f), §6.1.6).
    case explicitPolicyRequired
    /// A policyMappings extension maps to or from anyPolicy (RFC 5280 §6.1.4 (a)).
    case policyMappingInvalid
    /// A critical extension that is not processed (RFC 5280 §4.2).
    case unhandledCriticalExtension(name: String)
    /// A v1/v2 certificate used as an intermediate (only allowed as anchors).
    case versionNotAllowed(version: Int)
    /// A rule of the evaluation's ``TrustProfile`` the certificate breaks (docs/profiles.md).
    case profileViolation(ProfileViolation)
    /// A name constraint the CA that carries it cannot have meant (RFC 5280 §4.2.1.10), e.g. an
    /// iPAddress constraint without a mask of its address's length.
    case nameConstraintMalformed(MalformedNameConstraint)
    /// The host name or IP address is not in the certificate's SANs.
    case hostnameMismatch(expected: String, presented: [String])
    /// The name to match is not a valid DNS name, IP address or (for `.email`) mailbox.
    case invalidReferenceIdentity(String)
    /// The leaf's subjectAltName has no rfc822Name for the expected mailbox.
    case emailAddressMismatch(expected: String, presented: [String])
    /// No path to a trusted anchor was found.
    case untrustedRoot
    /// No issuer of this certificate is known.
    case issuerNotFound
    /// The chain would be longer than the maximum depth.
    case maximumDepthExceeded(limit: Int)
    /// The evaluation used up its ``VerificationBudget`` allowance of `resource` (`limit`) before it
    /// could decide: hostile or pathological input, rejected rather than worked on without bound.
    case budgetExhausted(resource: BudgetResource, limit: Int)
    /// The peer presented more certificates than an evaluation considers
    /// (``VerificationBudget/maximumPresentedCertificates``): rejected before any is indexed or compared.
    case tooManyCertificates(presented: Int, limit: Int)
    /// The extension `name` of the certificate parsed, but its value did not decode when validation
    /// read it (fail closed: it is not read as absent).
    case extensionUndecodable(name: String)
    /// The certificate parsed but has a semantic defect (RFC 5280 / RFC 4055), e.g. inner and
    /// outer signature algorithms that differ.
    case certificateDefect(CertificateDefect)
    /// The certificate is revoked: since `time`, for `reason` when the source gives one, according
    /// to `source`.
    case revoked(source: RevocationSource, time: DERTime, reason: CRLReason?)
    /// Revocation status was required but could not be established: `notes` say what was found and
    /// why it was not used, `fetchFailures` which fetches of the certificate's URLs gave nothing
    /// (both empty: no fresh CRL or OCSP response at all).
    case revocationUnavailable(notes: [RevocationProblem], fetchFailures: [FetchFailure])
    /// A CRL the caller supplied that covers the certificate fails its integrity checks.
    case revocationInformationInvalid(RevocationProblem)
    /// Certificate Transparency is required of the chain and its SCTs do not qualify it (Apple's
    /// `kSecPolicyCheckSystemTrustedCTRequired`: the SSL server policy, a chain ending at a system
    /// root, a leaf issued from 2018-10-16 and valid now, a fresh or caller-set log list); the
    /// evaluation says which SCTs counted and why the others did not.
    case certificateTransparencyRequired(CTEvaluation)
    /// No certificates were supplied.
    case noCertificates
    /// The verify date cannot be expressed as a time (not finite, or outside years 0…65535,
    /// `DERTime.maximumYear`);
    /// the associated value is the date as seconds since 1970.
    case verifyDateOutOfRange(String)
    /// The system trust store is needed but `SSL_CERT_FILE` / `SSL_CERT_DIR` configure one that
    /// cannot be used: nothing is trusted rather than the distribution bundle.
    case systemTrustStoreUnavailable(SystemTrustStoreError)

    /// `[A, B]` in base64, or `[] (an empty list matches nothing)`.
    private static func describe(_ pins: [[UInt8]]) -> String {
        pins.isEmpty ? "[] (an empty list matches nothing)" : "[" + pins.map { Base64.encode($0) }.joined(separator: ", ") + "]"
    }

    /// Whether the failure can be overridden by a user (Apple's recoverable) or not.
    public var severity: TrustFailureSeverity {
        switch self {
        case .signatureInvalid, .signatureUnverifiable, .extensionUndecodable, .certificateDefect, .revoked, .noCertificates, .budgetExhausted,
            .tooManyCertificates, .revocationInformationInvalid, .verifyDateOutOfRange, .systemTrustStoreUnavailable:
            return .fatal
        // Apple's WeakKeySize is fatal (SecPolicyChecks.list: F), the other profile rules recoverable.
        case let .profileViolation(violation) where violation.rule == .weakKeySize:
            return .fatal
        default:
            return .recoverable
        }
    }

    /// A short sentence describing the rule.
    public var summary: String {
        switch self {
        case .signatureInvalid: return "signature does not verify with the issuer's key"
        case let .signatureUnverifiable(error): return "signature cannot be checked: \(error)"
        case let .expired(notAfter): return "expired \(notAfter)"
        case let .notYetValid(notBefore): return "not valid before \(notBefore)"
        case .notCA: return "issues certificates but is not a CA (basicConstraints cA not set)"
        case let .pathLengthExceeded(limit): return "path length constraint \(limit) exceeded"
        case .missingKeyCertSign: return "issues certificates but keyUsage lacks keyCertSign"
        case let .requiredKeyUsageMissing(required, present):
            return "keyUsage \(present.names.joined(separator: "+")) lacks the key usage required: \(required)"
        case let .leafSPKISHA256NotPinned(digest, pinned):
            return "leaf SPKI SHA-256 \(Base64.encode(digest)) is not among the pinned \(Self.describe(pinned)) (kSecPolicyCheckLeafSPKISHA256)"
        case let .caSPKISHA256NotPinned(pinned, examined):
            let which = examined == 0 ? "the chain has no CA certificate" : "no SPKI SHA-256 of the \(examined) CA certificates above the leaf"
            return "\(which) among the pinned \(Self.describe(pinned)) (kSecPolicyCheckCAspkiSHA256)"
        case let .extendedKeyUsageIncompatible(purpose): return "extendedKeyUsage does not allow \(purpose)"
        case let .nameConstraintViolation(name, breach, constrainingCertificate):
            return "name \(name) violates name constraints: \(breach) (constraints of certificate \(constrainingCertificate))"
        case .explicitPolicyRequired: return "no acceptable certificate policy is valid for the path, but an explicit policy is required"
        case .policyMappingInvalid: return "policyMappings maps to or from anyPolicy"
        case let .unhandledCriticalExtension(name): return "unhandled critical extension \(name)"
        case let .versionNotAllowed(version): return "v\(version) certificate used as an intermediate (only allowed as a trust anchor)"
        case let .profileViolation(violation): return violation.description
        case let .nameConstraintMalformed(constraint): return "malformed name constraint: \(constraint)"
        case let .hostnameMismatch(expected, presented):
            return "host \(expected) not in SAN [\(presented.joined(separator: ", "))]"
        case let .invalidReferenceIdentity(name): return "\(name) is not a valid host name, IP address or email address"
        case let .emailAddressMismatch(expected, presented):
            return "email address \(expected) not in SAN [\(presented.joined(separator: ", "))]"
        case .untrustedRoot: return "chain does not end at a trusted anchor"
        case .issuerNotFound: return "issuer not found among the intermediates and anchors"
        case let .maximumDepthExceeded(limit): return "chain longer than the maximum depth \(limit)"
        case let .budgetExhausted(resource, limit): return "verification budget exhausted: more than \(limit) \(resource)"
        case let .tooManyCertificates(presented, limit):
            return "\(presented) certificates presented, more than the \(limit) an evaluation considers"
        case let .extensionUndecodable(name): return "malformed: \(name) could not be decoded"
        case let .certificateDefect(defect): return "defective certificate: \(defect)"
        case let .revoked(source, time, reason):
            return "revoked: revoked at \(time)\(reason.map { ", reason \($0)" } ?? "") according to \(source)"
        case let .revocationUnavailable(notes, fetchFailures):
            let reasons = notes.map(\.description) + fetchFailures.map(\.description)
            return "revocation status unavailable: " + (reasons.isEmpty ? "no fresh CRL or OCSP response" : reasons.joined(separator: "; "))
        case let .revocationInformationInvalid(problem): return "invalid revocation information: \(problem)"
        case let .certificateTransparencyRequired(evaluation):
            return "Certificate Transparency required under a system root (Apple SecPolicyCheckSystemTrustedCTRequired): \(evaluation)"
        case .noCertificates: return "no certificates to evaluate"
        case let .verifyDateOutOfRange(seconds):
            return "verify date (\(seconds) seconds since 1970) is not a time X.509 can express (finite, years 0000–\(DERTime.maximumYear))"
        case let .systemTrustStoreUnavailable(error): return "system trust store unavailable: \(error)"
        }
    }
}

/// One failure: the rule and the certificate that broke it.
public struct TrustFailure: Hashable, Sendable, CustomStringConvertible {
    /// The certificate's index in the chain (0 = leaf), or nil when the failure is about the whole chain.
    public let certificateIndex: Int?
    /// The certificate's subject in RFC 4514 form, when there is a certificate.
    public let subject: String?
    /// The rule that was broken.
    public let reason: TrustFailureReason

    /// Creates a failure about `certificate` at `index`.
    public init(_ reason: TrustFailureReason, certificate: Certificate?, index: Int?) {
        self.reason = reason
        self.certificateIndex = index
        self.subject = certificate?.subject.description
    }

    /// `certificate 1 (CN=…): expired 2015-07-13T00:00:00Z`.
    public var description: String {
        guard let index = certificateIndex else { return reason.summary }
        let name = subject.map { $0.isEmpty ? "(empty subject)" : $0 } ?? "?"
        return "certificate \(index) (\(name)): \(reason.summary)"
    }
}
