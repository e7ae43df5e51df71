/// A way of learning a certificate's revocation status: OCSP (``ocsp``) or CRLs (``crl``). It names
/// where revocation information came from (``RevocationSource/method``) and what a fetch asked for
/// (``FetchPurpose/revocation(_:)``, ``RevocationFetchRequest/method``). Each method's rules, flag and
/// fetch live in one folder of `Sources/TrustCore/Revocation/Methods/`, listed once in
/// `RevocationMethodRegistry`.
public struct RevocationMethod: Hashable, Sendable, CustomStringConvertible {
    /// The method's name as sources, fetch failures and metrics show it (`OCSP`, `CRL`).
    public let name: String

    /// The method called `name`; only the method definitions make them.
    package init(name: String) { self.name = name }

    /// `OCSP` or `CRL`.
    public var description: String { name }

    /// The name as a metrics label value: lower-case ASCII letters and digits, anything else `_`
    /// (`crl`, `ocsp`).
    package var label: String {
        String(name.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }
}
