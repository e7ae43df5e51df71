import Foundation
import OpenSSLServerSupport

/// A revoked leaf whose CA publishes its CRL on loopback, as a private PKI does on its own network:
/// a CRL of the committed ECDSA intermediate revoking serial 0x77 (made now by `openssl ca -gencrl`),
/// served by a ``LoopbackResponder``, and a leaf with that serial (made now by `openssl x509`) whose
/// cRLDistributionPoints names the responder.
struct LoopbackCRLFixture {
    /// The leaf (PEM) and its key.
    let leaf: String
    let key: String
    /// The leaf's CRL distribution point, on 127.0.0.1.
    let url: String
    let responder: LoopbackResponder

    private static func path(_ relative: String) -> String { TestCertificatesDirectory.path(relative) }

    /// Makes the CRL, starts its responder and issues the leaf in `directory`: a client certificate
    /// (clientAuth) or a server certificate for the test host (serverAuth).
    init(in directory: URL, client: Bool) throws {
        func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
        // The CA database holds the one revoked entry (status, expiry, revocation time, serial, file, subject).
        try "R\t271231235959Z\t261101000000Z,keyCompromise\t77\tunknown\t/CN=revoked\n".write(
            toFile: file("index.txt"), atomically: true, encoding: .utf8)
        try "01\n".write(toFile: file("crlnumber"), atomically: true, encoding: .utf8)
        let ca = [
            "[ca]", "default_ca = crl_ca", "[crl_ca]", "database = \(file("index.txt"))", "crlnumber = \(file("crlnumber"))",
            "default_md = sha256", "crl_extensions = crl_ext", "[crl_ext]", "authorityKeyIdentifier = keyid:always",
        ]
        try (ca.joined(separator: "\n") + "\n").write(toFile: file("ca.cnf"), atomically: true, encoding: .utf8)
        try OpenSSLCommand.run([
            "ca", "-gencrl", "-batch", "-config", file("ca.cnf"), "-cert", Self.path("ecdsa/intermediate.pem"),
            "-keyfile", Self.path("keys/ecdsa/intermediate.key.pem"), "-crldays", "30", "-out", file("ca.crl.pem"),
        ])
        try OpenSSLCommand.run(["crl", "-in", file("ca.crl.pem"), "-outform", "DER", "-out", file("ca.crl")])
        responder = try LoopbackResponder(.answers(body: Array(try Data(contentsOf: URL(fileURLWithPath: file("ca.crl"))))))
        url = "http://127.0.0.1:\(responder.port)/ecdsa-intermediate.crl"

        key = Self.path(client ? "keys/ecdsa/leaf-client.key.pem" : "keys/ecdsa/leaf.key.pem")
        let name = client ? "SwiftTrust Revoked Client" : TestCertificatesDirectory.host
        let usage =
            client
            ? ["extendedKeyUsage = clientAuth", "subjectAltName = email:revoked@swifttrust.test"]
            : ["extendedKeyUsage = serverAuth", "subjectAltName = DNS:\(TestCertificatesDirectory.host)"]
        let lines =
            [
                "[req]", "distinguished_name = dn", "prompt = no", "[dn]", "CN = \(name)", "[ext]",
                "basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature", "authorityKeyIdentifier = keyid",
                "crlDistributionPoints = URI:\(url)",
            ] + usage
        try (lines.joined(separator: "\n") + "\n").write(toFile: file("leaf.cnf"), atomically: true, encoding: .utf8)
        try OpenSSLCommand.run(["req", "-new", "-key", key, "-config", file("leaf.cnf"), "-out", file("leaf.csr")])
        leaf = file("leaf.pem")
        try OpenSSLCommand.run([
            "x509", "-req", "-in", file("leaf.csr"), "-CA", Self.path("ecdsa/intermediate.pem"),
            "-CAkey", Self.path("keys/ecdsa/intermediate.key.pem"), "-set_serial", "0x77", "-days", "30",
            "-extfile", file("leaf.cnf"), "-extensions", "ext", "-out", leaf,
        ])
    }
}
