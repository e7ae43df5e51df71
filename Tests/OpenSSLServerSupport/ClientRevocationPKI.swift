import Foundation

/// A client-certificate PKI made with the openssl CLI for the integrations' mutual-TLS tests
/// (fresh P-256 keys, valid from now for 30 days, so BoringSSL and SwiftTrust agree at the
/// current time): a root, a good client and a revoked client (both clientAuth, issued by the
/// root), and the root's CRL listing the revoked one (made by `openssl ca -gencrl`).
public struct ClientRevocationPKI: Sendable {
    /// The root, the servers' only client anchor (PEM).
    public let rootPath: String
    /// The root's CRL, revoking ``revokedClientPath`` (PEM).
    public let crlPath: String
    /// A later CRL of the root, revoking both clients (PEM): the good client, revoked since.
    public let crlRevokingBothPath: String
    /// A client the root issued and did not revoke (PEM), and its key.
    public let goodClientPath: String
    public let goodClientKeyPath: String
    /// A client the root issued and revoked (PEM), and its key.
    public let revokedClientPath: String
    public let revokedClientKeyPath: String

    /// The good client's e-mail address (its subjectAltName).
    public static let goodClientEmail = "good-client@swifttrust.test"

    /// Writes the PKI into `directory` (which must exist).
    public init(in directory: URL) throws {
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let config = path("req.cnf")
        try "[req]\ndistinguished_name = dn\nprompt = no\n[dn]\n".write(toFile: config, atomically: true, encoding: .utf8)
        for key in ["root", "good", "revoked"] {
            try OpenSSLCommand.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path("\(key).key")])
        }
        func issue(_ key: String, _ name: String, serial: Int, extensions: [String], signed: Bool) throws {
            var arguments = [
                "req", "-x509", "-new", "-config", config, "-key", path("\(key).key"), "-subj", "/CN=\(name)",
                "-days", "30", "-sha256", "-set_serial", "\(serial)", "-out", path("\(key).pem"),
            ]
            arguments += extensions.flatMap { ["-addext", $0] }
            if signed { arguments += ["-CA", path("root.pem"), "-CAkey", path("root.key")] }
            try OpenSSLCommand.run(arguments)
        }
        try issue(
            "root", "SwiftTrust Client Revocation Test Root", serial: 1,
            extensions: [
                "basicConstraints = critical, CA:TRUE", "keyUsage = critical, keyCertSign, cRLSign", "subjectKeyIdentifier = hash",
            ], signed: false)
        let client = [
            "basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature", "extendedKeyUsage = clientAuth",
            "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid",
        ]
        try issue("good", "Good Client", serial: 2, extensions: client + ["subjectAltName = email:\(Self.goodClientEmail)"], signed: true)
        try issue(
            "revoked", "Revoked Client", serial: 3, extensions: client + ["subjectAltName = email:revoked-client@swifttrust.test"],
            signed: true)
        // `openssl ca -gencrl` reads revocations from its index (tab-separated: status, expiry,
        // revocation date[,reason], serial in hex, file, subject).
        let revokedAt = Self.utcTime(Date().addingTimeInterval(-3_600))
        let expiry = Self.utcTime(Date().addingTimeInterval(30 * 86_400))
        let revoked = "R\t\(expiry)\t\(revokedAt),keyCompromise\t03\tunknown\t/CN=Revoked Client\n"
        let good = "R\t\(expiry)\t\(revokedAt),keyCompromise\t02\tunknown\t/CN=Good Client\n"
        for (name, index) in [("root", revoked), ("root-both", good + revoked)] {
            try index.write(toFile: path("\(name).index"), atomically: true, encoding: .utf8)
            try "01\n".write(toFile: path("\(name).crlnumber"), atomically: true, encoding: .utf8)
            try """
            [ca]
            default_ca = root
            [root]
            database = \(path("\(name).index"))
            crlnumber = \(path("\(name).crlnumber"))
            default_md = sha256
            default_crl_days = 30
            crl_extensions = crl_ext
            [crl_ext]
            authorityKeyIdentifier = keyid
            """.write(toFile: path("\(name).cnf"), atomically: true, encoding: .utf8)
            try OpenSSLCommand.run([
                "ca", "-gencrl", "-batch", "-config", path("\(name).cnf"), "-cert", path("root.pem"),
                "-keyfile", path("root.key"), "-out", path("\(name).crl"),
            ])
        }
        rootPath = path("root.pem")
        crlPath = path("root.crl")
        crlRevokingBothPath = path("root-both.crl")
        goodClientPath = path("good.pem")
        goodClientKeyPath = path("good.key")
        revokedClientPath = path("revoked.pem")
        revokedClientKeyPath = path("revoked.key")
    }

    /// `YYMMDDHHMMSSZ`, as the openssl index writes dates.
    private static func utcTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyMMddHHmmss"
        return formatter.string(from: date) + "Z"
    }
}
