import Foundation
import NIOSSL
import OpenSSLServerSupport
import Synchronization
import SwiftTrust
import TrustNIO

/// What the mutual-TLS integration tests share: a fresh client PKI (``ClientRevocationPKI``), a
/// server route presenting the committed server chain whose clients are verified against that
/// PKI's root with its CRL (hard-fail, offline; the CRL can be swapped between handshakes), and
/// `openssl s_client` as a client we did not write, for resumed sessions.
final class MutualTLSFixture: Sendable {
    let pki: ClientRevocationPKI
    let directory: URL
    private let crls: Mutex<[CertificateRevocationList]>
    /// Who a verified client must be (``TLSTrustSettings/requiredIdentity``), if anyone.
    let requiredIdentity: IdentityRule?

    /// Client settings of the test's own (SVIDs under SPIFFE bundles), instead of the PKI's.
    private let customClientSettings: TLSTrustSettings?

    init(requiredIdentity: IdentityRule? = nil, clientSettings: TLSTrustSettings? = nil) throws {
        self.requiredIdentity = requiredIdentity
        customClientSettings = clientSettings
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-integration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        pki = try ClientRevocationPKI(in: directory)
        crls = Mutex(try Self.crls(pki.crlPath))
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// From now on, the good client is revoked too.
    func revokeTheGoodClient() throws {
        let later = try Self.crls(pki.crlRevokingBothPath)
        crls.withLock { $0 = later }
    }

    /// The clients' settings: the PKI's root only, its current CRL, revocation required, the
    /// fixture's identity rule.
    func clientSettings() throws -> TLSTrustSettings {
        if let customClientSettings { return customClientSettings }
        var settings = TLSTrustSettings(anchors: try Certificate.loadAll(from: Array(Data(contentsOf: URL(fileURLWithPath: pki.rootPath)))))
        settings.revocation = [.useAnyAvailableMethod, .requirePositiveResponse, .networkAccessDisabled]
        settings.configure = { [self] trust in trust.setCRLs(crls.withLock { $0 }) }
        settings.requiredIdentity = requiredIdentity
        return settings
    }

    /// The server route: the committed server chain, clients verified by ``clientSettings()``.
    func serverRoute() throws -> TLSServerTrustRoute {
        let identity = try IntegrationPKI.identity(IntegrationPKI.serverChain)
        return try TLSServerTrustRoute(
            certificateChain: identity.chain, privateKey: identity.key,
            clientVerifier: TLSTrustVerifier(settings: clientSettings()))
    }

    /// The good or revoked client's identity, for a SwiftTrust client.
    func clientIdentity(revoked: Bool) throws -> (chain: [NIOSSLCertificateSource], key: NIOSSLPrivateKeySource) {
        let certificate = revoked ? pki.revokedClientPath : pki.goodClientPath
        let key = revoked ? pki.revokedClientKeyPath : pki.goodClientKeyPath
        return (
            try NIOSSLCertificate.fromPEMFile(certificate).map(NIOSSLCertificateSource.certificate),
            .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
        )
    }

    /// `openssl s_client` to 127.0.0.1:`port` presenting the good client, writing `input`, saving
    /// its session to `session` (or resuming it); what it printed. Under TLS 1.3 it waits for the
    /// server to close (the session ticket comes after the handshake); under TLS 1.2 (whose ticket
    /// is part of the handshake) it ends after `input`, for servers that never close first.
    func sClient(port: Int, session: String, resume: Bool, input: String = "", tls13: Bool = true) throws -> String {
        try OpenSSLCommand.output(
            of: [
                "s_client", "-connect", "127.0.0.1:\(port)", "-servername", IntegrationPKI.host,
                "-cert", pki.goodClientPath, "-key", pki.goodClientKeyPath,
                resume ? "-sess_in" : "-sess_out", directory.appendingPathComponent(session).path,
            ] + (tls13 ? ["-tls1_3", "-ign_eof"] : ["-tls1_2"]), input: input)
    }

    private static func crls(_ path: String) throws -> [CertificateRevocationList] {
        try CertificateRevocationList.loadAll(from: Array(Data(contentsOf: URL(fileURLWithPath: path))))
    }
}
