import TrustDER

/// The certificates of a "certs-only" PKCS #7 / CMS SignedData (RFC 2315 §9, RFC 5652 §5; the
/// `.p7c` form RFC 5280 §4.2.2.1 allows at an authorityInfoAccess caIssuers URL): a ContentInfo of
/// type signedData whose SignedData carries certificates and no signer. Only DER is read; the
/// digest algorithms and signer infos must be empty (a signed message is not a certificate bundle),
/// CRLs are ignored, and entries that are not plain certificates (attribute or extended
/// certificates, `[0]`…`[3]` choices of RFC 5652) are refused.
public enum CertsOnlyPKCS7 {
    /// id-signedData (RFC 5652 §5.1).
    static let signedData: ASN1ObjectIdentifier = "1.2.840.113549.1.7.2"
    /// The most certificates one bundle may hold: a caIssuers file names a few issuers (cross-signed
    /// ones); more is not a path to build but work to refuse.
    public static let maximumCertificates = 16

    /// The certificates of `bytes`, in the order they appear.
    ///
    /// - Throws: ``X509Error`` naming the byte offset: not a ContentInfo of signedData, a signer
    ///   present, a certificate that does not parse, more than ``maximumCertificates``.
    public static func certificates(derEncoded bytes: [UInt8]) throws(X509Error) -> [Certificate] {
        do {
            return try parse(bytes)
        } catch let error as X509Error {
            throw error
        } catch let error as DERError {
            throw X509Error(.der(error))
        } catch {
            throw X509Error.structure("unreadable PKCS #7 bundle", at: 0)
        }
    }

    private static func parse(_ bytes: [UInt8]) throws -> [Certificate] {
        let contentInfo = try DERReader.parseSingle(bytes)
        try contentInfo.expect(.sequence)
        var info = try contentInfo.children()
        let type = try info.read(.objectIdentifier).objectIdentifier()
        guard type == signedData else { throw X509Error.structure("PKCS #7 content type \(type.dotted) is not signedData", at: contentInfo.offset) }
        var explicit = try info.read(.context(0, constructed: true)).children()
        try info.finish()
        let signed = try explicit.read(.sequence)
        try explicit.finish()

        var fields = try signed.children()
        _ = try fields.read(.integer) // version
        let digestAlgorithms = try fields.read(.set)
        _ = try fields.read(.sequence) // encapContentInfo
        let certificateSet = try fields.readIfPresent(.context(0, constructed: true))
        _ = try fields.readIfPresent(.context(1, constructed: true)) // crls: not used
        let signerInfos = try fields.read(.set)
        try fields.finish()
        guard digestAlgorithms.content.isEmpty, signerInfos.content.isEmpty else {
            throw X509Error.structure("PKCS #7 SignedData has signers: not a certs-only bundle", at: signed.offset)
        }
        var certificates: [Certificate] = []
        guard let certificateSet else { return certificates }
        var list = try certificateSet.children()
        while let element = try list.next() {
            guard element.tag == .sequence else {
                throw X509Error.structure("PKCS #7 certificate choice other than a certificate", at: element.offset)
            }
            guard certificates.count < maximumCertificates else {
                throw X509Error.structure("PKCS #7 bundle holds more than \(maximumCertificates) certificates", at: element.offset)
            }
            certificates.append(try Certificate(derEncoded: Array(element.encoded)))
        }
        return certificates
    }
}
