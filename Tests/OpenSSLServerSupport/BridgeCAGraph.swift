import Foundation

/// A bridge-CA certificate graph made with the openssl CLI (fresh P-256 keys, valid from now for
/// 30 days), for tests of which path a failed evaluation is reported from.
///
/// Bridge CA B cross-certifies member CAs A and C and is certified by both; the root certifies B
/// with a SHA-1 signature; the leaf, for ``host``, is issued by A. Presented leaf first, then
/// A←B, B←A, B←C, C←B and B←root, path building explores the loop leaf←A←B←A, the longer loop
/// leaf←A←B←C←B (a dead end: every issuer of B is already on the path), and only then
/// leaf←A←B←root, the one path to the anchor, which the SHA-1 signature ends. With legacy
/// algorithms allowed, that path is trusted.
public struct BridgeCAGraph {
    /// The DNS name the leaf is issued for.
    public static let host = "bridge.swifttrust.test"

    /// The self-signed root, the only anchor (PEM).
    public let rootPath: String
    /// The leaf followed by the intermediates in presentation order (PEM bundle).
    public let presentedPath: String
    /// The intermediates alone, in presentation order (PEM bundle).
    public let intermediatesPath: String
    /// The leaf (PEM).
    public let leafPath: String
    /// A certified by B (PEM).
    public let memberAPath: String
    /// B certified by the root, signed with SHA-1 (PEM).
    public let bridgeByRootPath: String

    /// Writes the graph into `directory` (which must exist).
    public init(in directory: URL) throws {
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let config = path("req.cnf")
        try "[req]\ndistinguished_name = dn\nprompt = no\n[dn]\n".write(toFile: config, atomically: true, encoding: .utf8)
        let ca = [
            "basicConstraints = critical, CA:TRUE", "keyUsage = critical, keyCertSign, cRLSign",
            "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid",
        ]
        for key in ["root", "a", "b", "c", "leaf"] {
            try OpenSSLCommand.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path("\(key).key")])
        }
        /// Issues `name` for `key`'s key, signed by `signer` (certificate file and key name; nil: self-signed).
        func issue(
            _ file: String, _ name: String, key: String, by signer: (certificate: String, key: String)?,
            extensions: [String] = ca, digest: String = "sha256"
        ) throws {
            var arguments = [
                "req", "-x509", "-new", "-config", config, "-key", path("\(key).key"), "-subj", "/CN=\(name)",
                "-days", "30", "-\(digest)", "-out", path(file),
            ]
            arguments += extensions.flatMap { ["-addext", $0] }
            if let signer { arguments += ["-CA", path(signer.certificate), "-CAkey", path("\(signer.key).key")] }
            try OpenSSLCommand.run(arguments)
        }
        try issue("root.pem", "Bridge Test Root", key: "root", by: nil)
        try issue("b-by-root.pem", "Bridge CA B", key: "b", by: ("root.pem", "root"), digest: "sha1")
        try issue("a-by-b.pem", "Member CA A", key: "a", by: ("b-by-root.pem", "b"))
        try issue("b-by-a.pem", "Bridge CA B", key: "b", by: ("a-by-b.pem", "a"))
        try issue("c-by-b.pem", "Member CA C", key: "c", by: ("b-by-root.pem", "b"))
        try issue("b-by-c.pem", "Bridge CA B", key: "b", by: ("c-by-b.pem", "c"))
        try issue(
            "leaf.pem", BridgeCAGraph.host, key: "leaf", by: ("a-by-b.pem", "a"),
            extensions: [
                "basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature", "extendedKeyUsage = serverAuth",
                "subjectAltName = DNS:\(BridgeCAGraph.host)", "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid",
            ])
        let intermediates = try ["a-by-b.pem", "b-by-a.pem", "b-by-c.pem", "c-by-b.pem", "b-by-root.pem"]
            .map { try String(contentsOfFile: path($0), encoding: .utf8) }.joined()
        try intermediates.write(toFile: path("intermediates.pem"), atomically: true, encoding: .utf8)
        let leaf = try String(contentsOfFile: path("leaf.pem"), encoding: .utf8)
        try (leaf + intermediates).write(toFile: path("presented.pem"), atomically: true, encoding: .utf8)
        rootPath = path("root.pem")
        presentedPath = path("presented.pem")
        intermediatesPath = path("intermediates.pem")
        leafPath = path("leaf.pem")
        memberAPath = path("a-by-b.pem")
        bridgeByRootPath = path("b-by-root.pem")
    }
}
