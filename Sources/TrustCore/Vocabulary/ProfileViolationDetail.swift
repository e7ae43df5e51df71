import TrustCrypto
import TrustX509

/// What exactly a certificate did wrong under a ``ProfileRule``: one case per finding, with the
/// measured values (key size, lifetime, the offending name) as typed fields, so a caller switches on
/// the case rather than reading the text. ``description`` is the text reports print.
public enum ProfileViolationDetail: Hashable, Sendable, CustomStringConvertible {
    // MARK: Subject and issuer names

    /// The subject is empty in a CA certificate (``ProfileRule/nonEmptySubject``).
    case emptySubjectInCA
    /// The subject is empty but the subjectAltName is missing or not critical (``ProfileRule/nonEmptySubject``).
    case emptySubjectWithoutCriticalSubjectAltName
    /// A CA certificate's subject is empty (``ProfileRule/caSubjectNonEmpty``).
    case caSubjectEmpty
    /// The issuer name is empty (``ProfileRule/issuerNonEmpty``).
    case emptyIssuer

    // MARK: Keys

    /// The public key cannot be parsed or used (``ProfileRule/weakKeySize``, ``ProfileRule/strongKeySize``).
    case unusablePublicKey
    /// An RSA key under the 1024 bits Apple calls weak (``ProfileRule/weakKeySize``).
    case weakRSAKey(bits: Int)
    /// An RSA key smaller than the `minimumBits` in force (``ProfileRule/strongKeySize``,
    /// ``ProfileRule/keyAlgorithm``).
    case rsaKeyTooSmall(bits: Int, minimumBits: Int)
    /// An RSA modulus whose size is not a multiple of 8 bits (``ProfileRule/keyAlgorithm``).
    case rsaModulusNotMultipleOf8(bits: Int)
    /// A public key algorithm (dotted OID) outside RSA, ECDSA P-256/384/521 and EdDSA (``ProfileRule/keyAlgorithm``).
    case publicKeyAlgorithmNotAllowed(algorithmOID: String)
    /// The public key was refused when parsed, with libcrypto's or the parser's reason when known
    /// (``ProfileRule/keyAlgorithm``).
    case publicKeyRejected(SignatureError?)
    /// A key of a kind (e.g. `Ed25519`) that Apple's TLS server key-size table does not list, so it
    /// cannot meet it (``ProfileRule/strongKeySize``).
    case keyNotInServerKeySizeTable(String)
    /// An EC key on a curve smaller than `minimumBits` (``ProfileRule/strongKeySize``: P-192, P-224).
    case ecKeyTooSmall(bits: Int, minimumBits: Int)
    /// An EC key on a curve the CA/Browser Forum does not allow, e.g. `P-224` (``ProfileRule/keyAlgorithm``).
    case curveNotAllowed(String)

    // MARK: Signatures

    /// The certificate is signed with a hash Apple refuses in TLS server chains, e.g.
    /// `sha1WithRSAEncryption` (``ProfileRule/signatureHashAlgorithm``).
    case weakSignatureHash(algorithm: String)

    // MARK: TLS server leaves (Apple)

    /// A TLS server leaf lacks extendedKeyUsage serverAuth: under a system root, or issued after
    /// 2019-06-30T23:00Z (``ProfileRule/serverAuthExtendedKeyUsageRequired``).
    case serverAuthExtendedKeyUsageMissing(underSystemRoot: Bool)
    /// A TLS server leaf valid for `days` days, more than `limit` allows
    /// (``ProfileRule/leafValidityPeriod``, ``ProfileRule/systemTrustedLeafValidityPeriod``).
    case leafValidityTooLong(days: Int64, limit: LeafValidityLimit)

    // MARK: Serial number and version

    /// The serial number is zero or negative (``ProfileRule/serialNumber``).
    case serialNumberNotPositive
    /// The serial number is longer than 20 octets (``ProfileRule/serialNumber``).
    case serialNumberTooLong
    /// A v1 or v2 certificate that is not a trust anchor (``ProfileRule/version3``).
    case versionNot3(version: Int)

    // MARK: Key identifiers

    /// authorityKeyIdentifier is marked critical (``ProfileRule/authorityKeyIdentifier``).
    case authorityKeyIdentifierCritical
    /// authorityKeyIdentifier is missing from a certificate that is not self-signed (``ProfileRule/authorityKeyIdentifier``).
    case authorityKeyIdentifierMissing
    /// A trust anchor issued by another CA lacks authorityKeyIdentifier (``ProfileRule/anchorProfile``).
    case anchorAuthorityKeyIdentifierMissing
    /// A self-signed certificate's authorityKeyIdentifier holds more than a keyIdentifier
    /// (``ProfileRule/rootAuthorityKeyIdentifier``).
    case rootAuthorityKeyIdentifierNotKeyIdentifierOnly
    /// A self-signed certificate's authorityKeyIdentifier differs from its subjectKeyIdentifier
    /// (``ProfileRule/rootAuthorityKeyIdentifier``).
    case rootAuthorityKeyIdentifierMismatch
    /// subjectKeyIdentifier is marked critical (``ProfileRule/subjectKeyIdentifier``).
    case subjectKeyIdentifierCritical
    /// A CA certificate lacks subjectKeyIdentifier (``ProfileRule/subjectKeyIdentifier``).
    case caSubjectKeyIdentifierMissing
    /// A trust anchor lacks subjectKeyIdentifier (``ProfileRule/anchorProfile``).
    case anchorSubjectKeyIdentifierMissing
    /// The authorityKeyIdentifier of the certificate at `childIndex` does not name this issuer's
    /// subjectKeyIdentifier (``ProfileRule/keyIdentifierLinkage``).
    case authorityKeyIdentifierDoesNotMatchIssuer(childIndex: Int)

    // MARK: Extensions

    /// A self-signed root carries extendedKeyUsage (``ProfileRule/rootWithoutExtendedKeyUsage``).
    case rootHasExtendedKeyUsage
    /// basicConstraints is not critical in a CA certificate (``ProfileRule/basicConstraintsCritical``).
    case basicConstraintsNotCritical
    /// keyUsage keyCertSign without basicConstraints cA (``ProfileRule/keyUsageConsistency``).
    case keyCertSignWithoutCA
    /// basicConstraints cA without keyUsage keyCertSign (``ProfileRule/keyUsageConsistency``).
    case caWithoutKeyCertSign
    /// nameConstraints in a certificate that is not a CA (``ProfileRule/nameConstraintsInCAOnly``).
    case nameConstraintsInNonCA
    /// nameConstraints is not critical (``ProfileRule/nameConstraintsCritical``).
    case nameConstraintsNotCritical
    /// policyConstraints is not critical (``ProfileRule/policyConstraintsCritical``).
    case policyConstraintsNotCritical
    /// authorityInfoAccess is marked critical (``ProfileRule/authorityInfoAccessNonCritical``).
    case authorityInfoAccessCritical
    /// basicConstraints carries pathLenConstraint `pathLength` without asserting cA
    /// (``ProfileRule/pathLenConstraintInCAOnly``).
    case pathLenConstraintWithoutCA(pathLength: Int)

    // MARK: Subject alternative names

    /// subjectAltName is not critical although the subject is empty (``ProfileRule/subjectAltNameCriticality``).
    case subjectAltNameNotCriticalWithEmptySubject
    /// A leaf's subjectAltName is critical although the subject is not empty (``ProfileRule/subjectAltNameCriticality``).
    case subjectAltNameCriticalWithSubject
    /// The subject is empty and there is no subjectAltName (``ProfileRule/subjectAltNameCriticality``).
    case emptySubjectWithoutSubjectAltName
    /// A dNSName entry that is not a preferred-name-syntax host name (``ProfileRule/subjectAltNameSyntax``).
    case invalidDNSName(String)
    /// A dNSName entry that is an IP address (``ProfileRule/subjectAltNameSyntax``).
    case ipAddressAsDNSName(String)
    /// An iPAddress entry of neither 4 nor 16 octets (``ProfileRule/subjectAltNameSyntax``).
    case invalidIPAddressLength(octets: Int)
    /// An rfc822Name entry that is not a mailbox (``ProfileRule/subjectAltNameSyntax``).
    case invalidMailbox(String)

    // MARK: Encoding and name constraints

    /// A DEFAULT value written out, read as omitted (``ProfileRule/derDefaultOmitted``).
    case explicitDefaultValue(EncodingFinding)
    /// A nameConstraints dNSName base that is not a preferred-name-syntax host name, e.g. with a
    /// leading period or an underscore (``ProfileRule/nameConstraintsDNSNameSyntax``).
    case invalidDNSNameConstraint(String)
    /// A critical nameConstraints extension constrains a name form that cannot be checked: `form` is
    /// `otherName`, `x400Address`, `ediPartyName` or `registeredID`
    /// (``ProfileRule/nameConstraintsFormsSupported``).
    case unsupportedCriticalNameConstraint(form: String)

    // MARK: Subscriber certificates (CA/Browser Forum)

    /// The leaf has no subjectAltName (``ProfileRule/leafSubjectAltNameRequired``).
    case leafSubjectAltNameMissing
    /// The leaf's extKeyUsage is critical (``ProfileRule/leafExtendedKeyUsage``).
    case leafExtendedKeyUsageCritical
    /// The leaf has no extKeyUsage (``ProfileRule/leafExtendedKeyUsage``).
    case leafExtendedKeyUsageMissing
    /// The leaf's extKeyUsage contains anyExtendedKeyUsage (``ProfileRule/leafExtendedKeyUsage``).
    case leafAnyExtendedKeyUsage
    /// A CA certificate used as the leaf (``ProfileRule/caCertificateAsLeaf``).
    case caCertificateAsLeaf

    // MARK: SPIFFE X.509-SVIDs

    /// The leaf has no URI subjectAltName (``ProfileRule/svidSingleURI``).
    case svidWithoutURI
    /// The leaf has `count` URI subjectAltNames, more than one (``ProfileRule/svidSingleURI``).
    case svidWithSeveralURIs(count: Int)
    /// The leaf's URI subjectAltName is not a SPIFFE ID: `error` names the rule of SPIFFE-ID it
    /// breaks (``ProfileRule/svidSPIFFEID``).
    case invalidSPIFFEID(uri: String, error: SPIFFEIDError)
    /// The leaf's SPIFFE ID has no path: it is the trust domain's own ID (``ProfileRule/svidSPIFFEID``).
    case svidSPIFFEIDWithoutPath(SPIFFEID)
    /// The leaf asserts basicConstraints cA (``ProfileRule/svidLeafNotCA``).
    case svidLeafIsCA
    /// The leaf has no keyUsage extension (``ProfileRule/svidLeafDigitalSignature``).
    case svidLeafWithoutKeyUsage
    /// The leaf's keyUsage lacks digitalSignature (``ProfileRule/svidLeafDigitalSignature``).
    case svidLeafWithoutDigitalSignature
    /// The leaf's keyUsage sets keyCertSign (``ProfileRule/svidLeafNotSigner``).
    case svidLeafKeyCertSign
    /// The leaf's keyUsage sets cRLSign (``ProfileRule/svidLeafNotSigner``).
    case svidLeafCRLSign
    /// A signing certificate (above the leaf) has no keyUsage extension
    /// (``ProfileRule/svidSigningCertificateKeyUsage``).
    case svidSigningCertificateWithoutKeyUsage

    /// The finding in words, e.g. `RSA key of 1024 bits (at least 2048 required)`.
    public var description: String {
        switch self {
        case .emptySubjectInCA: return "subject is empty in a CA certificate"
        case .emptySubjectWithoutCriticalSubjectAltName: return "subject is empty and subjectAltName is not critical"
        case .caSubjectEmpty: return "CA certificate has an empty subject"
        case .emptyIssuer: return "issuer name is empty"
        case .unusablePublicKey: return "public key cannot be used"
        case let .weakRSAKey(bits): return "RSA key of \(bits) bits (under 1024 is weak)"
        case let .rsaKeyTooSmall(bits, minimumBits): return "RSA key of \(bits) bits (at least \(minimumBits) required)"
        case let .rsaModulusNotMultipleOf8(bits): return "RSA modulus of \(bits) bits is not a multiple of 8 (CABF 6.1.5)"
        case let .publicKeyAlgorithmNotAllowed(oid): return "public key algorithm \(oid) is not allowed"
        case let .publicKeyRejected(error): return "public key rejected" + (error.map { ": \($0)" } ?? "")
        case let .ecKeyTooSmall(bits, minimumBits): return "EC key of \(bits) bits (at least \(minimumBits) required)"
        case let .curveNotAllowed(curve): return "curve \(curve) is not allowed (P-256, P-384 or P-521)"
        case let .keyNotInServerKeySizeTable(kind): return "\(kind) key is not in the TLS server key-size table (RSA, EC)"
        case let .weakSignatureHash(algorithm): return "signed with \(algorithm) (SHA-1 is refused in TLS server chains)"
        case let .serverAuthExtendedKeyUsageMissing(underSystemRoot):
            return underSystemRoot
                ? "leaf under a system root lacks extendedKeyUsage serverAuth"
                : "leaf issued after 2019-06-30T23:00Z lacks extendedKeyUsage serverAuth"
        case let .leafValidityTooLong(days, limit): return "leaf valid for \(days) days (\(limit))"
        case .serialNumberNotPositive: return "serial number must be positive"
        case .serialNumberTooLong: return "serial number longer than 20 octets"
        case let .versionNot3(version): return "v\(version) certificate (the web PKI requires v3)"
        case .authorityKeyIdentifierCritical: return "authorityKeyIdentifier is critical"
        case .authorityKeyIdentifierMissing: return "authorityKeyIdentifier missing"
        case .anchorAuthorityKeyIdentifierMissing: return "trust anchor issued by another CA lacks authorityKeyIdentifier"
        case .rootAuthorityKeyIdentifierNotKeyIdentifierOnly:
            return "self-signed certificate's authorityKeyIdentifier must hold only keyIdentifier"
        case .rootAuthorityKeyIdentifierMismatch:
            return "self-signed certificate's authorityKeyIdentifier differs from its subjectKeyIdentifier"
        case .subjectKeyIdentifierCritical: return "subjectKeyIdentifier is critical"
        case .caSubjectKeyIdentifierMissing: return "CA certificate lacks subjectKeyIdentifier"
        case .anchorSubjectKeyIdentifierMissing: return "trust anchor lacks subjectKeyIdentifier"
        case let .authorityKeyIdentifierDoesNotMatchIssuer(childIndex):
            return "certificate \(childIndex)'s authorityKeyIdentifier does not match this issuer's subjectKeyIdentifier"
        case .rootHasExtendedKeyUsage: return "root carries extendedKeyUsage"
        case .basicConstraintsNotCritical: return "basicConstraints is not critical in a CA certificate"
        case .keyCertSignWithoutCA: return "keyUsage keyCertSign without basicConstraints cA"
        case .caWithoutKeyCertSign: return "basicConstraints cA without keyUsage keyCertSign"
        case .nameConstraintsInNonCA: return "nameConstraints in a non-CA certificate"
        case .nameConstraintsNotCritical: return "nameConstraints is not critical"
        case .policyConstraintsNotCritical: return "policyConstraints is not critical"
        case .authorityInfoAccessCritical: return "authorityInfoAccess is critical"
        case let .pathLenConstraintWithoutCA(pathLength):
            return "basicConstraints pathLenConstraint \(pathLength) without cA"
        case .subjectAltNameNotCriticalWithEmptySubject: return "subjectAltName is not critical although the subject is empty"
        case .subjectAltNameCriticalWithSubject: return "subjectAltName is critical although the subject is not empty"
        case .emptySubjectWithoutSubjectAltName: return "empty subject without subjectAltName"
        case let .invalidDNSName(name): return "subjectAltName dNSName \"\(name)\" is not a valid host name"
        case let .ipAddressAsDNSName(name): return "subjectAltName dNSName \"\(name)\" is an IP address, not a host name"
        case let .invalidIPAddressLength(octets): return "subjectAltName iPAddress has \(octets) octets"
        case let .invalidMailbox(name): return "subjectAltName rfc822Name \"\(name)\" is not a mailbox"
        case .leafSubjectAltNameMissing: return "leaf has no subjectAltName"
        case .leafExtendedKeyUsageCritical: return "leaf extKeyUsage is critical"
        case .leafExtendedKeyUsageMissing: return "leaf has no extKeyUsage"
        case .leafAnyExtendedKeyUsage: return "leaf extKeyUsage contains anyExtendedKeyUsage"
        case .caCertificateAsLeaf: return "a CA certificate (basicConstraints cA) used as the leaf"
        case .svidWithoutURI: return "leaf has no URI subjectAltName (an X.509-SVID has exactly one, its SPIFFE ID)"
        case let .svidWithSeveralURIs(count): return "leaf has \(count) URI subjectAltNames (an X.509-SVID has exactly one)"
        case let .invalidSPIFFEID(uri, error):
            return "URI subjectAltName \"\(TerminalText.escaped(uri))\" is not a SPIFFE ID: \(error)"
        case let .svidSPIFFEIDWithoutPath(id):
            return "leaf SPIFFE ID \(TerminalText.escaped(id.description)) has no path (a leaf SVID's ID names a workload, not the trust domain)"
        case .svidLeafIsCA: return "leaf asserts basicConstraints cA (an X.509-SVID leaf is not a CA)"
        case .svidLeafWithoutKeyUsage: return "leaf has no keyUsage (an X.509-SVID sets digitalSignature)"
        case .svidLeafWithoutDigitalSignature: return "leaf keyUsage lacks digitalSignature"
        case .svidLeafKeyCertSign: return "leaf keyUsage sets keyCertSign"
        case .svidLeafCRLSign: return "leaf keyUsage sets cRLSign"
        case .svidSigningCertificateWithoutKeyUsage: return "signing certificate has no keyUsage (an X.509-SVID signing certificate sets keyCertSign)"
        case let .explicitDefaultValue(finding): return finding.description
        case let .invalidDNSNameConstraint(name): return "nameConstraints dNSName \"\(name)\" is not a host name in preferred name syntax"
        case let .unsupportedCriticalNameConstraint(form): return "critical nameConstraints constrain \(form) names, which cannot be checked"
        }
    }
}

/// The lifetime a TLS server leaf may have under Apple's policy, by when it was issued and what
/// anchors it.
public enum LeafValidityLimit: Hashable, Sendable, CustomStringConvertible {
    /// Issued from 2019-07-01 (Apple's 2019-06-30T23:00Z): at most 825 days.
    case issuedFromJuly2019
    /// Under a system root, issued from 2018-03-01: at most 825 days.
    case systemTrustedFromMarch2018
    /// Under a system root, issued from 2020-09-01: at most 398 days.
    case systemTrustedFromSeptember2020

    /// The longest lifetime allowed, in whole days (Apple allows one hour more for the 825-day limits).
    public var maximumDays: Int {
        switch self {
        case .issuedFromJuly2019, .systemTrustedFromMarch2018: return 825
        case .systemTrustedFromSeptember2020: return 398
        }
    }

    /// `at most 825 for leaves issued from 2019-07-01`.
    public var description: String {
        switch self {
        case .issuedFromJuly2019: return "at most 825 for leaves issued from 2019-07-01"
        case .systemTrustedFromMarch2018: return "at most 825 under a system root from 2018-03-01"
        case .systemTrustedFromSeptember2020: return "at most 398 under a system root from 2020-09-01"
        }
    }
}
