import Foundation
import SwiftTrust

/// The x509-limbo test-suite document (C2SP/x509-limbo, version 1 schema).
struct LimboSuite: Decodable {
    struct PeerName: Decodable {
        let kind: String
        let value: String
    }

    struct Testcase: Decodable {
        let id: String
        let features: [String]?
        let description: String
        let validation_kind: String
        let trusted_certs: [String]
        let untrusted_intermediates: [String]
        let peer_certificate: String
        let validation_time: String?
        let signature_algorithms: [String]?
        let key_usage: [String]?
        let extended_key_usage: [String]?
        let expected_result: String
        let expected_peer_name: PeerName?
        let expected_peer_names: [PeerName]?
        let max_chain_depth: Int?
        let crls: [String]?
        let conflicts_with: [String]?

        /// The category: the id's first component (`rfc5280`, `webpki`, `pathlen` …).
        var category: String { String(id.split(separator: ":").first ?? "") }
    }

    let version: Int
    let testcases: [Testcase]
}

/// Features we deliberately do not support yet, with the reason; a testcase carrying one is skipped.
/// Every entry is documented in docs/conformance.md. Never add a testcase id here.
enum LimboSkips {
    static let features: [String: String] = [
        "pedantic-webpki-eku": "two of its four rules are deliberately not enforced: a leaf without EKU is accepted (RFC 5280 §4.2.1.12; the suite's own rfc5280::eku::ee-without-eku expects this) and a root carrying EKU is accepted (private PKIs restrict roots this way); the other two (critical or anyExtendedKeyUsage leaf EKU) are enforced",
        "rfc5280-incompatible-with-webpki": "we validate TLS chains under the web-PKI profile, which these RFC 5280-only cases contradict",
        "pedantic-rfc5280": "profile rules are not applied to trust anchors' issuance (anchors are trusted by configuration, RFC 5280 §6.1.1 (d))",
        "pedantic-public-suffix-wildcard": "needs the Public Suffix List, which we do not ship yet",
    ]
}

/// One testcase's outcome in the standard result document.
struct LimboResult: Encodable {
    let id: String
    let actual_result: String
    let context: String?
    /// Not part of the standard document: kept out of the JSON.
    let expected: String
    let category: String

    enum CodingKeys: String, CodingKey { case id, actual_result, context }
}

/// Runs testcases through the public ``ServerTrust`` API.
enum LimboRunner {
    static func run(_ testcase: LimboSuite.Testcase) -> LimboResult {
        func result(_ actual: String, _ context: String?) -> LimboResult {
            LimboResult(id: testcase.id, actual_result: actual, context: context,
                        expected: testcase.expected_result, category: testcase.category)
        }
        if let feature = (testcase.features ?? []).first(where: { LimboSkips.features[$0] != nil }) {
            return result("SKIPPED", "feature \(feature): \(LimboSkips.features[feature] ?? "")")
        }
        do {
            let evaluation = try evaluate(testcase)
            if evaluation.isTrusted { return result("SUCCESS", nil) }
            return result("FAILURE", evaluation.failures.map(\.description).joined(separator: "; "))
        } catch {
            return result("FAILURE", "\(error)")
        }
    }

    struct HarnessError: Error, CustomStringConvertible {
        let description: String
    }

    static func evaluate(_ testcase: LimboSuite.Testcase) throws -> TrustEvaluation {
        func load(_ pem: String, _ what: String) throws -> Certificate {
            do { return try Certificate(pemEncoded: pem) } catch { throw HarnessError(description: "\(what): \(error)") }
        }
        let leaf = try load(testcase.peer_certificate, "peer certificate")
        let intermediates = try testcase.untrusted_intermediates.enumerated().map { try load($1, "intermediate \($0 + 1)") }
        // An unreadable anchor is simply not an anchor (as in a system bundle); parse errors elsewhere fail.
        let anchors = testcase.trusted_certs.compactMap { try? Certificate(pemEncoded: $0) }

        let server = testcase.validation_kind == "SERVER"
        var policies: [TrustPolicy] = [.ssl(server: server, hostname: testcase.expected_peer_name?.value)]
        var crls: [CertificateRevocationList] = []
        for (index, pem) in (testcase.crls ?? []).enumerated() {
            do { crls.append(contentsOf: try CertificateRevocationList.loadAll(from: Array(pem.utf8))) } catch {
                throw HarnessError(description: "CRL \(index + 1): \(error)")
            }
        }
        // Supplied CRLs are checked offline, soft-fail (a certificate no CRL covers is accepted).
        if !crls.isEmpty { policies.append(.revocation([.crl, .networkAccessDisabled])) }
        let trust = ServerTrust(certificates: [leaf] + intermediates, policies: policies)
        trust.setCRLs(crls)
        trust.setAnchorCertificates(anchors)
        trust.anchorsOnly = true
        if let time = testcase.validation_time {
            guard let date = ISO8601.parse(time) else { throw HarnessError(description: "bad validation_time \(time)") }
            trust.verifyDate = date
        }
        if let depth = testcase.max_chain_depth { trust.maximumDepth = depth }
        var usage: KeyUsage = []
        for name in testcase.key_usage ?? [] {
            guard let bit = keyUsageBits[name] else { throw HarnessError(description: "unknown key usage \(name)") }
            usage.insert(bit)
        }
        trust.requiredLeafKeyUsage = usage
        return trust.evaluate()
    }

    static let keyUsageBits: [String: KeyUsage] = [
        "digitalSignature": .digitalSignature, "contentCommitment": .contentCommitment, "keyEncipherment": .keyEncipherment,
        "dataEncipherment": .dataEncipherment, "keyAgreement": .keyAgreement, "keyCertSign": .keyCertSign,
        "cRLSign": .cRLSign, "encipherOnly": .encipherOnly, "decipherOnly": .decipherOnly,
    ]

}
