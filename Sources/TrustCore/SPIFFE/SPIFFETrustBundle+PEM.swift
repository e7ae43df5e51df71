import Foundation
import TrustX509

extension SPIFFETrustBundle {
    /// The largest PEM bundle read, in bytes (as the JSON form).
    public static let maximumPEMSize = 1 << 20

    /// A bundle of the certificates of PEM text (or one DER certificate) for `trustDomain`, which
    /// the caller names (a PEM file does not carry it), as go-spiffe's `x509bundle.Parse` reads one.
    /// Blocks that hold no certificate (a private key) are passed over.
    ///
    /// - Throws: ``SPIFFEBundleError``: over ``maximumPEMSize``, no certificate, or a block that is
    ///   not one.
    public init(pem bytes: [UInt8], trustDomain: SPIFFETrustDomain, file: String = "<input>") throws(SPIFFEBundleError) {
        guard bytes.count <= SPIFFETrustBundle.maximumPEMSize else {
            throw SPIFFEBundleError(file: file, rule: .tooLarge(bytes: bytes.count, limit: SPIFFETrustBundle.maximumPEMSize))
        }
        let certificates: [Certificate]
        do { certificates = try Certificate.loadAll(from: bytes) } catch {
            let rule: SPIFFEBundleRule = error.index == nil ? .noCertificates(error.description) : .invalidCertificate(error.description)
            throw SPIFFEBundleError(file: file, rule: rule)
        }
        self.init(trustDomain: trustDomain, x509Authorities: certificates)
    }

    /// Reads the PEM bundle file at `path` for `trustDomain` (see ``init(pem:trustDomain:file:)``).
    ///
    /// - Throws: ``SPIFFEBundleError``.
    public init(pemFile path: String, trustDomain: SPIFFETrustDomain) throws(SPIFFEBundleError) {
        let data = try SPIFFETrustBundle.read(path, limit: SPIFFETrustBundle.maximumPEMSize)
        try self.init(pem: Array(data), trustDomain: trustDomain, file: path)
    }
}
