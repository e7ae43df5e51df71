/// One certificate-profile rule that a ``TrustProfile`` applies on top of RFC 5280 path validation.
/// A profile is the set of rules it applies (``TrustProfile/rules``). Each rule's profiles, source,
/// summary and check sit together in its family's file (`Sources/TrustCore/ProfileRules/`);
/// docs/profiles.md prints the table (`trustctl profiles --markdown` regenerates it).
///
/// RFC 5280 §6.1 itself (signatures, validity, issuers being CAs, path length, keyCertSign, name
/// constraints, certificate policies, critical extensions) is not listed here: every profile
/// applies it, and its failures have their own ``TrustFailureReason`` cases.
public enum ProfileRule: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    // MARK: Apple's SSL policy (SecPolicyCreateSSL), also applied by the web-PKI profile

    /// An authorityKeyIdentifier keyIdentifier equals the issuer's subjectKeyIdentifier when both
    /// are present, for every pair in the chain.
    case keyIdentifierLinkage
    /// An empty subject only in a non-CA certificate with a critical subjectAltName.
    case nonEmptySubject
    /// No certificate, the anchor included, has an RSA key under 1024 bits, an EC key under 160
    /// bits, or a key of a kind Apple does not know (DSA, unknown algorithms).
    case weakKeySize
    /// TLS server chains: RSA keys of at least 2048 bits and EC keys of at least 256 bits in every
    /// certificate, the anchor included; EdDSA keys are not in Apple's table (not when the leaf
    /// itself is an administrator's root).
    case strongKeySize
    /// A TLS server leaf names serverAuth in an extendedKeyUsage extension: always under a system
    /// root; under other roots but administrators' when issued after 2019-06-30T23:00Z.
    case serverAuthExtendedKeyUsageRequired
    /// A TLS server leaf issued from 2019-06-30T23:00Z is valid for at most 825 days and one hour
    /// (not when the leaf itself is an administrator's root).
    case leafValidityPeriod
    /// Under a system root, a TLS server leaf issued from 2018-03-01 is valid for at most 825 days
    /// and one hour, and one issued from 2020-09-01 for at most 398 days.
    case systemTrustedLeafValidityPeriod
    /// An intermediate CA that carries extendedKeyUsage lists the purpose or anyExtendedKeyUsage.
    case issuerExtendedKeyUsage
    /// The trust anchor is within its validity period.
    case anchorValidity
    /// A v3 trust anchor that issued the next certificate asserts basicConstraints cA, and
    /// keyCertSign when it has keyUsage.
    case anchorIsCA

    // MARK: RFC 5280 §4 certificate-profile MUSTs (strict RFC 5280 and web PKI)

    /// Serial numbers are positive and at most 20 octets.
    case serialNumber
    /// The issuer name is non-empty.
    case issuerNonEmpty
    /// authorityKeyIdentifier is present except in self-signed certificates, and non-critical.
    case authorityKeyIdentifier
    /// subjectKeyIdentifier is present in CA certificates and non-critical.
    case subjectKeyIdentifier
    /// basicConstraints is critical in CA certificates.
    case basicConstraintsCritical
    /// keyUsage keyCertSign only with basicConstraints cA, and cA only with keyCertSign.
    case keyUsageConsistency
    /// A CA certificate's subject is non-empty.
    case caSubjectNonEmpty
    /// nameConstraints appear only in CA certificates.
    case nameConstraintsInCAOnly
    /// nameConstraints is critical (the CA/Browser Forum allows it non-critical, so the web-PKI
    /// profile does not apply this rule).
    case nameConstraintsCritical
    /// policyConstraints is critical.
    case policyConstraintsCritical
    /// authorityInfoAccess is non-critical.
    case authorityInfoAccessNonCritical
    /// subjectAltName is critical exactly when the subject is empty, and present then.
    case subjectAltNameCriticality
    /// subjectAltName entries are well-formed: dNSName preferred-name syntax (not an IP address),
    /// iPAddress of 4 or 16 octets, rfc822Name a mailbox.
    case subjectAltNameSyntax
    /// The trust anchor is held to the certificate profile too: its critical extensions are
    /// understood and it has a subjectKeyIdentifier (otherwise an anchor is a name and a key,
    /// RFC 5280 §6.1.1 (d)).
    case anchorProfile

    // MARK: CA/Browser Forum Baseline Requirements (web PKI only)

    /// Only v3 certificates, except trust anchors.
    case version3
    /// A self-signed certificate's authorityKeyIdentifier holds only a keyIdentifier equal to its
    /// subjectKeyIdentifier.
    case rootAuthorityKeyIdentifier
    /// A subscriber certificate has a subjectAltName.
    case leafSubjectAltNameRequired
    /// A subscriber's extKeyUsage is present, non-critical and never anyExtendedKeyUsage (not
    /// required of a leaf the caller trusts directly).
    case leafExtendedKeyUsage
    /// A trust anchor that carries extendedKeyUsage lists the purpose or anyExtendedKeyUsage.
    case anchorExtendedKeyUsage
    /// A self-signed root carries no extendedKeyUsage.
    case rootWithoutExtendedKeyUsage
    /// RSA moduli of at least 2048 bits and a multiple of 8; keys are RSA, ECDSA P-256/384/521 or
    /// EdDSA (EdDSA is a deliberate extension).
    case keyAlgorithm
    /// A CA certificate is never a TLS leaf (unless the caller trusts it as an anchor itself).
    case caCertificateAsLeaf

    // MARK: Apple's SSL server policy, continued

    /// TLS server chains: no certificate is signed with SHA-1 (or MD2/4/5), except self-signed ones
    /// and an administrator's root.
    case signatureHashAlgorithm

    // MARK: RFC 5280 where Apple allows more (RFC 5280 profiles only)

    /// A v1 or v2 certificate issues others only as a trust anchor (Apple also accepts v1/v2
    /// intermediates below a v1/v2 anchor).
    case version1IssuersOnlyAsAnchors
    /// Every critical extension is one SwiftTrust processes (Apple also accepts the critical
    /// extensions trustd parses without enforcing: privateKeyUsagePeriod, subjectInfoAccess, Netscape
    /// certificate type, QCStatements, OCSP no-check, Entrust version and Apple's own arcs).
    case criticalExtensionsProcessed
    /// With `.requirePositiveResponse`, every non-anchor certificate needs fresh proof of good status
    /// (Apple requires it of the leaf only).
    case revocationProofForEveryCertificate

    // MARK: Where RFC 5280 or the web PKI is stricter than Apple (not the ssl and basic profiles)

    /// No DEFAULT value is written out: basicConstraints cA FALSE, an extension's critical FALSE, a
    /// GeneralSubtree minimum 0 (`EncodingFinding`). The parser reads them as omitted,
    /// as Apple's `SecCertificateParse` does; strict DER parsers (pyca/cryptography) refuse them.
    case derDefaultOmitted
    /// nameConstraints dNSName bases are host names in preferred name syntax (RFC 5280 §4.2.1.10):
    /// no leading period, no underscore. Every profile accepts `.example.com` as "proper subdomains
    /// of example.com", as Apple's `SecDNSNameConstraintsMatch`, OpenSSL and Go read it.
    case nameConstraintsDNSNameSyntax
    /// An intermediate's critical nameConstraints extension constrains only name forms that can be
    /// checked (rfc822Name, dNSName, directoryName, URI, iPAddress), whether or not a name of another
    /// form appears in the chain. (A non-critical one fails only a name of such a form, under every
    /// profile; a trust anchor's constraints are applied without this check, as Apple applies them.)
    case nameConstraintsFormsSupported
    /// An extendedKeyUsage allows a purpose only by listing it (or anyExtendedKeyUsage): Apple's SSL
    /// policy also takes the Netscape and Microsoft Server Gated Cryptography purposes for serverAuth.
    case extendedKeyUsagePurposeListed

    // MARK: SPIFFE X.509-SVIDs (spiffe/spiffe standards/X509-SVID.md; the spiffe profile only)

    /// The leaf has exactly one URI subjectAltName (X509-SVID §2, §5.2: an SVID with more than one
    /// is rejected).
    case svidSingleURI
    /// The leaf's URI subjectAltName is a valid SPIFFE ID (``SPIFFEID``: SPIFFE-ID §2) with a path
    /// (X509-SVID §3.1, §5.2: a leaf's SPIFFE ID is not the trust domain's own).
    case svidSPIFFEID
    /// The leaf is not a CA: basicConstraints cA is false or absent (X509-SVID §4.1, §5.2).
    case svidLeafNotCA
    /// The leaf has keyUsage, with digitalSignature (X509-SVID §4.3). (Its criticality, which §4.3
    /// asks of whoever issues SVIDs, is not checked: go-spiffe does not check it either.)
    case svidLeafDigitalSignature
    /// The leaf's keyUsage sets neither keyCertSign nor cRLSign (X509-SVID §4.3, §5.2).
    case svidLeafNotSigner
    /// Every signing certificate (each certificate above the leaf, the trust anchor included) has
    /// keyUsage (X509-SVID §3.2, §4.3). That it then sets keyCertSign is RFC 5280 §6.1.4 (n)'s
    /// failure for intermediates and ``anchorIsCA``'s for the anchor, reported once, as theirs.
    case svidSigningCertificateKeyUsage

    // MARK: Appended later (a rule's bit is its declaration index, so new rules go here)

    /// basicConstraints carries pathLenConstraint only when cA is asserted (RFC 5280 §4.2.1.9: "CAs
    /// MUST NOT include the pathLenConstraint field unless the cA boolean is asserted"; CABF
    /// 7.1.2.7.8: a subscriber certificate's MUST NOT be present). Apple's `SecCEPBasicConstraints`
    /// reads the field whatever cA says, and no path length applies below a non-CA.
    case pathLenConstraintInCAOnly

    /// The rule's name as written in docs/profiles.md.
    public var description: String { rawValue }
}

extension TrustProfile {
    /// The profile rules this profile applies (computed once per profile: every evaluation asks).
    public var rules: ProfileRuleSet {
        switch self {
        case .rfc5280: return TrustProfile.rfc5280Rules
        case .rfc5280Strict: return TrustProfile.rfc5280StrictRules
        case .basicX509: return TrustProfile.basicX509Rules
        case .ssl: return TrustProfile.sslRules
        case .webPKI: return TrustProfile.webPKIRules
        case .spiffe: return TrustProfile.spiffeRules
        }
    }

    private static func collectRules(_ profile: TrustProfile) -> ProfileRuleSet {
        ProfileRuleSet(ProfileRule.allCases.filter { $0.profiles.contains(profile) })
    }

    private static let rfc5280Rules = collectRules(.rfc5280)
    private static let rfc5280StrictRules = collectRules(.rfc5280Strict)
    private static let basicX509Rules = collectRules(.basicX509)
    private static let sslRules = collectRules(.ssl)
    private static let webPKIRules = collectRules(.webPKI)
    private static let spiffeRules = collectRules(.spiffe)
}

/// A set of ``ProfileRule``s, one bit per rule: what a profile (or several policies together)
/// applies, cheap to copy, compare and use as part of a cache key.
public struct ProfileRuleSet: Hashable, Sendable, Sequence {
    /// One bit per ``ProfileRule``: bit *n* is the rule declared *n*th, in the append-only order `ProfileRuleBitOrderTests` keeps.
    public private(set) var bits: UInt64

    /// The empty set.
    public init() { bits = 0 }

    /// The set of `rules`.
    public init<Rules: Sequence>(_ rules: Rules) where Rules.Element == ProfileRule {
        bits = 0
        for rule in rules { insert(rule) }
    }

    /// Whether the set has no rule.
    public var isEmpty: Bool { bits == 0 }

    /// Whether `rule` is in the set.
    public func contains(_ rule: ProfileRule) -> Bool { bits & rule.bit != 0 }

    /// Adds `rule`.
    public mutating func insert(_ rule: ProfileRule) { bits |= rule.bit }

    /// The rules in both sets.
    public func intersection(_ other: ProfileRuleSet) -> ProfileRuleSet {
        var result = self
        result.bits &= other.bits
        return result
    }

    /// The rules of both sets.
    public func union(_ other: ProfileRuleSet) -> ProfileRuleSet {
        var result = self
        result.bits |= other.bits
        return result
    }

    /// The rules in declaration order.
    public func makeIterator() -> IndexingIterator<[ProfileRule]> { ProfileRule.allCases.filter(contains).makeIterator() }
}

/// A broken ``ProfileRule``: the rule and what exactly was wrong, both typed, so a caller switches
/// on them (`case .rsaKeyTooSmall(let bits, _)`) and never reads the text.
public struct ProfileViolation: Hashable, Sendable, CustomStringConvertible {
    /// The rule broken.
    public let rule: ProfileRule
    /// What was found, e.g. ``ProfileViolationDetail/rsaKeyTooSmall(bits:minimumBits:)``.
    public let detail: ProfileViolationDetail

    /// Creates a violation of `rule`.
    public init(_ rule: ProfileRule, _ detail: ProfileViolationDetail) {
        self.rule = rule
        self.detail = detail
    }

    /// `detail (source)`.
    public var description: String { "\(detail) (\(rule.source))" }
}
