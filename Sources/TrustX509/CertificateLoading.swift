import TrustDER

extension Certificate {
    /// Reads every certificate in `bytes`: PEM text (any number of CERTIFICATE blocks, text between
    /// them ignored) or a single DER certificate.
    ///
    /// Errors name the certificate's position: ``CertificateLoadingError``.
    public static func loadAll(from bytes: [UInt8]) throws(CertificateLoadingError) -> [Certificate] {
        // A DER certificate is one SEQUENCE spanning the input; such bytes are never PEM text, even
        // when a field happens to contain "-----BEGIN " (which `looksLikePEM` finds anywhere).
        let isSingleDERSequence = bytes.first == 0x30 && (try? DERReader.parseSingle(bytes)) != nil
        if !isSingleDERSequence && PEM.looksLikePEM(bytes) {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw CertificateLoadingError(index: 0, error: X509Error(.pem(.malformedMarker(line: 0))))
            }
            return try loadAll(pem: text)
        }
        guard !bytes.isEmpty else { throw CertificateLoadingError(index: 0, error: X509Error(.empty)) }
        do { return [try Certificate(derEncoded: bytes)] } catch { throw CertificateLoadingError(index: 1, error: error) }
    }

    /// Reads every CERTIFICATE block of PEM text. Other block types are an error naming their line.
    public static func loadAll(pem text: String) throws(CertificateLoadingError) -> [Certificate] {
        let blocks: [PEMBlock]
        do { blocks = try PEM.decode(text) } catch { throw CertificateLoadingError(index: 0, error: X509Error(.pem(error))) }
        guard !blocks.isEmpty else { throw CertificateLoadingError(index: 0, error: X509Error(.pem(.noBlocks))) }
        var certificates: [Certificate] = []
        for (index, block) in blocks.enumerated() {
            guard certificateLabels.contains(block.label) else {
                throw CertificateLoadingError(index: index + 1, error: X509Error(.unexpectedPEMBlock(label: block.label, line: block.line)))
            }
            do { certificates.append(try Certificate(derEncoded: block.der)) } catch {
                throw CertificateLoadingError(index: index + 1, error: error)
            }
        }
        return certificates
    }
}

/// A certificate in a file or bundle could not be read.
public struct CertificateLoadingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based position of the certificate in the input (0 when the input as a whole is bad).
    public let index: Int
    /// What was wrong with it.
    public let error: X509Error

    /// `certificate N: <reason>`.
    public var description: String { index > 0 ? "certificate \(index): \(error)" : error.description }
}
