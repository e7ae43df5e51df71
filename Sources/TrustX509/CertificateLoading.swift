import TrustDER

/// The certificates read from a file or bundle, and the PEM blocks passed over to get them.
public struct LoadedCertificates: Sendable {
    /// The certificates, in input order (position 0 first).
    public let certificates: [Certificate]
    /// The PEM blocks that hold no certificate (private keys, parameters, CRLs …), in input order.
    public let skippedBlocks: [PEMSkippedBlock]
}

extension Certificate {
    /// Reads every certificate in `bytes`: PEM text (any number of CERTIFICATE blocks; text and
    /// other blocks, such as the private key of a combined certificate-and-key file, are passed
    /// over and listed in ``LoadedCertificates/skippedBlocks``) or a single DER certificate.
    ///
    /// Errors name the certificate's position, counted from 0: ``CertificateLoadingError``.
    public static func load(from bytes: [UInt8]) throws(CertificateLoadingError) -> LoadedCertificates {
        // A DER certificate is one SEQUENCE spanning the input; such bytes are never PEM text, even
        // when a field happens to contain "-----BEGIN " (which `looksLikePEM` finds anywhere).
        let isSingleDERSequence = bytes.first == 0x30 && (try? DERReader.parseSingle(bytes)) != nil
        if !isSingleDERSequence && PEM.looksLikePEM(bytes) {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw CertificateLoadingError(index: nil, error: X509Error(.pem(.malformedMarker(line: 0))))
            }
            return try load(pem: text)
        }
        guard !bytes.isEmpty else { throw CertificateLoadingError(index: nil, error: X509Error(.empty)) }
        do {
            return LoadedCertificates(certificates: [try Certificate(derEncoded: bytes)], skippedBlocks: [])
        } catch {
            throw CertificateLoadingError(index: 0, error: error)
        }
    }

    /// Reads every CERTIFICATE block of PEM text, passing over other blocks (see ``load(from:)``).
    /// Text holding no certificate at all is an error naming its first block.
    public static func load(pem text: String) throws(CertificateLoadingError) -> LoadedCertificates {
        let decoded: (blocks: [PEMBlock], skipped: [PEMSkippedBlock])
        do { decoded = try PEM.decode(text, labels: certificateLabels) } catch {
            throw CertificateLoadingError(index: nil, error: X509Error(.pem(error)))
        }
        guard !decoded.blocks.isEmpty else {
            let reason: X509Error.Reason = decoded.skipped.first.map { .unexpectedPEMBlock(label: $0.label, line: $0.line) } ?? .pem(.noBlocks)
            throw CertificateLoadingError(index: nil, error: X509Error(reason))
        }
        var certificates: [Certificate] = []
        for (index, block) in decoded.blocks.enumerated() {
            do { certificates.append(try Certificate(ownedDER: block.der)) } catch {
                throw CertificateLoadingError(index: index, error: error.inPEMBlock(PEMBlockLocation(block, index: index)))
            }
        }
        return LoadedCertificates(certificates: certificates, skippedBlocks: decoded.skipped)
    }

    /// The certificates of ``load(from:)``.
    public static func loadAll(from bytes: [UInt8]) throws(CertificateLoadingError) -> [Certificate] {
        try load(from: bytes).certificates
    }

    /// The certificates of ``load(pem:)``.
    public static func loadAll(pem text: String) throws(CertificateLoadingError) -> [Certificate] {
        try load(pem: text).certificates
    }
}

/// A certificate in a file or bundle could not be read.
public struct CertificateLoadingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The certificate's position in the input, counted from 0 as every `trustctl` command and
    /// ``TrustFailure`` count; nil when the input as a whole is bad (PEM syntax, no certificate).
    public let index: Int?
    /// What was wrong with it.
    public let error: X509Error

    /// `certificate N: <reason>`.
    public var description: String { index.map { "certificate \($0): \(error)" } ?? error.description }
}
