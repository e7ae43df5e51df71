import TrustDER
import TrustX509

/// The SCTs of each source (RFC 6962 §3.3), as trustd collects them
/// (`SecCreateSignedCertificateTimestampsArrayFromSerializedSCTList`, `SecSCTUtils.c`).
///
/// A list whose framing is broken yields no SCTs at all (``SCTParseError``), as trustd's; an SCT
/// inside a well-framed list that does not parse is kept, with its ``PresentedTimestamp/timestamp``
/// the failure, so the evaluation can say why it did not count.
public enum SCTList {
    /// The SCTs of a `SignedCertificateTimestampList`: `opaque SerializedSCT<1..2^16-1>;
    /// SerializedSCT sct_list<1..2^16-1>;` (the bytes of the TLS extension, or inside the
    /// extensions' OCTET STRING).
    ///
    /// - Throws: ``SCTParseError/emptyList``, ``SCTParseError/listLengthMismatch(declared:actual:)``
    ///   or ``SCTParseError/truncated(field:offset:)``.
    public static func parse(_ bytes: some Collection<UInt8>, source: SCTSource) throws(SCTParseError) -> [PresentedTimestamp] {
        var reader = TLSReader(Array(bytes))
        let declared = try reader.uint16("list length")
        guard declared == reader.remaining else { throw .listLengthMismatch(declared: declared, actual: reader.remaining) }
        guard declared > 0 else { throw .emptyList }
        var timestamps: [PresentedTimestamp] = []
        // Each pass consumes at least the two length bytes: at most count / 2 passes.
        while reader.remaining > 0 {
            timestamps.append(PresentedTimestamp(encoded: try reader.vector16("SerializedSCT"), source: source))
        }
        return timestamps
    }

    /// The SCTs embedded in `certificate` (extension 1.3.6.1.4.1.11129.2.4.2), none without it.
    ///
    /// - Throws: the list's ``SCTParseError``; ``SCTParseError/notAnOctetString`` when the
    ///   extension's value is not an OCTET STRING (the certificate parser has then already
    ///   reported the extension undecodable).
    public static func embedded(in certificate: Certificate) throws(SCTParseError) -> [PresentedTimestamp] {
        guard certificate.extensions[OID.sctList] != nil else { return [] }
        guard let list = certificate.extensions.signedCertificateTimestamps else { throw .notAnOctetString }
        return try parse(list, source: .embedded)
    }

    /// The SCTs of the TLS `signed_certificate_timestamp` extension's bytes.
    public static func tlsExtension(_ bytes: some Collection<UInt8>) throws(SCTParseError) -> [PresentedTimestamp] {
        try parse(bytes, source: .tlsExtension)
    }

    /// The SCTs of an OCSP single response (extension 1.3.6.1.4.1.11129.2.4.5, its first
    /// occurrence, as trustd's `SecOCSPResponse.c` keeps only the first), none without it.
    public static func delivered(in response: OCSPSingleResponse) throws(SCTParseError) -> [PresentedTimestamp] {
        guard let ext = response.extensions.first(where: { $0.oid == OID.ocspSCTList }) else { return [] }
        let list: ArraySlice<UInt8>
        do { list = try DERReader.parseSingle(ext.value).octetString() } catch { throw .notAnOctetString }
        return try parse(list, source: .ocspResponse)
    }

    /// The SCTs of `response` for `leaf` issued by `issuer`: those of the first single response
    /// that identifies the leaf, in a successful response (trustd's `copy_ocsp_scts`). The
    /// response's own signature is not checked here: each SCT is signed by its log.
    public static func delivered(in response: OCSPResponse, leaf: Certificate, issuer: Certificate) throws(SCTParseError) -> [PresentedTimestamp] {
        guard response.status == .successful,
            let single = response.responses.first(where: { $0.certID.identifies(leaf, issuedBy: issuer) })
        else { return [] }
        return try delivered(in: single)
    }
}
