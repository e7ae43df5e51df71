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
    static let features: [String: String] = [:]
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
    /// The profile a testcase is written for: `rfc5280::` cases expect RFC 5280 §4's certificate
    /// profile as well as §6.1 (and of the anchor too), `webpki::` cases the CA/Browser Forum profile,
    /// the rest (path length, pathological inputs, CVEs, CRLs) are TLS chains judged by the default.
    static func profile(for testcase: LimboSuite.Testcase) -> TrustProfile {
        if testcase.id.hasPrefix("rfc5280::") { return .rfc5280Strict }
        if testcase.id.hasPrefix("webpki::") { return .webPKI }
        return .ssl
    }

    static func run(_ testcase: LimboSuite.Testcase, profile forced: TrustProfile? = nil) -> LimboResult {
        func result(_ actual: String, _ context: String?) -> LimboResult {
            LimboResult(
                id: testcase.id, actual_result: actual, context: context,
                expected: testcase.expected_result, category: testcase.category)
        }
        if let feature = (testcase.features ?? []).first(where: { LimboSkips.features[$0] != nil }) {
            return result("SKIPPED", "feature \(feature): \(LimboSkips.features[feature] ?? "")")
        }
        do {
            let evaluation = try evaluate(testcase, profile: forced ?? profile(for: testcase))
            if evaluation.isTrusted { return result("SUCCESS", nil) }
            return result("FAILURE", evaluation.failures.map(\.description).joined(separator: "; "))
        } catch {
            return result("FAILURE", "\(error)")
        }
    }

    struct HarnessError: Error, CustomStringConvertible {
        let description: String
    }

    static func evaluate(_ testcase: LimboSuite.Testcase, profile: TrustProfile) throws -> TrustEvaluation {
        func load(_ pem: String, _ what: String) throws -> Certificate {
            do { return try Certificate(pemEncoded: pem) } catch { throw HarnessError(description: "\(what): \(error)") }
        }
        let leaf = try load(testcase.peer_certificate, "peer certificate")
        let intermediates = try testcase.untrusted_intermediates.enumerated().map { try load($1, "intermediate \($0 + 1)") }
        // An unreadable anchor is simply not an anchor (as in a system bundle); parse errors elsewhere fail.
        let anchors = testcase.trusted_certs.compactMap { try? Certificate(pemEncoded: $0) }

        var crls: [CertificateRevocationList] = []
        for (index, pem) in (testcase.crls ?? []).enumerated() {
            do { crls.append(contentsOf: try CertificateRevocationList.loadAll(from: Array(pem.utf8))) } catch {
                throw HarnessError(description: "CRL \(index + 1): \(error)")
            }
        }
        let peer = try PeerIdentities(testcase)
        // Every listed extended key usage must hold: one evaluation per purpose, the first untrusted one answers.
        var evaluation: TrustEvaluation?
        for server in try purposes(testcase) {
            for hostname in peer.hostnames {
                var policies: [TrustPolicy] =
                    [.profile(profile, purpose: server ? .serverAuth : .clientAuth, hostname: hostname)]
                    + peer.emailAddresses.map { .email($0) }
                // Supplied CRLs are checked offline, soft-fail (a certificate no CRL covers is accepted).
                if !crls.isEmpty { policies.append(.revocation([.crl, .networkAccessDisabled])) }
                let result = try evaluate(testcase, leaf: leaf, intermediates: intermediates, anchors: anchors, crls: crls, policies: policies)
                if !result.isTrusted { return result }
                evaluation = result
            }
        }
        guard let evaluation else { throw HarnessError(description: "nothing to evaluate") }
        return evaluation
    }

    /// One evaluation of `testcase` under `policies`.
    private static func evaluate(
        _ testcase: LimboSuite.Testcase, leaf: Certificate, intermediates: [Certificate], anchors: [Certificate],
        crls: [CertificateRevocationList], policies: [TrustPolicy]
    ) throws -> TrustEvaluation {
        let trust = ServerTrust(certificates: [leaf] + intermediates, policies: policies)
        trust.setCRLs(crls)
        trust.setAnchorCertificates(anchors)
        trust.anchorsOnly = true
        if let time = testcase.validation_time {
            guard let date = ISO8601.parse(time) else { throw HarnessError(description: "bad validation_time \(time)") }
            trust.verifyDate = date
        }
        if let depth = testcase.max_chain_depth { trust.options.maximumDepth = depth }
        var usage: KeyUsage = []
        for name in testcase.key_usage ?? [] {
            guard let bit = KeyUsage.named(name) else { throw HarnessError(description: "unknown key usage \(name)") }
            usage.insert(bit)
        }
        trust.options.requiredLeafKeyUsage = LeafKeyUsageRequirement(allOf: usage)
        // The suite's `signature_algorithms` are what a case accepts: a case that lists a SHA-1
        // algorithm accepts it (SignaturePolicy.legacy); the others do not, whatever the profile
        // (SignaturePolicy.modern: the suite is written from verifiers that refuse SHA-1 everywhere).
        let listsSHA1 = (testcase.signature_algorithms ?? []).contains(where: sha1Algorithms.contains)
        trust.options.signaturePolicy = listsSHA1 ? .legacy : .modern
        // The pedantic reading of the wildcard rule: private registries' suffixes (`s3.amazonaws.com`)
        // count too, not only ICANN's (the library's default, CABF BR §3.2.2.6).
        if (testcase.features ?? []).contains("pedantic-public-suffix-wildcard") {
            var list = PublicSuffixList.snapshot
            list.consultedSections = .all
            trust.options.publicSuffixList = list
        }
        return trust.evaluate()
    }

    /// The suite's names of the SHA-1 signature algorithms (limbo-schema.json, SignatureAlgorithm).
    static let sha1Algorithms: Set<String> = ["RSA_WITH_SHA1", "ECDSA_WITH_SHA1", "DSA_WITH_SHA1"]

    /// The purposes to check, as `.ssl(server:)` flags: the case's extended key usages (serverAuth,
    /// clientAuth), or the one its validation kind implies when it lists none.
    static func purposes(_ testcase: LimboSuite.Testcase) throws -> [Bool] {
        let listed = testcase.extended_key_usage ?? []
        if listed.isEmpty { return [testcase.validation_kind == "SERVER"] }
        return try listed.map { usage in
            switch usage {
            case "serverAuth": return true
            case "clientAuth": return false
            default: throw HarnessError(description: "extended key usage \(usage) cannot be required through ServerTrust")
            }
        }
    }

    /// The names the peer must be valid for: host names and IP addresses (each checked in its own
    /// evaluation; nil for none) and mailboxes (all checked together). A SERVER case names one
    /// peer (`expected_peer_name`), a CLIENT case any number (`expected_peer_names`).
    struct PeerIdentities {
        var hostnames: [String?] = []
        var emailAddresses: [String] = []

        init(_ testcase: LimboSuite.Testcase) throws {
            let names =
                testcase.validation_kind == "SERVER"
                ? [testcase.expected_peer_name].compactMap { $0 } : testcase.expected_peer_names ?? []
            for name in names {
                switch name.kind {
                case "DNS", "IP": hostnames.append(name.value)
                case "RFC822": emailAddresses.append(name.value)
                default: throw HarnessError(description: "unknown peer name kind \(name.kind)")
                }
            }
            if hostnames.isEmpty { hostnames = [nil] }
        }
    }
}
