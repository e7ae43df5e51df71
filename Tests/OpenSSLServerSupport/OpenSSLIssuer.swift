import Foundation
import TrustTestSupport
import TrustX509

/// Issues real certificates with the openssl CLI (`openssl req -x509 -CA …`) under the ECDSA test
/// hierarchy of TestCertificates/ (or self-signed), for names and defects the committed corpus does
/// not have (wildcards over public suffixes, mailboxes, rfc822Name constraints, odd serials, empty
/// names, weak keys, v1 certificates). Valid from now for 30 days unless told otherwise: evaluate
/// them at the current time.
public struct OpenSSLIssuer: Sendable {
    /// A certificate file and the key that signs with it.
    public struct Authority: Sendable {
        public let certificatePath: String
        public let keyPath: String

        /// An authority signing with `keyPath` as the certificate at `certificatePath`.
        public init(certificatePath: String, keyPath: String) {
            self.certificatePath = certificatePath
            self.keyPath = keyPath
        }

        /// The committed ECDSA intermediate (issued by ecdsa/root.pem).
        public static let intermediate = Authority(
            certificatePath: TestCertificates.path("ecdsa/intermediate.pem"),
            keyPath: TestCertificates.path("keys/ecdsa/intermediate.key.pem"))
        /// The committed ECDSA root.
        public static let root = Authority(
            certificatePath: TestCertificates.path("ecdsa/root.pem"), keyPath: TestCertificates.path("keys/ecdsa/root.key.pem"))
    }

    /// openssl refused to issue; its output says why.
    public struct IssueError: Error, CustomStringConvertible {
        /// What openssl printed.
        public let output: String
        public var description: String { output }
        /// openssl's refusal, with what it printed.
        public init(output: String) { self.output = output }
    }

    /// Where the issued files are written.
    public let directory: URL
    private var issued = 0

    /// An issuer writing into a fresh temporary directory (removed by ``remove()``).
    /// - Throws: ``OpenSSLCommand/Failure/opensslMissing`` without an openssl binary.
    public init() throws {
        guard OpenSSLCommand.executable != nil else { throw OpenSSLCommand.Failure.opensslMissing }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-issuer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    public func remove() { try? FileManager.default.removeItem(at: directory) }

    /// The extensions of a TLS leaf: not a CA, digitalSignature, `eku`, the given SAN entries
    /// (openssl syntax, e.g. `DNS:*.example.com`, `email:user@example.com`), SKI and AKI.
    public static func leafExtensions(subjectAltNames: [String], eku: String = "serverAuth") -> [String] {
        [
            "basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature", "extendedKeyUsage = \(eku)",
            "subjectAltName = " + subjectAltNames.joined(separator: ", "),
            "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid",
        ]
    }

    /// The extensions of an intermediate CA with `nameConstraints` (openssl syntax, e.g.
    /// `permitted;email:.example.com`).
    public static func constrainedCAExtensions(_ nameConstraints: String) -> [String] {
        [
            "basicConstraints = critical, CA:TRUE", "keyUsage = critical, keyCertSign, cRLSign",
            "nameConstraints = critical, \(nameConstraints)", "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid",
        ]
    }

    /// Issues a certificate for `key` (relative to TestCertificates/, or an absolute path such as
    /// ``generateRSAKey(bits:)`` returns) with `extensions`, signed by `authority` (nil: self-signed);
    /// returns it and an ``Authority`` for issuing under it. A nil `commonName` gives an empty subject
    /// (and, self-signed, an empty issuer); `serial` is openssl's `-set_serial` (e.g. `0`, `-1`, `0x…`).
    /// Valid from now for `days` days. `subject` (openssl `[dn]` lines, e.g. `O = SwiftTrust`)
    /// replaces the CN-only subject; `sections` are extra config sections the extensions refer to
    /// (e.g. `[dp]` for crlDistributionPoints). `digest` is the signature's hash (openssl's `-sha1`,
    /// `-sha384` …; default SHA-256).
    public mutating func issue(
        commonName: String?, extensions: [String], by authority: Authority? = .intermediate,
        key: String = "keys/ecdsa/leaf.key.pem", serial: String? = nil, days: Int = 30,
        subject: [String]? = nil, sections: [String] = [], digest: String? = nil
    ) throws
        -> (certificate: Certificate, authority: Authority)
    {
        let config = try writeConfig(subject: subject ?? commonName.map { ["CN = \($0)"] } ?? [], extensions: extensions + sections)
        let output = nextPath("pem")
        let keyPath = Self.resolve(key)
        var arguments = ["req", "-x509", "-new", "-config", config, "-key", keyPath, "-days", "\(days)", "-out", output]
        if commonName == nil && subject == nil { arguments += ["-subj", "/"] }
        if let authority { arguments += ["-CA", authority.certificatePath, "-CAkey", authority.keyPath] }
        if let serial { arguments += ["-set_serial", serial] }
        if let digest { arguments.append("-" + digest) }
        return (try issueWithOpenSSL(arguments, output: output), Authority(certificatePath: output, keyPath: keyPath))
    }

    /// Issues a version 1 certificate (no extensions at all) for `key`, signed by `authority` (nil:
    /// self-signed). `openssl req -x509` always writes v3 extensions in OpenSSL 3, so this signs a
    /// request with `openssl x509 -req`, which writes v1 when given no extension file.
    public mutating func issueVersion1(
        commonName: String, by authority: Authority? = .intermediate,
        key: String = "keys/ecdsa/leaf.key.pem"
    ) throws -> (certificate: Certificate, authority: Authority) {
        let keyPath = Self.resolve(key)
        let request = nextPath("csr")
        try runOpenSSL(["req", "-new", "-key", keyPath, "-subj", "/CN=\(commonName)", "-out", request])
        let output = nextPath("pem")
        var arguments = ["x509", "-req", "-in", request, "-days", "30", "-out", output]
        if let authority {
            // A random serial (OpenSSL 3 writes no serial file without -CAcreateserial).
            arguments += ["-CA", authority.certificatePath, "-CAkey", authority.keyPath]
        } else {
            arguments += ["-signkey", keyPath]
        }
        return (try issueWithOpenSSL(arguments, output: output), Authority(certificatePath: output, keyPath: keyPath))
    }

    /// A fresh RSA key of `bits` bits (any size openssl accepts, e.g. 512 or 2052), as an absolute
    /// path for `issue(…key:)`.
    public mutating func generateRSAKey(bits: Int) throws -> String {
        let output = nextPath("key.pem")
        try runOpenSSL(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:\(bits)", "-out", output])
        return output
    }

    /// A fresh key of openssl `genpkey` algorithm `algorithm` (e.g. `ED25519`, or `EC` with the option
    /// `ec_paramgen_curve:prime192v1`), as an absolute path for `issue(…key:)`.
    public mutating func generateKey(algorithm: String, options: [String] = []) throws -> String {
        let output = nextPath("key.pem")
        try runOpenSSL(["genpkey", "-algorithm", algorithm] + options.flatMap { ["-pkeyopt", $0] } + ["-out", output])
        return output
    }

    /// A fresh DSA key of `bits` bits (parameters generated too), as an absolute path.
    public mutating func generateDSAKey(bits: Int) throws -> String {
        let parameters = nextPath("dsaparam.pem")
        try runOpenSSL(["genpkey", "-genparam", "-algorithm", "DSA", "-pkeyopt", "dsa_paramgen_bits:\(bits)", "-out", parameters])
        let output = nextPath("key.pem")
        try runOpenSSL(["genpkey", "-paramfile", parameters, "-out", output])
        return output
    }

    private static func resolve(_ key: String) -> String { key.hasPrefix("/") ? key : TestCertificates.path(key) }

    /// The next file name in ``directory``, with extension `suffix`.
    private mutating func nextPath(_ suffix: String) -> String {
        issued += 1
        return directory.appendingPathComponent("cert\(issued).\(suffix)").path
    }

    /// A `openssl req` configuration with `subject` (`[dn]` lines; none: empty) and `extensions`
    /// (followed by any sections they refer to).
    private mutating func writeConfig(subject: [String], extensions: [String]) throws -> String {
        let path = nextPath("cnf")
        let text =
            (["[req]", "distinguished_name = dn", "x509_extensions = ext", "prompt = no", "[dn]"] + subject + ["[ext]"]
            + extensions).joined(separator: "\n") + "\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs openssl with `arguments`; throws its output when it fails.
    public func runOpenSSL(_ arguments: [String]) throws {
        let run = try OpenSSLCommand.completed(arguments)
        guard run.status == 0 else { throw IssueError(output: run.output) }
    }

    /// Runs openssl with `arguments` and reads the certificate it wrote to `output`.
    private func issueWithOpenSSL(_ arguments: [String], output: String) throws -> Certificate {
        try runOpenSSL(arguments)
        return try Certificate(pemEncoded: String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self))
    }
}
