import Foundation
import XCTest
@testable import TrustCore
import TrustX509

/// Issues real certificates with the openssl CLI (`openssl req -x509 -CA …`) under the ECDSA test
/// hierarchy of TestCertificates/, for names the committed corpus does not have (wildcards over
/// public suffixes, mailboxes, rfc822Name constraints). Valid from now for 30 days: evaluate them
/// at the current time.
struct OpenSSLIssuer {
    /// A certificate file and the key that signs with it.
    struct Authority {
        let certificatePath: String
        let keyPath: String

        /// The committed ECDSA intermediate (issued by ecdsa/root.pem).
        static let intermediate = Authority(certificatePath: Fixtures.path("ecdsa/intermediate.pem"),
                                            keyPath: Fixtures.path("keys/ecdsa/intermediate.key.pem"))
        /// The committed ECDSA root.
        static let root = Authority(certificatePath: Fixtures.path("ecdsa/root.pem"), keyPath: Fixtures.path("keys/ecdsa/root.key.pem"))
    }

    /// openssl refused to issue; its output says why.
    struct IssueError: Error { let output: String }

    let directory: URL
    private var issued = 0

    /// An issuer writing into a fresh temporary directory (removed by ``remove()``).
    init() throws {
        guard OpenSSLVerifyDifferentialTests.opensslPath != nil else { throw XCTSkip("openssl is not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-issuer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// The extensions of a TLS leaf: not a CA, digitalSignature, `eku`, the given SAN entries
    /// (openssl syntax, e.g. `DNS:*.example.com`, `email:user@example.com`), SKI and AKI.
    static func leafExtensions(subjectAltNames: [String], eku: String = "serverAuth") -> [String] {
        ["basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature", "extendedKeyUsage = \(eku)",
         "subjectAltName = " + subjectAltNames.joined(separator: ", "),
         "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid"]
    }

    /// The extensions of an intermediate CA with `nameConstraints` (openssl syntax, e.g.
    /// `permitted;email:.example.com`).
    static func constrainedCAExtensions(_ nameConstraints: String) -> [String] {
        ["basicConstraints = critical, CA:TRUE", "keyUsage = critical, keyCertSign, cRLSign",
         "nameConstraints = critical, \(nameConstraints)", "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid"]
    }

    /// Issues a certificate for the committed key `key` (relative to TestCertificates/) with
    /// `extensions`, signed by `authority`; returns it and an ``Authority`` for issuing under it.
    mutating func issue(commonName: String, extensions: [String], by authority: Authority = .intermediate,
                        key: String = "keys/ecdsa/leaf.key.pem") throws -> (certificate: Certificate, authority: Authority) {
        issued += 1
        let config = directory.appendingPathComponent("cert\(issued).cnf")
        let output = directory.appendingPathComponent("cert\(issued).pem")
        let text = (["[req]", "distinguished_name = dn", "x509_extensions = ext", "prompt = no", "[dn]", "CN = \(commonName)", "[ext]"]
            + extensions).joined(separator: "\n") + "\n"
        try text.write(to: config, atomically: true, encoding: .utf8)
        guard let openssl = OpenSSLVerifyDifferentialTests.opensslPath else { throw XCTSkip("openssl is not installed") }
        let keyPath = Fixtures.path(key)
        let run = try OpenSSLVerifyDifferentialTests.run(openssl, [
            "req", "-x509", "-new", "-config", config.path, "-key", keyPath, "-CA", authority.certificatePath,
            "-CAkey", authority.keyPath, "-days", "30", "-out", output.path,
        ])
        guard run.status == 0 else { throw IssueError(output: run.output) }
        let certificate = try Certificate(pemEncoded: String(decoding: try Data(contentsOf: output), as: UTF8.self))
        return (certificate, Authority(certificatePath: output.path, keyPath: keyPath))
    }

    /// A trust for `leaf` and `intermediates` (default: the committed ECDSA intermediate) anchored
    /// at the committed ECDSA root, evaluated now.
    static func trust(_ leaf: Certificate, intermediates: [Certificate]? = nil, policies: [TrustPolicy]) throws -> ServerTrust {
        let chain = try intermediates ?? [Fixtures.certificate("ecdsa/intermediate.pem")]
        let trust = ServerTrust(certificates: [leaf] + chain, policies: policies)
        trust.setAnchorCertificates([try Fixtures.certificate("ecdsa/root.pem")])
        return trust
    }
}
