import TrustTestSupport
import Foundation
import NIOSSL
import SwiftTrust
import TrustNIO

/// The repository's committed certificates (`TestCertificates/`, see its README): every one used
/// here is valid today (leaves until 2027-06-01), so BoringSSL's own verification, which checks at
/// the current time, agrees with SwiftTrust's.
enum IntegrationPKI {
    /// `<repo>/TestCertificates`.
    static let directory = TestCertificates.directory
    /// The name the server leaves are issued for.
    static let host = "www.swifttrust.test"
    /// The server: leaf and intermediate.
    static let serverChain = ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"]
    /// A server leaf revoked by `revocation/intermediate-current.crl`, and its intermediate.
    static let revokedServerChain = ["revocation/revoked-leaf.pem", "ecdsa/intermediate.pem"]
    /// A client (clientAuth): leaf and intermediate.
    static let clientChain = ["ecdsa/leaf-client.pem", "ecdsa/intermediate.pem"]

    static func path(_ relative: String) -> String { directory.appendingPathComponent(relative).path }

    /// The key of a certificate file: `keys/<dir>/<name>.key.pem`, or `<dir>/keys/<name>.key.pem`.
    static func keyPath(of certificate: String) -> String {
        let conventional = path("keys/" + certificate.replacingOccurrences(of: ".pem", with: ".key.pem"))
        if FileManager.default.fileExists(atPath: conventional) { return conventional }
        let parts = certificate.split(separator: "/").map(String.init)
        let name = (parts.last ?? certificate).replacingOccurrences(of: ".pem", with: ".key.pem")
        return path((parts.dropLast() + ["keys", name]).joined(separator: "/"))
    }

    static func certificates(_ relative: String) throws -> [Certificate] {
        try Certificate.loadAll(from: Array(Data(contentsOf: directory.appendingPathComponent(relative))))
    }

    static func crls(_ relative: [String]) throws -> [CertificateRevocationList] {
        try relative.flatMap { try CertificateRevocationList.loadAll(from: Array(Data(contentsOf: directory.appendingPathComponent($0)))) }
    }

    /// Settings trusting the ECDSA root only, now, with the intermediate at hand (AsyncHTTPClient's
    /// hook shows the leaf alone).
    static func settings() throws -> TLSTrustSettings {
        var settings = TLSTrustSettings(anchors: try certificates("ecdsa/root.pem"))
        settings.additionalIntermediates = try certificates("ecdsa/intermediate.pem")
        return settings
    }

    /// ``settings()`` checking revocation with the intermediate's and root's CRLs supplied, hard-fail.
    static func revocationSettings() throws -> TLSTrustSettings {
        var settings = try settings()
        let crls = try crls(["revocation/intermediate-current.crl", "revocation/root-empty.crl"])
        settings.revocation = [.useAnyAvailableMethod, .requirePositiveResponse, .networkAccessDisabled]
        settings.configure = { trust in trust.setCRLs(crls) }
        return settings
    }

    /// A certificate chain to present (leaf first) and the leaf's key.
    static func identity(_ files: [String]) throws -> (chain: [NIOSSLCertificateSource], key: NIOSSLPrivateKeySource) {
        let chain = try files.flatMap { try NIOSSLCertificate.fromPEMFile(path($0)) }.map(NIOSSLCertificateSource.certificate)
        return (chain, .privateKey(try NIOSSLPrivateKey(file: keyPath(of: files[0]), format: .pem)))
    }
}
