import Foundation
import NIOSSL
import SwiftTrust
import TrustNIO

/// The repository's committed certificates (`TestCertificates/`, see its README), at the verify
/// date they are all valid at.
enum ExamplePKI {
    /// `<repo>/Examples/Tests/SwiftTrustExamplesTests/ExamplePKI.swift` → `<repo>/TestCertificates`.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestCertificates", isDirectory: true)
    /// 2026-06-01T00:00:00Z.
    static let verifyDate = Date(timeIntervalSince1970: 1_780_272_000)
    /// The name the server leaf is issued for.
    static let host = "www.swifttrust.test"
    /// The server: leaf and intermediate.
    static let serverChain = ["ecdsa/leaf.pem", "ecdsa/intermediate.pem"]
    /// A client (clientAuth): leaf and intermediate.
    static let clientChain = ["ecdsa/leaf-client.pem", "ecdsa/intermediate.pem"]

    static func path(_ relative: String) -> String { directory.appendingPathComponent(relative).path }

    /// The key of `<dir>/<name>.pem`: `keys/<dir>/<name>.key.pem`.
    static func keyPath(of certificate: String) -> String {
        path("keys/" + certificate.replacingOccurrences(of: ".pem", with: ".key.pem"))
    }

    static func certificates(_ relative: String) throws -> [Certificate] {
        try Certificate.loadAll(from: Array(Data(contentsOf: directory.appendingPathComponent(relative))))
    }

    /// Settings trusting the ECDSA root only, at the verify date.
    static func settings() throws -> TLSTrustSettings {
        var settings = TLSTrustSettings(anchors: try certificates("ecdsa/root.pem"))
        settings.verifyDate = verifyDate
        return settings
    }

    /// A certificate chain to present (leaf first) and the leaf's key.
    static func identity(_ files: [String]) throws -> (chain: [NIOSSLCertificateSource], key: NIOSSLPrivateKeySource) {
        let chain = try files.flatMap { try NIOSSLCertificate.fromPEMFile(path($0)) }.map(NIOSSLCertificateSource.certificate)
        return (chain, .privateKey(try NIOSSLPrivateKey(file: keyPath(of: files[0]), format: .pem)))
    }

    /// The mutual-TLS server route of examples (a) and (c): the server chain, clients of the ECDSA root.
    static func serverRoute(requiredIdentity: IdentityRule? = nil) throws -> TLSServerTrustRoute {
        let identity = try identity(serverChain)
        var settings = try settings()
        settings.requiredIdentity = requiredIdentity
        return try TLSServerTrustRoute(
            certificateChain: identity.chain, privateKey: identity.key,
            clientVerifier: TLSTrustVerifier(settings: settings))
    }
}
