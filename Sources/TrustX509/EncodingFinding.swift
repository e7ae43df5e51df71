/// An encoding that DER or RFC 5280 does not allow, which the certificate parser reads as Apple's
/// `SecCertificateCreateWithBytes` reads it. Two kinds:
///
/// - a value equal to its DEFAULT written out, which DER omits (X.690 §11.5), read as the DEFAULT,
///   as Apple, OpenSSL, Go and Chromium read it;
/// - a nameConstraints otherName base whose value lacks its `[0] EXPLICIT` wrapper, read as the
///   value, as Apple reads it (its parser keeps subtree bases undecoded; Go skips otherName
///   subtrees; OpenSSL parses the certificate, but its `ossl_x509v3_cache_extensions` cannot decode
///   the extension and marks the certificate invalid, so OpenSSL's verification refuses it).
///
/// Unlike a ``CertificateDefect``, a finding does not fail validation by itself: the strict profiles
/// refuse DEFAULT values written out (SwiftTrust's `derDefaultOmitted` profile rule), and an
/// otherName constraint is judged by its form as any other (it constrains only otherName names, and
/// a critical one on an intermediate fails where Apple's `SecNameConstraintsAreSubtreesSupported`
/// fails it). Each finding is recorded in ``Certificate/encodingFindings`` with the byte offset of
/// the value.
public enum EncodingFinding: Hashable, Sendable, CustomStringConvertible {
    /// basicConstraints with `cA FALSE` written out (RFC 5280 §4.2.1.9: `cA BOOLEAN DEFAULT FALSE`).
    /// Apple reads it with `DERParseBooleanWithDefault` in `SecCEPBasicConstraints`.
    case explicitCAFalse(offset: Int)
    /// An Extension with `critical FALSE` written out (RFC 5280 §4.1: `critical BOOLEAN DEFAULT
    /// FALSE`); `extensionName` names the extension (e.g. `subjectAltName`, or its dotted OID).
    /// Apple reads it with `DERParseBooleanWithDefault` in `SecCertificateParse`.
    case explicitCriticalFalse(extensionName: String, offset: Int)
    /// A nameConstraints GeneralSubtree with `minimum 0` written out (RFC 5280 §4.2.1.10:
    /// `minimum [0] BaseDistance DEFAULT 0`). Apple's `parseGeneralSubtrees` accepts it.
    case explicitSubtreeMinimumZero(offset: Int)
    /// A nameConstraints GeneralSubtree base that is an otherName whose value follows the type-id
    /// directly, without the `[0] EXPLICIT` wrapper RFC 5280 §4.2.1.6 requires (`value [0] EXPLICIT
    /// ANY DEFINED BY type-id`). `offset` is that of the value. Apple's `parseGeneralSubtrees` keeps
    /// the base undecoded and trustd's name-constraint code never decodes an otherName, so Apple
    /// accepts the certificate.
    case unwrappedOtherNameValue(offset: Int)

    /// The byte offset in the certificate's DER of the value.
    public var offset: Int {
        switch self {
        case let .explicitCAFalse(offset), let .explicitCriticalFalse(_, offset), let .explicitSubtreeMinimumZero(offset),
            let .unwrappedOtherNameValue(offset):
            return offset
        }
    }

    /// Whether this is a DEFAULT value written out (X.690 §11.5), which the strict profiles refuse.
    package var isDefaultValueWrittenOut: Bool {
        switch self {
        case .explicitCAFalse, .explicitCriticalFalse, .explicitSubtreeMinimumZero: return true
        case .unwrappedOtherNameValue: return false
        }
    }

    /// One line naming the value, the rule it breaks and where it is.
    public var description: String {
        switch self {
        case let .explicitCAFalse(offset):
            return "basicConstraints cA FALSE written out; DER omits a DEFAULT value (X.690 §11.5) at byte \(offset)"
        case let .explicitCriticalFalse(name, offset):
            return "\(name) critical FALSE written out; DER omits a DEFAULT value (X.690 §11.5) at byte \(offset)"
        case let .explicitSubtreeMinimumZero(offset):
            return "nameConstraints GeneralSubtree minimum 0 written out; DER omits a DEFAULT value (X.690 §11.5) at byte \(offset)"
        case let .unwrappedOtherNameValue(offset):
            return "nameConstraints otherName value without its [0] EXPLICIT wrapper (RFC 5280 §4.2.1.6) at byte \(offset)"
        }
    }
}
