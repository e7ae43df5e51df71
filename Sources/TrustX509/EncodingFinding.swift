/// An encoding that breaks DER's rule that a value equal to its DEFAULT is omitted (X.690 §11.5),
/// which the certificate parser accepts as Apple's `SecCertificateCreateWithBytes`, OpenSSL, Go and
/// Chromium do, reading it as the DEFAULT.
///
/// Unlike a ``CertificateDefect``, a finding does not fail validation by itself: the strict profiles
/// refuse it (SwiftTrust's `derDefaultOmitted` profile rule), the others accept it. Each finding is
/// recorded in ``Certificate/encodingFindings`` with the byte offset of the value written out.
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

    /// The byte offset in the certificate's DER of the value written out.
    public var offset: Int {
        switch self {
        case let .explicitCAFalse(offset), let .explicitCriticalFalse(_, offset), let .explicitSubtreeMinimumZero(offset):
            return offset
        }
    }

    /// One line naming the value, the DER rule it breaks and where it is.
    public var description: String {
        switch self {
        case let .explicitCAFalse(offset):
            return "basicConstraints cA FALSE written out; DER omits a DEFAULT value (X.690 §11.5) at byte \(offset)"
        case let .explicitCriticalFalse(name, offset):
            return "\(name) critical FALSE written out; DER omits a DEFAULT value (X.690 §11.5) at byte \(offset)"
        case let .explicitSubtreeMinimumZero(offset):
            return "nameConstraints GeneralSubtree minimum 0 written out; DER omits a DEFAULT value (X.690 §11.5) at byte \(offset)"
        }
    }
}
