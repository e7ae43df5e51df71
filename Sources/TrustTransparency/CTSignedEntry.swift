import TrustCrypto
import TrustDER
import TrustX509

/// What a log signs (RFC 6962 §3.2), rebuilt from the certificates as trustd's
/// `copy_x509_entry_from_chain` and `copy_precert_entry_from_chain` rebuild it.
enum CTSignedEntry {
    /// `LogEntryType`: x509_entry (0) for SCTs delivered by TLS or OCSP, precert_entry (1) for
    /// embedded ones.
    enum EntryType: UInt16 {
        case x509 = 0
        case precertificate = 1
    }

    /// `ASN.1Cert`: the leaf's DER, with its uint24 length.
    static func x509Entry(of leaf: Certificate) -> [UInt8] {
        uint24(leaf.derEncoded.count) + leaf.derEncoded
    }

    /// `PreCert`: the SHA-256 of the issuer's SubjectPublicKeyInfo, then the leaf's
    /// TBSCertificate without its SCT list extension, with its uint24 length.
    static func precertificateEntry(of leaf: Certificate, issuer: Certificate) throws(DERError) -> [UInt8] {
        let tbs = try precertificateTBS(of: leaf)
        return Digest.sha256(issuer.publicKeyInfo.der) + uint24(tbs.count) + tbs
    }

    /// The leaf's TBSCertificate re-encoded without the SCT list extension
    /// (1.3.6.1.4.1.11129.2.4.2), every other field and extension byte for byte
    /// (`SecCertificateCopyPrecertTBS`): the TBS of the precertificate once its poison is removed.
    static func precertificateTBS(of leaf: Certificate) throws(DERError) -> [UInt8] {
        let tbs = try DERReader.parseSingle(leaf.tbsCertificateBytes)
        try tbs.expect(.sequence)
        var fields = try tbs.children()
        // Field by field (DERWriter's closures do not throw): each copied, the extensions rebuilt.
        var content = DERWriter()
        while let field = try fields.next() {
            guard field.tag == .context(3, constructed: true) else {
                content.writeEncoded(field.encoded)
                continue
            }
            var wrapper = try field.children()
            let list = try wrapper.read(.sequence)
            try wrapper.finish()
            var extensions = try list.children()
            var kept: [ArraySlice<UInt8>] = []
            while let ext = try extensions.next() {
                var parts = try ext.children()
                guard try parts.read(.objectIdentifier).objectIdentifier() != OID.sctList else { continue }
                kept.append(ext.encoded)
            }
            content.write(.context(3, constructed: true)) { explicit in
                explicit.sequence { sequence in
                    for ext in kept { sequence.writeEncoded(ext) }
                }
            }
        }
        var writer = DERWriter()
        writer.write(.sequence, content: content.bytes)
        return writer.bytes
    }

    /// The `digitally-signed` struct's input: version, signature_type certificate_timestamp (0),
    /// timestamp, entry_type, the entry, the SCT's extensions with their uint16 length.
    static func signedData(of sct: SignedCertificateTimestamp, type: EntryType, entry: [UInt8]) -> [UInt8] {
        var data: [UInt8] = [0, 0]
        data.reserveCapacity(14 + entry.count + sct.extensions.count)
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: sct.timestamp >> UInt64(shift))) }
        data += [UInt8(truncatingIfNeeded: type.rawValue >> 8), UInt8(truncatingIfNeeded: type.rawValue)]
        data += entry
        data += [UInt8(truncatingIfNeeded: sct.extensions.count >> 8), UInt8(truncatingIfNeeded: sct.extensions.count)]
        data += sct.extensions
        return data
    }

    private static func uint24(_ count: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: count >> 16), UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
    }
}
