import Foundation

/// A client CA made with the openssl CLI at test time (a fresh P-256 root valid from now for 30
/// days) and one clientAuth certificate it issued: two of them, with different names, are the CAs a
/// trust-anchor rotation swaps between.
public struct ClientCertificateAuthority: Sendable {
    /// The root (PEM): the anchor a server trusts for this CA's clients.
    public let rootPath: String
    /// The client certificate the root issued (PEM), and its key.
    public let clientPath: String
    public let clientKeyPath: String

    /// Writes `<name>-root.pem`, `<name>-client.pem` and their keys into `directory` (which must exist).
    public init(named name: String, in directory: URL) throws {
        func path(_ file: String) -> String { directory.appendingPathComponent("\(name)-\(file)").path }
        let config = path("req.cnf")
        try "[req]\ndistinguished_name = dn\nprompt = no\n[dn]\n".write(toFile: config, atomically: true, encoding: .utf8)
        rootPath = path("root.pem")
        clientPath = path("client.pem")
        clientKeyPath = path("client.key")
        let rootKey = path("root.key")
        for key in [rootKey, clientKeyPath] {
            try OpenSSLCommand.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key])
        }
        try OpenSSLCommand.run([
            "req", "-x509", "-new", "-config", config, "-key", rootKey, "-subj", "/CN=SwiftTrust \(name) Client CA",
            "-days", "30", "-sha256", "-set_serial", "1", "-out", rootPath,
            "-addext", "basicConstraints = critical, CA:TRUE", "-addext", "keyUsage = critical, keyCertSign, cRLSign",
            "-addext", "subjectKeyIdentifier = hash",
        ])
        try OpenSSLCommand.run([
            "req", "-x509", "-new", "-config", config, "-key", clientKeyPath, "-subj", "/CN=\(name) Client",
            "-days", "30", "-sha256", "-set_serial", "2", "-out", clientPath, "-CA", rootPath, "-CAkey", rootKey,
            "-addext", "basicConstraints = critical, CA:FALSE", "-addext", "keyUsage = critical, digitalSignature",
            "-addext", "extendedKeyUsage = clientAuth", "-addext", "subjectKeyIdentifier = hash",
            "-addext", "authorityKeyIdentifier = keyid",
            "-addext", "subjectAltName = email:\(name.lowercased())-client@swifttrust.test",
        ])
    }
}
