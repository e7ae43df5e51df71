// The operations timed in each column: SwiftTrust's own, libcrypto's (COpenSSLBench) and
// swift-certificates' (SwiftCertificatesBench), on the same DER bytes.
import COpenSSLBench
import Foundation
import SwiftCertificatesBench
import SwiftTrust

/// One test chain: root → intermediate → leaf, as DER.
struct Chain: Sendable {
    let name: String
    let root: [UInt8]
    let intermediate: [UInt8]
    let leaf: [UInt8]
    let host: String
    let date: Date

    var epochSeconds: Int64 { Int64(date.timeIntervalSince1970) }

    static func load(name: String, directory: String, host: String, date: Date) throws -> Chain {
        func der(_ file: String) throws -> [UInt8] {
            let path = directory + "/" + file
            guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("cannot read \(path)") }
            let blocks = try PEM.decode(String(decoding: data, as: UTF8.self))
            guard let block = blocks.first(where: { $0.label == "CERTIFICATE" }) else { throw BenchError("no certificate in \(path)") }
            return block.der
        }
        return Chain(
            name: name, root: try der("root.pem"), intermediate: try der("intermediate.pem"),
            leaf: try der("leaf.pem"), host: host, date: date)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - SwiftTrust

enum Ours {
    /// Reads every field and every typed extension view, so that a lazy implementation pays for
    /// what an eager one does at parse time.
    @inline(__always)
    static func touch(_ certificate: Certificate) -> Int {
        let extensions = certificate.extensions
        var sum = touchValidated(certificate)
        sum &+= certificate.issuer.normalizedKey.count &+ certificate.subject.normalizedKey.count
        sum &+= extensions.issuerAlternativeNames?.count ?? 0
        sum &+= extensions.crlDistributionPoints != nil ? 1 : 0
        sum &+= extensions.authorityInformationAccess != nil ? 1 : 0
        sum &+= extensions.tlsFeature != nil ? 1 : 0
        sum &+= extensions.signedCertificateTimestamps?.count ?? 0
        sum &+= extensions.all.count
        return sum
    }

    /// Reads what validation reads: every field and every typed view except those only
    /// revocation fetching, diagnostics and display read (issuerAltName, cRLDistributionPoints,
    /// authorityInfoAccess, the TLS feature, the SCT list), and not the list of every extension as
    /// `Extension` values (validation reads which known kinds are present and critical, bit sets
    /// kept at parse time, through package API). Of the names, the self-issued test: validation compares names, and
    /// builds a name's comparison key only to look it up in an indexed store (more than
    /// `CertificateStore.indexThreshold` certificates, e.g. the system store: the issuer name of
    /// the chain's top certificate) or when the names' fingerprints cannot tell them apart.
    @inline(__always)
    static func touchValidated(_ certificate: Certificate) -> Int {
        var sum = certificate.version &+ certificate.serialNumber.count &+ certificate.tbsCertificateBytes.count
        sum &+= certificate.isSelfIssued ? 1 : 0
        sum &+= Int(certificate.notBefore.secondsSince1970 &+ certificate.notAfter.secondsSince1970)
        sum &+= certificate.publicKeyInfo.der.count &+ certificate.publicKeyInfo.keyBytes.count
        sum &+= certificate.signature.count &+ (certificate.signatureAlgorithmIdentifier.der.count)
        sum &+= (try? certificate.signatureAlgorithm()) != nil ? 1 : 0
        sum &+= certificate.issuerUniqueID != nil ? 1 : 0
        sum &+= certificate.subjectUniqueID != nil ? 1 : 0
        let extensions = certificate.extensions
        sum &+= (extensions.basicConstraints?.isCA ?? false) ? 1 : 0
        sum &+= extensions.keyUsage != nil ? 1 : 0
        sum &+= extensions.extendedKeyUsage != nil ? 1 : 0
        sum &+= extensions.subjectAlternativeNames?.count ?? 0
        sum &+= extensions.nameConstraints != nil ? 1 : 0
        sum &+= extensions.authorityKeyIdentifier?.keyIdentifier?.count ?? 0
        sum &+= extensions.subjectKeyIdentifier?.keyIdentifier.count ?? 0
        sum &+= extensions.certificatePolicies != nil ? 1 : 0
        sum &+= extensions.policyMappings != nil ? 1 : 0
        sum &+= extensions.policyConstraints != nil ? 1 : 0
        sum &+= extensions.inhibitAnyPolicy != nil ? 1 : 0
        return sum
    }

    /// `Certificate(derEncoded:)` and every view read once.
    @inline(never)
    static func parse(_ der: [UInt8]) -> Bool {
        guard let certificate = try? Certificate(derEncoded: der) else { return false }
        consume(touch(certificate))
        return true
    }

    /// `Certificate(derEncoded:)` and what validation reads, read once.
    @inline(never)
    static func parseValidated(_ der: [UInt8]) -> Bool {
        guard let certificate = try? Certificate(derEncoded: der) else { return false }
        consume(touchValidated(certificate))
        return true
    }

    static func trust(leaf: Certificate, intermediate: Certificate, root: Certificate, chain: Chain) -> ServerTrust {
        let trust = ServerTrust(certificates: [leaf, intermediate], policies: [.ssl(server: true, hostname: chain.host)])
        trust.setAnchorCertificates([root])
        trust.verifyDate = chain.date
        return trust
    }

    /// Parses the three certificates and evaluates a new `ServerTrust`.
    @inline(never)
    static func verifyFresh(_ chain: Chain) -> TrustEvaluation? {
        guard let leaf = try? Certificate(derEncoded: chain.leaf),
            let intermediate = try? Certificate(derEncoded: chain.intermediate),
            let root = try? Certificate(derEncoded: chain.root)
        else { return nil }
        return trust(leaf: leaf, intermediate: intermediate, root: root, chain: chain).evaluate()
    }

    /// A new `ServerTrust` over already parsed certificates.
    @inline(never)
    static func verifyReused(_ parsed: ParsedChain, _ chain: Chain) -> TrustEvaluation {
        trust(leaf: parsed.leaf, intermediate: parsed.intermediate, root: parsed.root, chain: chain).evaluate()
    }
}

struct ParsedChain: Sendable {
    let leaf: Certificate
    let intermediate: Certificate
    let root: Certificate

    init(_ chain: Chain) throws {
        leaf = try Certificate(derEncoded: chain.leaf)
        intermediate = try Certificate(derEncoded: chain.intermediate)
        root = try Certificate(derEncoded: chain.root)
    }
}

/// `SignatureVerifier.verify` of `child` with a pre-built key of `issuer` and a pre-decoded algorithm.
struct OursSignatureCheck: Sendable {
    let child: Certificate
    let algorithm: SignatureAlgorithm
    let key: VerificationKey

    init(child: Certificate, issuer: Certificate) throws {
        self.child = child
        algorithm = try child.signatureAlgorithm()
        key = try VerificationKey(spki: issuer.publicKeyInfo.der)
    }

    @inline(never)
    func check() -> Bool {
        do {
            try SignatureVerifier.verify(signature: child.signature, over: child.tbsCertificateBytes, algorithm: algorithm, key: key)
            return true
        } catch {
            return false
        }
    }
}

// MARK: - OpenSSL 3 (libcrypto, through COpenSSLBench)

enum LibCrypto {
    static var version: String { String(cString: ob_openssl_version()) }

    @inline(never)
    static func parseFull(_ der: [UInt8]) -> Bool {
        der.withUnsafeBufferPointer { ob_parse_full($0.baseAddress, $0.count) == 1 }
    }

    @inline(never)
    static func parseD2I(_ der: [UInt8]) -> Bool {
        der.withUnsafeBufferPointer { ob_parse_d2i($0.baseAddress, $0.count) == 1 }
    }

    @inline(never)
    static func verifyFresh(_ chain: Chain) -> Int32 {
        chain.leaf.withUnsafeBufferPointer { leaf in
            chain.intermediate.withUnsafeBufferPointer { intermediate in
                chain.root.withUnsafeBufferPointer { root in
                    ob_verify_fresh(
                        leaf.baseAddress, leaf.count, intermediate.baseAddress, intermediate.count,
                        root.baseAddress, root.count, chain.host, chain.epochSeconds)
                }
            }
        }
    }

    static var lastVerifyError: String { String(cString: ob_last_verify_error()) }
}

/// libcrypto objects parsed once: three `X509`s and an `X509_STORE` holding the root.
final class LibCryptoChain: @unchecked Sendable {
    let leaf: OpaquePointer
    let intermediate: OpaquePointer
    let root: OpaquePointer
    let store: OpaquePointer
    let host: String
    let time: Int64

    init(_ chain: Chain) throws {
        func parse(_ der: [UInt8]) throws -> OpaquePointer {
            guard let cert = der.withUnsafeBufferPointer({ ob_cert_new($0.baseAddress, $0.count) }) else {
                throw BenchError("libcrypto could not parse a \(chain.name) certificate")
            }
            return cert
        }
        leaf = try parse(chain.leaf)
        intermediate = try parse(chain.intermediate)
        root = try parse(chain.root)
        guard let store = ob_store_new(root) else { throw BenchError("X509_STORE_add_cert failed") }
        self.store = store
        host = chain.host
        time = chain.epochSeconds
    }

    @inline(never)
    func verify() -> Int32 { ob_verify_reused(store, leaf, intermediate, host, time) }

    deinit {
        ob_store_free(store)
        ob_cert_free(leaf)
        ob_cert_free(intermediate)
        ob_cert_free(root)
    }
}

/// `EVP_DigestVerify` of a certificate's signature with a reused `EVP_PKEY` of its issuer.
final class LibCryptoSignatureCheck: @unchecked Sendable {
    let key: OpaquePointer
    let tbs: [UInt8]
    let signature: [UInt8]

    init(child: [UInt8], issuer: [UInt8]) throws {
        guard let key = issuer.withUnsafeBufferPointer({ ob_key_from_cert($0.baseAddress, $0.count) }) else {
            throw BenchError("libcrypto could not build the issuer key")
        }
        self.key = key
        var tbsOffset = 0, tbsLength = 0, signatureLength = 0
        var signature = [UInt8](repeating: 0, count: 1024)
        let ok = child.withUnsafeBufferPointer { der in
            signature.withUnsafeMutableBufferPointer { out in
                ob_split_certificate(der.baseAddress, der.count, &tbsOffset, &tbsLength, out.baseAddress, out.count, &signatureLength)
            }
        }
        guard ok == 1 else { throw BenchError("libcrypto could not split the certificate") }
        tbs = Array(child[tbsOffset..<(tbsOffset + tbsLength)])
        self.signature = Array(signature.prefix(signatureLength))
    }

    @inline(never)
    func check() -> Bool {
        signature.withUnsafeBufferPointer { signature in
            tbs.withUnsafeBufferPointer { tbs in
                ob_digest_verify_sha256(key, signature.baseAddress, signature.count, tbs.baseAddress, tbs.count) == 1
            }
        }
    }

    deinit { ob_key_free(key) }
}
