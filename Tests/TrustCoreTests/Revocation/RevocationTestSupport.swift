import Foundation
import Synchronization
import TrustCore
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

// Helpers shared by the Revocation*Tests classes of this target.

/// Loading revocation fixtures and building trust objects around them.
enum RevocationKit {
    static let intermediate = "ecdsa/intermediate.pem"
    static let goodLeaf = "revocation/good-leaf.pem"
    static let revokedLeaf = "revocation/revoked-leaf.pem"
    static let ocspURL = "http://ocsp.swifttrust.test"
    static let crlURL = "http://crl.swifttrust.test/ecdsa-intermediate.crl"

    static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> DERTime {
        DERTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)!
    }

    /// 2026-04-01T00:00:00Z, when revoked-leaf and revoked-intermediate were revoked.
    static let revocationDate = date(2026, 4, 1)

    static func crl(_ name: String) throws -> CertificateRevocationList {
        try CertificateRevocationList(derEncoded: TestCertificates.bytes("revocation/\(name).crl"))
    }

    static func ocsp(_ name: String) throws -> OCSPResponse {
        try OCSPResponse(derEncoded: TestCertificates.bytes("revocation/\(name).ocsp"))
    }

    /// A ServerTrust for `leaf` + `intermediates`, anchored at ecdsa/root.pem, host www.swifttrust.test,
    /// verify date 2026-06-01, with `.revocation(options)` and the named CRLs / OCSP responses supplied.
    static func trust(
        _ leaf: String, intermediates: [String] = [intermediate], options: RevocationOptions,
        crls: [String] = [], ocsp: [String] = []
    ) throws -> ServerTrust {
        let trust = try TestCertificates.trust(
            [leaf] + intermediates,
            policies: [.ssl(server: true, hostname: TestCertificates.host), .revocation(options)])
        if !crls.isEmpty { trust.setCRLs(try crls.map { try RevocationKit.crl($0) }) }
        if !ocsp.isEmpty { trust.setOCSPResponses(try ocsp.map { try RevocationKit.ocsp($0) }) }
        return trust
    }

    /// The same for an already parsed (e.g. re-issued) `leaf`.
    static func trust(
        _ leaf: Certificate, intermediates: [String] = [intermediate], options: RevocationOptions, crls: [String] = []
    ) throws -> ServerTrust {
        let trust = ServerTrust(
            certificates: [leaf] + (try intermediates.flatMap { try TestCertificates.certificates($0) }),
            policies: [.ssl(server: true, hostname: TestCertificates.host), .revocation(options)])
        trust.setAnchorCertificates(try TestCertificates.certificates("ecdsa/root.pem"))
        trust.verifyDate = TestCertificates.verifyDate
        if !crls.isEmpty { trust.setCRLs(try crls.map { try RevocationKit.crl($0) }) }
        return trust
    }

    /// The status of chain index `index`, or nil.
    static func status(_ evaluation: TrustEvaluation, _ index: Int) -> RevocationStatus? {
        evaluation.revocationStatuses.first { $0.index == index }?.status
    }

    /// The notes of an unknown status (empty for any other status).
    static func notes(_ status: RevocationStatus?) -> [String] {
        if case let .unknown(notes)? = status { return notes }
        return []
    }

    static func isUnknown(_ status: RevocationStatus?) -> Bool {
        if case .unknown? = status { return true }
        return false
    }

    /// The first failure's description ("" when there is none, so that a broken rule fails the
    /// test instead of crashing it).
    static func firstFailure(_ evaluation: TrustEvaluation) -> String {
        evaluation.failures.first?.description ?? ""
    }
}

/// A `RevocationFetcher` that serves canned bytes and records every call.
final class RecordingFetcher: RevocationFetcher {
    struct Call: Hashable, Sendable {
        let kind: String // "crl" or "ocsp"
        let url: String
        let request: [UInt8]
    }

    private let crls: [String: [UInt8]]
    private let ocsp: [String: [UInt8]]
    private let log = Mutex<[Call]>([])

    init(crls: [String: [UInt8]] = [:], ocsp: [String: [UInt8]] = [:]) {
        self.crls = crls
        self.ocsp = ocsp
    }

    var calls: [Call] { log.withLock { $0 } }

    func fetch(_ request: RevocationFetchRequest) async throws -> [UInt8] {
        log.withLock { $0.append(Call(kind: request.method.name.lowercased(), url: request.url, request: request.body ?? [])) }
        let served = request.method == .crl ? crls : request.method == .ocsp ? ocsp : [:]
        guard let bytes = served[request.url] else { throw URLError(.fileDoesNotExist) }
        return bytes
    }
}

// MARK: - Test-local DER tree and CRL signing (for CRLs the fixtures do not contain)

/// One DER element as an editable tree (single-octet tags, definite lengths).
struct RevocationTLV: Equatable {
    var tag: UInt8
    var content: [UInt8]
    var children: [RevocationTLV]

    var isConstructed: Bool { tag & 0x20 != 0 }

    static func primitive(_ tag: UInt8, _ content: [UInt8]) -> RevocationTLV { RevocationTLV(tag: tag, content: content, children: []) }
    static func constructed(_ tag: UInt8, _ children: [RevocationTLV]) -> RevocationTLV { RevocationTLV(tag: tag, content: [], children: children) }
    static func sequence(_ children: [RevocationTLV]) -> RevocationTLV { constructed(0x30, children) }
    static func oid(_ dotted: String) -> RevocationTLV { primitive(0x06, Array(ASN1ObjectIdentifier(dotted: dotted)!.bytes)) }
    static func octetString(_ content: [UInt8]) -> RevocationTLV { primitive(0x04, content) }
    static func integer(_ content: [UInt8]) -> RevocationTLV { primitive(0x02, content) }
    static func utcTime(_ text: String) -> RevocationTLV { primitive(0x17, Array(text.utf8)) }
    static func generalizedTime(_ text: String) -> RevocationTLV { primitive(0x18, Array(text.utf8)) }
    static let booleanTrue = primitive(0x01, [0xFF])
    static let null = primitive(0x05, [])

    static func `extension`(_ dotted: String, critical: Bool, value: [UInt8]) -> RevocationTLV {
        sequence([oid(dotted)] + (critical ? [booleanTrue] : []) + [octetString(value)])
    }

    static func parse(_ bytes: [UInt8]) throws -> RevocationTLV {
        var offset = 0
        let element = try parse(bytes, at: &offset)
        guard offset == bytes.count else { throw CocoaError(.coderReadCorrupt) }
        return element
    }

    private static func parse(_ bytes: [UInt8], at offset: inout Int) throws -> RevocationTLV {
        guard offset + 2 <= bytes.count, bytes[offset] & 0x1F != 0x1F else { throw CocoaError(.coderReadCorrupt) }
        let tag = bytes[offset]
        var cursor = offset + 1
        var length = Int(bytes[cursor])
        cursor += 1
        if length & 0x80 != 0 {
            let octets = length & 0x7F
            guard octets > 0, octets <= 4, cursor + octets <= bytes.count else { throw CocoaError(.coderReadCorrupt) }
            length = 0
            for _ in 0..<octets {
                length = length << 8 | Int(bytes[cursor])
                cursor += 1
            }
        }
        let end = cursor + length
        guard end <= bytes.count else { throw CocoaError(.coderReadCorrupt) }
        offset = end
        if tag & 0x20 == 0 { return primitive(tag, Array(bytes[cursor..<end])) }
        var children: [RevocationTLV] = []
        var inner = cursor
        while inner < end { children.append(try parse(bytes, at: &inner)) }
        return constructed(tag, children)
    }

    var der: [UInt8] {
        DERWriter.tlv(identifier: tag, content: isConstructed ? children.flatMap(\.der) : content)
    }

    subscript(index: Int) -> RevocationTLV {
        get { children[index] }
        set { children[index] = newValue }
    }
}

/// Builds v2 CRLs and signs them with a CA key from TestCertificates/ through `openssl dgst`
/// (ECDSA P-256 with SHA-256), for rules the fixtures do not exercise.
struct CRLForge {
    /// The issuer's certificate (its subject becomes the CRL issuer, its SKI the AKI).
    var issuer: Certificate
    /// PEM private key path relative to TestCertificates/.
    var keyPath: String
    var thisUpdate = RevocationTLV.utcTime("260501000000Z")
    var nextUpdate: RevocationTLV? = RevocationTLV.generalizedTime("20991231235959Z")
    /// (serial content octets, revocation time, reason code) triples.
    var entries: [(serial: [UInt8], date: String, reason: UInt8?)] = []
    var crlNumber: [UInt8]? = [0x07]
    var crlNumberCritical = false
    var issuingDistributionPoint: RevocationTLV?
    var deltaBase: [UInt8]?
    var extraExtensions: [RevocationTLV] = []
    var includeAKI = true

    static let ecdsaWithSHA256 = RevocationTLV.sequence([.oid("1.2.840.10045.4.3.2")])

    static var opensslPath: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/openssl") {
            return "\(directory)/openssl"
        }
        return nil
    }

    var tbs: RevocationTLV {
        var fields: [RevocationTLV] = [.integer([0x01]), CRLForge.ecdsaWithSHA256, try! RevocationTLV.parse(Array(issuer.subject.der)), thisUpdate]
        if let nextUpdate { fields.append(nextUpdate) }
        if !entries.isEmpty {
            fields.append(
                .sequence(
                    entries.map { entry in
                        var parts: [RevocationTLV] = [.integer(entry.serial), .utcTime(entry.date)]
                        if let reason = entry.reason {
                            parts.append(.sequence([.extension("2.5.29.21", critical: false, value: RevocationTLV.primitive(0x0A, [reason]).der)]))
                        }
                        return .sequence(parts)
                    }))
        }
        var extensions: [RevocationTLV] = []
        if includeAKI, let ski = issuer.extensions.subjectKeyIdentifier {
            extensions.append(
                .extension(
                    "2.5.29.35", critical: false,
                    value: RevocationTLV.sequence([.primitive(0x80, Array(ski.keyIdentifier))]).der))
        }
        if let crlNumber { extensions.append(.extension("2.5.29.20", critical: crlNumberCritical, value: RevocationTLV.integer(crlNumber).der)) }
        if let deltaBase { extensions.append(.extension("2.5.29.27", critical: true, value: RevocationTLV.integer(deltaBase).der)) }
        if let issuingDistributionPoint { extensions.append(.extension("2.5.29.28", critical: true, value: issuingDistributionPoint.der)) }
        extensions += extraExtensions
        if !extensions.isEmpty { fields.append(.constructed(0xA0, [.sequence(extensions)])) }
        return .sequence(fields)
    }

    /// An ECDSA-with-SHA256 signature (DER Ecdsa-Sig-Value) of `bytes` by the PEM key at `keyPath`
    /// (relative to TestCertificates/), made by `openssl dgst`.
    static func sign(_ bytes: [UInt8], keyPath: String) throws -> [UInt8] {
        guard let openssl = CRLForge.opensslPath else { throw XCTSkip("openssl is not installed (needed to sign test CRLs and OCSP responses)") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("revocation-forge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("tbs.der")
        let output = directory.appendingPathComponent("sig.der")
        try Data(bytes).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = ["dgst", "-sha256", "-sign", TestCertificates.path(keyPath), "-out", output.path, input.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let signature = FileManager.default.contents(atPath: output.path) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return [UInt8](signature)
    }

    /// The signed CRL.
    func make() throws -> CertificateRevocationList {
        let signature = try CRLForge.sign(tbs.der, keyPath: keyPath)
        let crl = RevocationTLV.sequence([tbs, CRLForge.ecdsaWithSHA256, .primitive(0x03, [0x00] + signature)])
        return try CertificateRevocationList(derEncoded: crl.der)
    }

    /// A forge for the root's CRLs.
    static func root() throws -> CRLForge {
        CRLForge(issuer: try TestCertificates.certificate("ecdsa/root.pem"), keyPath: "keys/ecdsa/root.key.pem")
    }

    /// A forge for the intermediate's CRLs.
    static func intermediate() throws -> CRLForge {
        CRLForge(issuer: try TestCertificates.certificate("ecdsa/intermediate.pem"), keyPath: "keys/ecdsa/intermediate.key.pem")
    }
}

/// Re-signs an OCSP fixture after editing its ResponseData (children: responderID, producedAt,
/// responses[, extensions]; each SingleResponse: certID, certStatus, thisUpdate[, [0] nextUpdate]).
enum OCSPForge {
    static func resign(
        _ name: String, keyPath: String = "keys/ecdsa/intermediate.key.pem",
        edit: (inout RevocationTLV) -> Void
    ) throws -> OCSPResponse {
        var tree = try RevocationTLV.parse(TestCertificates.bytes("revocation/\(name).ocsp"))
        // OCSPResponse { status, [0] { ResponseBytes { type, OCTET STRING BasicOCSPResponse } } }
        var basic = try RevocationTLV.parse(tree[1][0][1].content)
        edit(&basic[0])
        basic[2] = .primitive(0x03, [0x00] + (try CRLForge.sign(basic[0].der, keyPath: keyPath)))
        tree[1][0][1] = .octetString(basic.der)
        return try OCSPResponse(derEncoded: tree.der)
    }
}

/// Re-issues a fixture certificate with other revocation URLs (and serial), signed through
/// `openssl dgst` with any PEM key under TestCertificates/: the issuer's key gives a valid
/// certificate, any other key a forgery that fails its signature check.
enum CertificateForge {
    static let authorityInfoAccess = "1.3.6.1.5.5.7.1.1"
    static let crlDistributionPoints = "2.5.29.31"

    /// `name` (ECDSA-with-SHA256 signed) with its AIA OCSP and CRL DP URLs replaced (an extension
    /// whose URL is nil is removed), its serial replaced when `serial` is given, signed by `signingKey`.
    static func reissue(
        _ name: String, ocspURL: String?, crlURL: String?, serial: [UInt8]? = nil,
        signingKey: String
    ) throws -> Certificate {
        var certificate = try RevocationTLV.parse(TestCertificates.certificate(name).derEncoded)
        var tbs = certificate[0]
        if let serial { tbs[1] = .integer(serial) }
        guard let extensionsIndex = tbs.children.firstIndex(where: { $0.tag == 0xA3 }) else { throw CocoaError(.coderReadCorrupt) }
        let aia = ocspURL.map { url in
            RevocationTLV.sequence([.sequence([.oid("1.3.6.1.5.5.7.48.1"), .primitive(0x86, Array(url.utf8))])]).der
        }
        let crlDP = crlURL.map { url in
            RevocationTLV.sequence([.sequence([.constructed(0xA0, [.constructed(0xA0, [.primitive(0x86, Array(url.utf8))])])])]).der
        }
        var extensions: [RevocationTLV] = []
        for var element in tbs[extensionsIndex][0].children {
            let oid = element[0].content
            let replacement: [UInt8]??
            switch oid {
            case Array(ASN1ObjectIdentifier(dotted: authorityInfoAccess)!.bytes): replacement = .some(aia)
            case Array(ASN1ObjectIdentifier(dotted: crlDistributionPoints)!.bytes): replacement = .some(crlDP)
            default: replacement = nil
            }
            if case let .some(value) = replacement {
                guard let value else { continue }
                element.children[element.children.count - 1] = .octetString(value)
            }
            extensions.append(element)
        }
        tbs[extensionsIndex][0].children = extensions
        certificate[0] = tbs
        certificate[2] = .primitive(0x03, [0x00] + (try CRLForge.sign(tbs.der, keyPath: signingKey)))
        return try Certificate(derEncoded: certificate.der)
    }
}

extension LoopbackServer {
    /// `python3 -m http.server` on 127.0.0.1 serving `directory`; it logs every request line
    /// (`"GET /x HTTP/1.0"`, also refused ones such as POST) on stderr. The caller stops it.
    static func fileServer(directory: String) throws -> (LoopbackServer, Int) {
        guard let python = executable("python3") else { throw XCTSkip("python3 is not installed") }
        let server = LoopbackServer(
            executable: python,
            arguments: ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", directory],
            directory: nil)
        // "Serving HTTP on 127.0.0.1 port N (http://127.0.0.1:N/) ..."
        let port = try server.start { line in
            guard let range = line.range(of: "Serving HTTP on 127.0.0.1 port ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        return (server, port)
    }

    /// Request lines the server logged so far (`GET` and `POST` alike).
    var requestCount: Int { lines(containing: "\"GET ") + lines(containing: "\"POST ") }
}
