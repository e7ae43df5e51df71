import Foundation
import NIOSSL
import OpenSSLServerSupport
import SwiftTrust

/// What the integrations' SVID tests share: one SPIFFE PKI made with the openssl CLI for the
/// process (two trust domains, `example.org` with an intermediate and `other.example`), and the
/// settings that verify a peer under the `spiffe` profile against the bundle its trust domain picks.
enum SPIFFEIntegration {
    private static let made = Result { try SPIFFEPKI.inTemporaryDirectory(named: "integration-spiffe") }

    static func pki() throws -> SPIFFEPKI { try made.get() }

    /// `example.org`'s own bundle (the SPIFFE bundle JSON).
    static func exampleBundle() throws -> SPIFFETrustBundle {
        try SPIFFETrustBundle(jsonFile: pki().example.bundleJSONPath, trustDomain: nil)
    }

    /// `other.example`'s authorities, held as the bundle of `example.org`: an SVID of example.org
    /// checked against another trust domain's authorities.
    static func otherAuthoritiesForExample() throws -> SPIFFETrustBundle {
        try SPIFFETrustBundle(pemFile: pki().other.bundlePEMPath, trustDomain: SPIFFETrustDomain("example.org"))
    }

    /// `other.example`'s own bundle only.
    static func otherBundle() throws -> SPIFFETrustBundle {
        try SPIFFETrustBundle(jsonFile: pki().other.bundleJSONPath, trustDomain: nil)
    }

    /// Settings under the `spiffe` profile whose anchors are `bundles`, picked per handshake.
    static func settings(_ bundles: [SPIFFETrustBundle]) -> TLSTrustSettings {
        var settings = TLSTrustSettings()
        settings.options.profile = .spiffe
        settings.anchorProvider = SPIFFETrustBundleSet(bundles)
        return settings
    }

    /// `credential`'s chain and key, for a NIO TLS peer.
    static func identity(_ credential: SPIFFEPKI.Credential) throws -> (chain: [NIOSSLCertificateSource], key: NIOSSLPrivateKeySource) {
        (
            try NIOSSLCertificate.fromPEMFile(credential.chainPath).map(NIOSSLCertificateSource.certificate),
            .privateKey(try NIOSSLPrivateKey(file: credential.keyPath, format: .pem))
        )
    }

    /// `openssl s_client` arguments presenting `credential` with its chain.
    static func sClientArguments(_ credential: SPIFFEPKI.Credential) -> [String] {
        ["-cert", credential.certificatePath, "-cert_chain", credential.chainPath, "-key", credential.keyPath]
    }
}
