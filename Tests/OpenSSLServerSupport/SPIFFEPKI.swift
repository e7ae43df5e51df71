import Foundation
import TrustX509

/// Two SPIFFE trust domains made with the openssl CLI for the SPIFFE tests (fresh P-256 keys, valid
/// from now for 30 days): `example.org` (a root and an intermediate, both signing certificates with
/// the trust domain's SPIFFE ID, spiffe/spiffe X509-SVID §3.2) and `other.example` (a root only),
/// X.509-SVIDs that follow every rule of X509-SVID, one certificate that breaks each rule, and each
/// trust domain's bundle as SPIFFE bundle JSON (SPIFFE_Trust_Domain_and_Bundle §4) and PEM.
///
/// Every path is a file in the directory given to ``init(in:)``; each ``Credential`` has a leaf
/// file, a chain file (leaf first, then the intermediates, never the root: what a TLS peer sends)
/// and a key file, and the parsed certificates.
public struct SPIFFEPKI: Sendable {
    /// One trust domain: its CA certificates and bundle files.
    public struct TrustDomain: Sendable {
        /// `example.org` or `other.example`.
        public let name: String
        /// The root (PEM) and its key; the root is the bundle's one X.509 authority.
        public let rootPath: String
        public let rootKeyPath: String
        public let root: Certificate
        /// The intermediate (PEM) and its key, when the trust domain has one.
        public let intermediatePath: String?
        public let intermediateKeyPath: String?
        public let intermediate: Certificate?
        /// The SPIFFE bundle (a JWK Set: one `x509-svid` key holding the root in `x5c`, and a
        /// `jwt-svid` key to be ignored), with `spiffe_sequence` 1 and `spiffe_refresh_hint` 300.
        public let bundleJSONPath: String
        /// The root as PEM: the bundle for a reader told the trust domain.
        public let bundlePEMPath: String
    }

    /// A leaf certificate with its key and the chain a peer would present.
    public struct Credential: Sendable {
        /// The leaf alone (PEM).
        public let certificatePath: String
        /// The leaf followed by its intermediates, if any (PEM): what a TLS peer presents.
        public let chainPath: String
        /// The leaf's private key (PEM, PKCS#8).
        public let keyPath: String
        /// The leaf.
        public let certificate: Certificate
        /// The certificates of ``chainPath``, leaf first.
        public let chain: [Certificate]
    }

    /// What each certificate of ``defective`` does wrong: one X.509-SVID rule each.
    public enum Defect: String, CaseIterable, Sendable {
        /// Two URI SANs (X509-SVID §2).
        case twoURIs
        /// No URI SAN, only a DNS name (X509-SVID §2).
        case noURI
        /// A URI SAN that is not a SPIFFE ID: a dot segment, `spiffe://example.org/ns/./api` (SPIFFE-ID §2.2).
        case invalidSPIFFEID
        /// A URI SAN that is the trust domain's own ID, `spiffe://example.org` (X509-SVID §3.1, §5.2).
        case trustDomainID
        /// A leaf with basicConstraints cA true (X509-SVID §4.1).
        case caLeaf
        /// A leaf without keyUsage (X509-SVID §4.3).
        case noKeyUsage
        /// A leaf whose keyUsage lacks digitalSignature (keyEncipherment only; X509-SVID §4.3).
        case noDigitalSignature
        /// A leaf with keyCertSign (X509-SVID §4.3, §5.2).
        case keyCertSignLeaf
        /// A leaf with cRLSign (X509-SVID §4.3, §5.2).
        case cRLSignLeaf
        /// A good leaf under an intermediate (cA true) that has no keyUsage (X509-SVID §3.2, §4.3).
        case signerWithoutKeyUsage
        /// A good leaf under an intermediate (cA true) whose keyUsage lacks keyCertSign (X509-SVID §4.3;
        /// RFC 5280 §6.1.4 (n)).
        case signerWithoutKeyCertSign
    }

    /// The SPIFFE ID of ``server``, ``loopback`` and most defective leaves.
    public static let serverID = "spiffe://example.org/ns/prod/sa/api"
    /// The SPIFFE ID of ``client``.
    public static let clientID = "spiffe://example.org/ns/prod/sa/client"
    /// The SPIFFE ID of ``otherDomainServer``.
    public static let otherDomainID = "spiffe://other.example/ns/prod/sa/api"

    /// `example.org`: root and intermediate.
    public let example: TrustDomain
    /// `other.example`: a root only, which issues its SVIDs directly.
    public let other: TrustDomain
    /// ``serverID`` under example.org's intermediate; extendedKeyUsage serverAuth and clientAuth (X509-SVID §4.4).
    public let server: Credential
    /// ``clientID`` under example.org's intermediate; extendedKeyUsage serverAuth and clientAuth.
    public let client: Credential
    /// ``serverID`` with `DNS:localhost` and `IP:127.0.0.1` besides the URI, for loopback servers;
    /// extendedKeyUsage serverAuth and clientAuth.
    public let loopback: Credential
    /// ``serverID`` without extendedKeyUsage (X509-SVID §4.4: SHOULD, not MUST).
    public let withoutExtendedKeyUsage: Credential
    /// ``clientID`` with extendedKeyUsage clientAuth only (not what X509-SVID §4.4 asks: both).
    public let clientAuthOnly: Credential
    /// ``otherDomainID``, issued by other.example's root; extendedKeyUsage serverAuth and clientAuth,
    /// `DNS:localhost` and `IP:127.0.0.1` too.
    public let otherDomainServer: Credential
    /// One certificate per broken rule, under example.org.
    public let defective: [Defect: Credential]

    /// Writes the PKI into `directory` (which must exist).
    public init(in directory: URL) throws {
        let writer = Writer(directory: directory)
        try writer.prepare()
        example = try writer.trustDomain("example.org", withIntermediate: true)
        other = try writer.trustDomain("other.example", withIntermediate: false)
        let exampleIssuer = Writer.Issuer(
            certificate: example.intermediatePath ?? example.rootPath,
            key: example.intermediateKeyPath ?? example.rootKeyPath,
            chain: example.intermediatePath.map { [$0] } ?? [])
        let otherIssuer = Writer.Issuer(certificate: other.rootPath, key: other.rootKeyPath, chain: [])
        let loopbackNames = "DNS:localhost, IP:127.0.0.1"
        server = try writer.leaf("server", san: "URI:\(Self.serverID)", by: exampleIssuer)
        client = try writer.leaf("client", san: "URI:\(Self.clientID)", by: exampleIssuer)
        loopback = try writer.leaf("loopback", san: "URI:\(Self.serverID), \(loopbackNames)", by: exampleIssuer)
        withoutExtendedKeyUsage = try writer.leaf("no-eku", san: "URI:\(Self.serverID)", eku: nil, by: exampleIssuer)
        clientAuthOnly = try writer.leaf("client-auth-only", san: "URI:\(Self.clientID)", eku: "clientAuth", by: exampleIssuer)
        otherDomainServer = try writer.leaf("other-server", san: "URI:\(Self.otherDomainID), \(loopbackNames)", by: otherIssuer)
        var defective: [Defect: Credential] = [:]
        for defect in Defect.allCases {
            defective[defect] = try writer.defective(defect, by: exampleIssuer, root: example)
        }
        self.defective = defective
    }

    /// A PKI written into a new directory under the temporary directory (`swifttrust-NAME-PID-UUID`),
    /// left for the process's lifetime (test classes share one).
    public static func inTemporaryDirectory(named name: String) throws -> SPIFFEPKI {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swifttrust-\(name)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try SPIFFEPKI(in: directory)
    }

    /// The certificate that breaks `defect`'s rule.
    public func credential(_ defect: Defect) -> Credential {
        // Every defect is written by init; the server credential stands in for none.
        defective[defect] ?? server
    }
}

/// Writes SPIFFEPKI's files with the openssl CLI.
private struct Writer {
    /// A CA that issues leaves: its certificate and key files, and the intermediates a chain file lists.
    struct Issuer {
        let certificate: String
        let key: String
        let chain: [String]
    }

    let directory: URL
    private var config: String { path("req.cnf") }
    private static let caExtensions = [
        "basicConstraints = critical, CA:TRUE", "keyUsage = critical, keyCertSign, cRLSign",
        "subjectKeyIdentifier = hash",
    ]

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func prepare() throws {
        try "[req]\ndistinguished_name = dn\nprompt = no\n[dn]\n".write(toFile: config, atomically: true, encoding: .utf8)
    }

    /// A fresh P-256 key in `name.key`.
    func key(_ name: String) throws -> String {
        let file = path("\(name).key")
        try OpenSSLCommand.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", file])
        return file
    }

    /// `name.pem`, for `key`, with `extensions`; signed by `issuer` (certificate and key) or self-signed.
    func certificate(_ name: String, commonName: String, key: String, extensions: [String], issuer: (String, String)?) throws -> String {
        let file = path("\(name).pem")
        var arguments = [
            "req", "-x509", "-new", "-config", config, "-key", key, "-subj", "/CN=\(commonName)",
            "-days", "30", "-sha256", "-set_serial", "\(Self.serial(for: name))", "-out", file,
        ]
        arguments += extensions.flatMap { ["-addext", $0] }
        if let (certificate, caKey) = issuer { arguments += ["-CA", certificate, "-CAkey", caKey] }
        try OpenSSLCommand.run(arguments)
        return file
    }

    /// A serial number from the file name (distinct per certificate of the PKI).
    private static func serial(for name: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash & 0x7FFF_FFFF | 1
    }

    func trustDomain(_ name: String, withIntermediate: Bool) throws -> SPIFFEPKI.TrustDomain {
        let rootKey = try key("\(name)-root")
        let rootPath = try certificate(
            "\(name)-root", commonName: "\(name) SPIFFE Root", key: rootKey,
            extensions: Self.caExtensions + ["subjectAltName = URI:spiffe://\(name)"], issuer: nil)
        var intermediate: (path: String, key: String)?
        if withIntermediate {
            let intermediateKey = try key("\(name)-intermediate")
            let intermediatePath = try certificate(
                "\(name)-intermediate", commonName: "\(name) SPIFFE Intermediate", key: intermediateKey,
                extensions: Self.caExtensions + ["authorityKeyIdentifier = keyid", "subjectAltName = URI:spiffe://\(name)"],
                issuer: (rootPath, rootKey))
            intermediate = (intermediatePath, intermediateKey)
        }
        let root = try Self.parse(rootPath)[0]
        let bundlePEMPath = path("\(name)-bundle.pem")
        try FileManager.default.copyItem(atPath: rootPath, toPath: bundlePEMPath)
        let bundleJSONPath = path("\(name)-bundle.json")
        try Self.bundleJSON(root).write(toFile: bundleJSONPath, atomically: true, encoding: .utf8)
        return SPIFFEPKI.TrustDomain(
            name: name, rootPath: rootPath, rootKeyPath: rootKey, root: root,
            intermediatePath: intermediate?.path, intermediateKeyPath: intermediate?.key,
            intermediate: try intermediate.map { try Self.parse($0.path)[0] },
            bundleJSONPath: bundleJSONPath, bundlePEMPath: bundlePEMPath)
    }

    /// A SPIFFE bundle holding `root` as its one X.509 authority (X509-SVID §6.1), beside a JWT
    /// authority that an X.509 reader passes over.
    static func bundleJSON(_ root: Certificate) -> String {
        let x5c = Data(root.derEncoded).base64EncodedString()
        return """
            {
              "keys": [
                {"use": "x509-svid", "kty": "EC", "crv": "P-256", "x5c": ["\(x5c)"]},
                {"use": "jwt-svid", "kty": "EC", "kid": "jwt-authority", "crv": "P-256",
                 "x": "fK-wKTnKL7KFLM27lqq5DC-bxrVaH6rDV-IcCSEOeL4", "y": "wq-g3TQWxYlV51TCPH030yXsRxvujD4hUUaIQrXk4KI"}
              ],
              "spiffe_sequence": 1,
              "spiffe_refresh_hint": 300
            }

            """
    }

    /// The leaf extensions of a conforming X.509-SVID (X509-SVID §4), with `san` and, unless nil, `eku`.
    static func leafExtensions(
        san: String?, eku: String? = "serverAuth, clientAuth",
        basicConstraints: String = "critical, CA:FALSE",
        keyUsage: String? = "critical, digitalSignature"
    ) -> [String] {
        var lines = ["basicConstraints = \(basicConstraints)", "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid"]
        if let keyUsage { lines.append("keyUsage = \(keyUsage)") }
        if let eku { lines.append("extendedKeyUsage = \(eku)") }
        if let san { lines.append("subjectAltName = \(san)") }
        return lines
    }

    func leaf(_ name: String, san: String, eku: String? = "serverAuth, clientAuth", by issuer: Issuer) throws -> SPIFFEPKI.Credential {
        try leaf(name, extensions: Self.leafExtensions(san: san, eku: eku), by: issuer)
    }

    func leaf(_ name: String, extensions: [String], by issuer: Issuer) throws -> SPIFFEPKI.Credential {
        let leafKey = try key(name)
        let certificatePath = try certificate(
            name, commonName: name, key: leafKey, extensions: extensions,
            issuer: (issuer.certificate, issuer.key))
        let chainPath = path("\(name)-chain.pem")
        var chain = try String(contentsOfFile: certificatePath, encoding: .utf8)
        for intermediate in issuer.chain { chain += try String(contentsOfFile: intermediate, encoding: .utf8) }
        try chain.write(toFile: chainPath, atomically: true, encoding: .utf8)
        let certificates = try Self.parse(chainPath)
        return SPIFFEPKI.Credential(
            certificatePath: certificatePath, chainPath: chainPath, keyPath: leafKey,
            certificate: certificates[0], chain: certificates)
    }

    /// The certificate that breaks `defect`'s rule, one defect away from ``SPIFFEPKI/server``.
    func defective(_ defect: SPIFFEPKI.Defect, by issuer: Issuer, root: SPIFFEPKI.TrustDomain) throws -> SPIFFEPKI.Credential {
        let name = "defect-\(defect.rawValue)"
        let id = "URI:\(SPIFFEPKI.serverID)"
        switch defect {
        case .twoURIs:
            return try leaf(name, san: "\(id), URI:spiffe://example.org/ns/prod/sa/other", by: issuer)
        case .noURI:
            return try leaf(name, san: "DNS:api.example.org", by: issuer)
        case .invalidSPIFFEID:
            return try leaf(name, san: "URI:spiffe://example.org/ns/./api", by: issuer)
        case .trustDomainID:
            return try leaf(name, san: "URI:spiffe://example.org", by: issuer)
        case .caLeaf:
            return try leaf(name, extensions: Self.leafExtensions(san: id, basicConstraints: "critical, CA:TRUE"), by: issuer)
        case .noKeyUsage:
            return try leaf(name, extensions: Self.leafExtensions(san: id, keyUsage: nil), by: issuer)
        case .noDigitalSignature:
            return try leaf(name, extensions: Self.leafExtensions(san: id, keyUsage: "critical, keyEncipherment"), by: issuer)
        case .keyCertSignLeaf:
            return try leaf(name, extensions: Self.leafExtensions(san: id, keyUsage: "critical, digitalSignature, keyCertSign"), by: issuer)
        case .cRLSignLeaf:
            return try leaf(name, extensions: Self.leafExtensions(san: id, keyUsage: "critical, digitalSignature, cRLSign"), by: issuer)
        case .signerWithoutKeyUsage, .signerWithoutKeyCertSign:
            var extensions = [
                "basicConstraints = critical, CA:TRUE", "subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid",
                "subjectAltName = URI:spiffe://example.org",
            ]
            if defect == .signerWithoutKeyCertSign { extensions.append("keyUsage = critical, digitalSignature, cRLSign") }
            let signerKey = try key("\(name)-ca")
            let signer = try certificate(
                "\(name)-ca", commonName: "example.org \(defect.rawValue) CA", key: signerKey,
                extensions: extensions, issuer: (root.rootPath, root.rootKeyPath))
            return try leaf(name, san: id, by: Issuer(certificate: signer, key: signerKey, chain: [signer]))
        }
    }

    static func parse(_ path: String) throws -> [Certificate] {
        try Certificate.loadAll(from: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }
}
