// What is measured, group by group, and the results document.
import COpenSSLBench
import Foundation
import SwiftCertificatesBench
import SwiftTrust

struct ChainResults: Sendable, Codable {
    let name: String
    /// column -> contender -> measurement
    var groups: [String: [String: Measurement]] = [:]
    /// libcrypto verifications per evaluation, as `TrustEvaluation.signatureChecks` reports them.
    var signatureChecksFresh = 0
    var signatureChecksReused = 0

    func measurement(_ column: String, _ contender: String) -> Measurement? { groups[column]?[contender] }
}

struct LookupResults: Sendable, Codable {
    var poolSizes: [Int] = []
    var measurements: [String: Measurement] = [:]
    var buildSeconds: [Int: Double] = [:]
    var candidates = 0
    var generateSeconds = 0.0
}

struct BundleResults: Sendable, Codable {
    var path = ""
    var count = 0
    var parsed: [String: Int] = [:]
    var measurements: [String: Measurement] = [:]
}

struct Results: Sendable, Codable {
    var chains: [ChainResults] = []
    var bundle = BundleResults()
    var lookup = LookupResults()
    var memory = MemoryReport()
    var limbo: LimboRun?
    var limboError: String?
    /// `trustctl limbo` over the scale suite (scripts/generate-scale-suite) and its number of cases.
    var scaleLimbo: LimboRun?
    var scaleCases = 0
    var throughput: [ThroughputRow] = []
    var keyCacheCount = 0
    var keyCacheCapacity = 0
    var signatureCacheCount = 0
    var signatureCacheCapacity = 0
    var verdictCacheCount = 0
    var verdictCacheCapacity = 0
    var openSSLVersion = ""
    var samples = 0
    var sampleMilliseconds = 0.0
    var benchSeconds = 0.0
}

/// Synchronous, counted loops around one operation.
func loop(_ n: Int, _ body: () -> Bool) -> Int {
    var ok = 0
    for _ in 0..<n where body() { ok += 1 }
    return ok
}

enum Suite {
    static func benchmarkChain(_ chain: Chain, configuration: HarnessConfiguration) async throws -> ChainResults {
        var results = ChainResults(name: chain.name)
        let parsed = try ParsedChain(chain)
        let libcrypto = try LibCryptoChain(chain)
        guard
            let theirsReused = SwiftCertificates.reusedChain(
                leaf: chain.leaf, intermediate: chain.intermediate, root: chain.root,
                host: chain.host, at: chain.date),
            let theirsSignature = SwiftCertificates.signatureCheck(leaf: chain.leaf, issuer: chain.intermediate)
        else {
            throw BenchError("swift-certificates could not parse the \(chain.name) chain")
        }
        let oursLeafSignature = try OursSignatureCheck(child: parsed.leaf, issuer: parsed.intermediate)
        let oursIntermediateSignature = try OursSignatureCheck(child: parsed.intermediate, issuer: parsed.root)
        let evpLeaf = try LibCryptoSignatureCheck(child: chain.leaf, issuer: chain.intermediate)
        let evpIntermediate = try LibCryptoSignatureCheck(child: chain.intermediate, issuer: chain.root)

        // Sanity: every library must accept the chain (a benchmark of a failure path is meaningless).
        guard let fresh = Ours.verifyFresh(chain), fresh.isTrusted else {
            throw BenchError("SwiftTrust does not trust the \(chain.name) chain: \(Ours.verifyFresh(chain).map { "\($0)" } ?? "parse error")")
        }
        results.signatureChecksFresh = fresh.signatureChecks
        results.signatureChecksReused = Ours.verifyReused(parsed, chain).signatureChecks
        guard LibCrypto.verifyFresh(chain) == 1 else {
            throw BenchError("OpenSSL does not verify the \(chain.name) chain: \(LibCrypto.lastVerifyError)")
        }
        guard
            await SwiftCertificates.verifyFresh(
                leaf: chain.leaf, intermediate: chain.intermediate, root: chain.root,
                host: chain.host, at: chain.date)
        else {
            throw BenchError("swift-certificates does not verify the \(chain.name) chain")
        }

        results.groups["parse"] = await measureGroup(
            [
                Contender(id: "ours") { n in loop(n) { Ours.parse(chain.leaf) } },
                Contender(id: "ours-validation") { n in loop(n) { Ours.parseValidated(chain.leaf) } },
                Contender(id: "openssl") { n in loop(n) { LibCrypto.parseFull(chain.leaf) } },
                Contender(id: "swiftcerts") { n in loop(n) { SwiftCertificates.parse(chain.leaf) } },
                Contender(id: "openssl-d2i") { n in loop(n) { LibCrypto.parseD2I(chain.leaf) } },
            ], configuration: configuration)

        results.groups["fresh"] = await measureGroup(
            [
                Contender(id: "ours") { n in loop(n) { Ours.verifyFresh(chain)?.isTrusted == true } },
                Contender(id: "openssl") { n in loop(n) { LibCrypto.verifyFresh(chain) == 1 } },
                Contender(id: "swiftcerts") { n in
                    var ok = 0
                    for _ in 0..<n
                    where await SwiftCertificates.verifyFresh(
                        leaf: chain.leaf, intermediate: chain.intermediate,
                        root: chain.root, host: chain.host, at: chain.date)
                    {
                        ok += 1
                    }
                    return ok
                },
                // The two signatures really checked: the process-wide signature-result cache is emptied
                // before every iteration (the key cache stays warm: "the same libcrypto key objects").
                // Afterwards the caches are refilled, untimed, so the next contender does not pay for it.
                Contender(id: "ours-checked", after: { _ = Ours.verifyFresh(chain) }) { n in
                    loop(n) {
                        SignatureCache.shared.removeAll()
                        return Ours.verifyFresh(chain)?.isTrusted == true
                    }
                },
                // Cold: every process-wide cache (keys, signature results, profile verdicts) emptied every iteration.
                Contender(id: "ours-cold", after: { _ = Ours.verifyFresh(chain) }) { n in
                    loop(n) {
                        VerificationKeyCache.shared.removeAll()
                        SignatureCache.shared.removeAll()
                        ProfileVerdictCache.shared.removeAll()
                        return Ours.verifyFresh(chain)?.isTrusted == true
                    }
                },
                Contender(id: "evp-leaf") { n in loop(n) { evpLeaf.check() } },
                Contender(id: "evp-intermediate") { n in loop(n) { evpIntermediate.check() } },
            ], configuration: configuration)

        results.groups["reused"] = await measureGroup(
            [
                Contender(id: "ours") { n in loop(n) { Ours.verifyReused(parsed, chain).isTrusted } },
                Contender(id: "openssl") { n in loop(n) { libcrypto.verify() == 1 } },
                Contender(id: "swiftcerts") { n in
                    var ok = 0
                    for _ in 0..<n where await theirsReused.verify() { ok += 1 }
                    return ok
                },
            ], configuration: configuration)

        results.groups["raw"] = await measureGroup(
            [
                Contender(id: "ours") { n in loop(n) { oursLeafSignature.check() } },
                Contender(id: "openssl") { n in loop(n) { evpLeaf.check() } },
                Contender(id: "swiftcerts") { n in loop(n) { theirsSignature.check() } },
                Contender(id: "ours-intermediate") { n in loop(n) { oursIntermediateSignature.check() } },
                Contender(id: "openssl-intermediate") { n in loop(n) { evpIntermediate.check() } },
            ], configuration: configuration)
        withExtendedLifetime(libcrypto) {}
        return results
    }

    static func benchmarkBundle(_ ders: [[UInt8]], path: String, configuration: HarnessConfiguration) async -> BundleResults {
        var results = BundleResults(path: path, count: ders.count)
        results.parsed["ours"] = ders.filter { Ours.parse($0) }.count
        results.parsed["openssl"] = ders.filter { LibCrypto.parseFull($0) }.count
        results.parsed["swiftcerts"] = SwiftCertificates.parseAll(ders)
        // Each iteration parses the whole bundle; certificates a library rejects cost what they cost.
        func all(_ parse: @escaping @Sendable ([UInt8]) -> Bool) -> @Sendable (Int) async -> Int {
            { n in
                for _ in 0..<n { for der in ders { consume(parse(der)) } }
                return n
            }
        }
        results.measurements = await measureGroup(
            [
                Contender(id: "ours", run: all { Ours.parse($0) }),
                Contender(id: "openssl", run: all { LibCrypto.parseFull($0) }),
                Contender(id: "swiftcerts", run: all { SwiftCertificates.parse($0) }),
            ], configuration: configuration)
        return results
    }

    static func benchmarkLookup(pool: IssuerPool, sizes: [Int], configuration: HarnessConfiguration) async -> LookupResults {
        var results = LookupResults(poolSizes: sizes)
        var contenders: [Contender] = []
        let clock = ContinuousClock()
        var stores: [Int: CertificateStore] = [:]
        for size in sizes {
            // Each pool holds the probe's issuer.
            let start = clock.now
            var members = Array(pool.certificates.prefix(size))
            if size < pool.certificates.count { members[size / 2] = pool.certificates[pool.probeIssuerIndex] }
            let store = CertificateStore(members)
            results.buildSeconds[size] = microseconds(clock.now - start) / 1e6
            stores[size] = store
            let probe = pool.probe
            contenders.append(
                Contender(id: "store-\(size)") { n in
                    loop(n) { store.candidateIssuers(of: probe).count == 1 }
                })
        }
        results.candidates = stores[sizes.last ?? 0]?.candidateIssuers(of: pool.probe).count ?? 0
        let largest = pool.certificates
        let probe = pool.probe
        contenders.append(
            Contender(id: "linear-\(largest.count)") { n in
                loop(n) { IssuerPool.linearScan(largest, for: probe) == 1 }
            })
        results.measurements = await measureGroup(contenders, configuration: configuration)
        return results
    }
}
