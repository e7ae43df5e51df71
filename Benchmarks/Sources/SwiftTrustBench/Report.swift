// The Markdown results section (printed, and spliced into docs/performance.md by scripts/bench).
import Foundation

func formatMicros(_ value: Double) -> String {
    guard value.isFinite else { return "–" }
    if value < 1 { return String(format: "%.3f", value) }
    if value < 10 { return String(format: "%.2f", value) }
    if value < 1000 { return String(format: "%.1f", value) }
    return String(format: "%.0f", value)
}

func cell(_ measurement: Measurement?) -> String {
    guard let measurement else { return "–" }
    guard measurement.ok else { return "FAILED (\(measurement.failure ?? "no samples"))" }
    let stats = measurement.stats
    return "\(formatMicros(stats.median)) (\(formatMicros(stats.p10))–\(formatMicros(stats.p90)))"
}

func ratioCell(_ ratio: Stats?) -> String {
    guard let ratio else { return "–" }
    let r = ratio.median
    let spread = String(format: "%.3g–%.3g", ratio.p10, ratio.p90)
    let verdict = r < 1 ? String(format: "%.1f× faster", 1 / r) : String(format: "%.2f× slower", r)
    return String(format: "**%.3g**", r) + " (\(spread); \(verdict))"
}

struct Target {
    let name: String
    let measured: String
    let met: Bool?
}

func mark(_ met: Bool?) -> String {
    switch met {
    case .some(true): return "✅ met"
    case .some(false): return "❌ missed"
    case .none: return "⚠️ not measured"
    }
}

func targets(_ results: Results) -> [Target] {
    var list: [Target] = []
    for chain in results.chains {
        let parse = chain.measurement("parse", "ours")
        let parseMedian = parse.flatMap { $0.ok ? $0.stats.median : nil }
        let validationMedian = chain.measurement("parse", "ours-validation").flatMap { $0.ok ? $0.stats.median : nil }
        list.append(
            Target(
                name: "\(chain.name): parse a leaf, the views validation reads ≤ 2 µs",
                measured: validationMedian.map { formatMicros($0) + " µs" } ?? "–",
                met: validationMedian.map { $0 <= 2 }))
        list.append(
            Target(
                name: "\(chain.name): parse a leaf, every view ≤ 5 µs",
                measured: parseMedian.map { formatMicros($0) + " µs" } ?? "–",
                met: parseMedian.map { $0 <= 5 }))
        let vsSwiftCerts = pairedRatio(parse, chain.measurement("parse", "swiftcerts"))
        list.append(
            Target(
                name: "\(chain.name): parse ≥ 6× faster than swift-certificates (ratio ≤ 0.167)",
                measured: vsSwiftCerts.map { String(format: "%.3g (%.1f×)", $0.median, 1 / $0.median) } ?? "–",
                met: vsSwiftCerts.map { $0.median <= 1.0 / 6 }))
        let vsOpenSSL = pairedRatio(parse, chain.measurement("parse", "openssl"))
        list.append(
            Target(
                name: "\(chain.name): parse ≥ 40× faster than OpenSSL (ratio ≤ 0.025)",
                measured: vsOpenSSL.map { String(format: "%.3g (%.1f×)", $0.median, 1 / $0.median) } ?? "–",
                met: vsOpenSSL.map { $0.median <= 1.0 / 40 }))
        // Judged on the evaluation that really checks both signatures (signature-result cache emptied
        // each time, key cache warm); the figure with every cache warm is shown beside it.
        func overRaw(_ id: String) -> Stats? {
            pairedRatio(
                chain.measurement("fresh", id), sumOf: chain.measurement("fresh", "evp-leaf"),
                chain.measurement("fresh", "evp-intermediate"))
        }
        let checked = overRaw("ours-checked"), cached = overRaw("ours")
        list.append(
            Target(
                name: "\(chain.name): fresh chain ≤ 1.10 × its two raw libcrypto signature checks (signatures really checked)",
                measured: (checked.map { String(format: "%.3g×", $0.median) } ?? "–")
                    + (cached.map { String(format: " (all caches warm: %.3g×)", $0.median) } ?? ""),
                met: checked.map { $0.median <= 1.10 }))
        let freshVsSwiftCerts = pairedRatio(chain.measurement("fresh", "ours-checked"), chain.measurement("fresh", "swiftcerts"))
        let freshCachedVsSwiftCerts = pairedRatio(chain.measurement("fresh", "ours"), chain.measurement("fresh", "swiftcerts"))
        list.append(
            Target(
                name: "\(chain.name): fresh chain faster than swift-certificates (signatures really checked)",
                measured: (freshVsSwiftCerts.map { String(format: "ratio %.3g", $0.median) } ?? "–")
                    + (freshCachedVsSwiftCerts.map { String(format: " (all caches warm: %.3g)", $0.median) } ?? ""),
                met: freshVsSwiftCerts.map { $0.median < 1 }))
        // The cold path (issue 17): a chain never seen, nothing cached (keys built, signatures checked).
        let coldVsOpenSSL = pairedRatio(chain.measurement("fresh", "ours-cold"), chain.measurement("fresh", "openssl"))
        let coldVsSwiftCerts = pairedRatio(chain.measurement("fresh", "ours-cold"), chain.measurement("fresh", "swiftcerts"))
        list.append(
            Target(
                name: "\(chain.name): fresh chain, nothing cached (cold), faster than OpenSSL and swift-certificates fresh",
                measured: [
                    coldVsOpenSSL.map { String(format: "OpenSSL %.3g", $0.median) },
                    coldVsSwiftCerts.map { String(format: "swift-certificates %.3g", $0.median) },
                ]
                .compactMap { $0 }.joined(separator: ", "),
                met: coldVsOpenSSL.flatMap { a in coldVsSwiftCerts.map { b in a.median < 1 && b.median < 1 } }))
        if let beyond = results.memory.perCertificate["\(chain.name) SwiftTrust (beyond the DER it keeps)"] {
            let withViews = results.memory.perCertificate["\(chain.name) SwiftTrust (beyond the DER, once validation has read its views)"]
            list.append(
                Target(
                    name: "\(chain.name): heap per parsed certificate beyond its DER ≤ 1 KB",
                    measured: String(format: "%.0f bytes", beyond)
                        + (withViews.map { String(format: " (%.0f once validation has read its views)", $0) } ?? ""),
                    met: beyond <= 1024))
        }
        let reused = chain.measurement("reused", "ours")
        let reusedMedian = reused.flatMap { $0.ok ? $0.stats.median : nil }
        list.append(
            Target(
                name: "\(chain.name): chain seen before ≤ 5 µs",
                measured: reusedMedian.map { formatMicros($0) + " µs" } ?? "–",
                met: reusedMedian.map { $0 <= 5 }))
        let reusedRatios = ["openssl", "swiftcerts"].compactMap { pairedRatio(reused, chain.measurement("reused", $0)) }
        let worst = reusedRatios.map(\.median).max()
        list.append(
            Target(
                name: "\(chain.name): chain seen before ≥ 20× faster than every reference (ratio ≤ 0.05)",
                measured: reusedRatios.count == 2
                    ? String(format: "OpenSSL %.3g, swift-certificates %.3g", reusedRatios[0].median, reusedRatios[1].median) : "–",
                met: reusedRatios.count == 2 ? worst.map { $0 <= 0.05 } : nil))
    }
    let sizes = results.lookup.poolSizes
    if let small = sizes.first, let large = sizes.last,
        let a = results.lookup.measurements["store-\(small)"], let b = results.lookup.measurements["store-\(large)"], a.ok, b.ok
    {
        let growth = b.stats.median / a.stats.median
        list.append(
            Target(
                name: "issuer lookup O(1): \(large)-certificate pool vs \(small) (≤ 2× growth for 100× the size)",
                measured: "\(formatMicros(b.stats.median)) µs vs \(formatMicros(a.stats.median)) µs" + String(format: " (%.2f×)", growth),
                met: growth <= 2))
    } else {
        list.append(Target(name: "issuer lookup O(1)", measured: "–", met: nil))
    }
    if let limbo = results.limbo {
        let median = Stats(limbo.wallSeconds).median
        list.append(
            Target(
                name: "whole x509-limbo suite < 1 s (trustctl process wall time)",
                measured: String(format: "%.2f s", median), met: median < 1))
    } else {
        list.append(Target(name: "whole x509-limbo suite < 1 s", measured: results.limboError ?? "not run", met: nil))
    }
    let control = results.throughput.first(where: \.isControl).map { Stats($0.scaling).median }
    for row in results.throughput where !row.isControl && !row.isDiagnostic {
        let scaling = Stats(row.scaling).median
        list.append(
            Target(
                name: "scaling, \(row.scenario): 2 threads ≥ 1.8× one thread's throughput",
                measured: String(format: "%.2f×", scaling)
                    + (control.map { String(format: " (libcrypto alone on this machine: %.2f×)", $0) } ?? ""),
                met: scaling >= 1.8))
    }
    return list
}

func markdown(_ results: Results) -> String {
    var lines: [String] = []
    let configuration = String(
        format: "%d samples per contender, each a batch auto-sized to ~%.0f ms; median (p10–p90) in µs per operation",
        results.samples, results.sampleMilliseconds)
    lines.append("### Side by side (\(configuration))")
    lines.append("")
    lines.append("Ratios are ours/theirs taken sample by sample within this run (contenders interleaved), median (p10–p90 of the ratios).")
    lines.append("")
    for chain in results.chains {
        lines.append("#### \(chain.name)")
        lines.append("")
        lines.append("| | parse leaf | verify 3-cert chain, fresh objects | same chain again, objects reused | one raw signature check |")
        lines.append("|---|---|---|---|---|")
        let columns = ["parse", "fresh", "reused", "raw"]
        let names = [
            ("ours", "**SwiftTrust** (this tree)"), ("openssl", "OpenSSL \(results.openSSLVersion)"),
            ("swiftcerts", "swift-certificates 1.21.1"),
        ]
        for (id, name) in names {
            lines.append("| \(name) | " + columns.map { cell(chain.measurement($0, id)) }.joined(separator: " | ") + " |")
        }
        for (id, name) in names.dropFirst() {
            lines.append(
                "| ours / \(name) | "
                    + columns.map {
                        ratioCell(pairedRatio(chain.measurement($0, "ours"), chain.measurement($0, id)))
                    }.joined(separator: " | ") + " |")
        }
        lines.append("")
        func overRaw(_ id: String) -> String {
            pairedRatio(
                chain.measurement("fresh", id), sumOf: chain.measurement("fresh", "evp-leaf"),
                chain.measurement("fresh", "evp-intermediate")
            )
            .map { String(format: "**%.3g×** (%.3g–%.3g)", $0.median, $0.p10, $0.p90) } ?? "–"
        }
        func versus(_ id: String) -> String {
            "vs OpenSSL fresh " + ratioCell(pairedRatio(chain.measurement("fresh", id), chain.measurement("fresh", "openssl")))
                + ", vs swift-certificates fresh " + ratioCell(pairedRatio(chain.measurement("fresh", id), chain.measurement("fresh", "swiftcerts")))
        }
        lines.append(
            "- the chain's two raw libcrypto checks, same round: leaf←intermediate \(cell(chain.measurement("fresh", "evp-leaf"))), "
                + "intermediate←root \(cell(chain.measurement("fresh", "evp-intermediate")))")
        lines.append("- SwiftTrust fresh chain, every cache as the library leaves it (the table's figure): / two raw checks \(overRaw("ours"))")
        lines.append(
            "- SwiftTrust fresh chain with both signatures really checked (`SignatureCache.shared.removeAll()` before each; "
                + "key cache warm): \(cell(chain.measurement("fresh", "ours-checked"))); / two raw checks \(overRaw("ours-checked")); \(versus("ours-checked"))"
        )
        lines.append(
            "- SwiftTrust fresh chain, cold (key, signature and profile-verdict caches emptied before each): "
                + "\(cell(chain.measurement("fresh", "ours-cold"))); \(versus("ours-cold"))")
        lines.append(
            "- `TrustEvaluation.signatureChecks` of one evaluation: fresh \(chain.signatureChecksFresh), reused \(chain.signatureChecksReused)")
        lines.append(
            "- SwiftTrust parse, the views validation reads (every view but issuerAltName, cRLDistributionPoints, authorityInfoAccess, "
                + "the TLS feature and the SCT list, and not the list of every extension as `Extension` values: every extension is checked at "
                + "parse time, the views that allocate are decoded on first use; of the names, the self-issued test, not their comparison keys, "
                + "which validation builds only for an indexed store's lookup or names their fingerprints cannot tell apart): "
                + "\(cell(chain.measurement("parse", "ours-validation")))")
        lines.append("- OpenSSL `d2i_X509` alone (no `X509_get_pubkey`, no extension cache): \(cell(chain.measurement("parse", "openssl-d2i")))")
        lines.append(
            "- raw check intermediate←root: SwiftTrust `SignatureVerifier` \(cell(chain.measurement("raw", "ours-intermediate"))), "
                + "libcrypto \(cell(chain.measurement("raw", "openssl-intermediate")))")
        lines.append("")
    }

    lines.append("### Targets")
    lines.append("")
    lines.append("| target | measured | |")
    lines.append("|---|---|---|")
    for target in targets(results) {
        lines.append("| \(target.name) | \(target.measured) | \(mark(target.met)) |")
    }
    lines.append("")

    let bundle = results.bundle
    lines.append("### Parse throughput: \(bundle.path) (\(bundle.count) certificates)")
    lines.append("")
    lines.append("| | µs per bundle | µs per certificate | certificates / s | parsed |")
    lines.append("|---|---|---|---|---|")
    for (id, name) in [
        ("ours", "SwiftTrust (parse + every view)"),
        ("openssl", "OpenSSL (d2i_X509 + X509_get_pubkey + extension flags)"),
        ("swiftcerts", "swift-certificates (Certificate(derEncoded:))"),
    ] {
        guard let m = bundle.measurements[id], m.ok, bundle.count > 0 else {
            lines.append("| \(name) | \(cell(bundle.measurements[id])) | – | – | \(bundle.parsed[id] ?? 0) |")
            continue
        }
        let perCert = m.stats.median / Double(bundle.count)
        lines.append(
            "| \(name) | \(cell(m)) | \(formatMicros(perCert)) | \(String(format: "%.0f", 1e6 / perCert)) | \(bundle.parsed[id] ?? 0)/\(bundle.count) |"
        )
    }
    if let ours = bundle.measurements["ours"] {
        lines.append("")
        lines.append(
            "Ratios: ours / OpenSSL \(ratioCell(pairedRatio(ours, bundle.measurements["openssl"]))); "
                + "ours / swift-certificates \(ratioCell(pairedRatio(ours, bundle.measurements["swiftcerts"]))).")
    }
    lines.append("")

    let lookup = results.lookup
    lines.append("### Issuer lookup (`CertificateStore.candidateIssuers(of:)`)")
    lines.append("")
    lines.append(
        String(
            format: "Pool: distinct CA certificates made from the ECDSA intermediate by rewriting the subject CN, serial, SKI "
                + "and signature bytes in place (parsed with SwiftTrust in %.2f s); the probe leaf names one of them as issuer "
                + "(%d candidate returned).", lookup.generateSeconds, lookup.candidates))
    lines.append("")
    lines.append("| pool size | lookup µs | store build s |")
    lines.append("|---|---|---|")
    for size in lookup.poolSizes {
        lines.append("| \(size) | \(cell(lookup.measurements["store-\(size)"])) | \(String(format: "%.3f", lookup.buildSeconds[size] ?? .nan)) |")
    }
    if let linear = lookup.measurements.first(where: { $0.key.hasPrefix("linear-") }) {
        let size = linear.key.dropFirst("linear-".count)
        lines.append("| \(size), linear scan baseline (`subject == issuer` over the array) | \(cell(linear.value)) | – |")
    }
    lines.append("")

    lines.append("### x509-limbo suite")
    lines.append("")
    if let limbo = results.limbo {
        let walls = limbo.wallSeconds.map { String(format: "%.3f", $0) }.joined(separator: ", ")
        lines.append(
            "`trustctl limbo` (release) process wall time over \(limbo.wallSeconds.count) runs: \(walls) s (median "
                + String(format: "%.3f s", Stats(limbo.wallSeconds).median) + "); the suite loop itself (`suite time`): "
                + (limbo.suiteSeconds.map { String(format: "%.3f s", $0) } ?? "–") + "; `\(limbo.summary)` (exit \(limbo.exitStatus)).")
    } else {
        lines.append("Not run: \(results.limboError ?? "no trustctl / suite given").")
    }
    lines.append("")

    if !results.throughput.isEmpty {
        lines.append("### Throughput on one and two cores")
        lines.append("")
        lines.append(
            "The same total work on 1 thread, then split over 2 threads started together (`DispatchQueue.concurrentPerform`), "
                + "rounds interleaved; evaluations per second of wall time, median (p10–p90) over \(results.throughput.first?.oneThread.count ?? 0) rounds. "
                + "Scaling is 2-thread over 1-thread throughput, round by round.")
        lines.append("")
        lines.append("| scenario | evaluations per round | 1 thread /s | 2 threads /s | scaling |")
        lines.append("|---|---|---|---|---|")
        for row in results.throughput {
            func rate(_ values: [Double]) -> String {
                let stats = Stats(values)
                return String(format: "%.0f (%.0f–%.0f)", stats.median, stats.p10, stats.p90)
            }
            let scaling = Stats(row.scaling)
            lines.append(
                "| \(row.scenario) | \(row.operationsPerRound) | \(rate(row.oneThread)) | \(rate(row.twoThreads)) | "
                    + String(format: "**%.2f×** (%.2f–%.2f)", scaling.median, scaling.p10, scaling.p90) + " |")
        }
        lines.append("")
    }
    if let scale = results.scaleLimbo {
        lines.append("### x509-limbo at scale")
        lines.append("")
        let wall = scale.wallSeconds.first ?? .nan
        let loop = scale.suiteSeconds ?? .nan
        lines.append(
            String(
                format: "`trustctl limbo` (release) on the scale suite (%d cases, each a fresh ECDSA P-256 chain of its own; "
                    + "one in eight wrong in one way): process wall time %.2f s, the suite loop %.2f s = **%.0f cases/s** "
                    + "(%.0f cases/s counting the whole process: reading and decoding the JSON, summarising); ", results.scaleCases, wall, loop,
                Double(results.scaleCases) / loop, Double(results.scaleCases) / wall) + "`\(scale.summary)` (exit \(scale.exitStatus)).")
        lines.append("")
    }
    lines.append("### Memory")
    lines.append("")
    lines.append(
        "Heap growth (glibc `mallinfo2()`, main arena, main thread) while parsing \(results.memory.copies) copies of each leaf, kept alive; "
            + "each copy's DER is its own buffer, allocated before the measured region.")
    lines.append("")
    lines.append("| | bytes per certificate |")
    lines.append("|---|---|")
    for (label, bytes) in results.memory.perCertificate.sorted(by: { $0.key < $1.key }) {
        lines.append("| \(label) | \(String(format: "%.0f", bytes)) |")
    }
    lines.append("")
    for note in results.memory.notes { lines.append("- \(note)") }
    lines.append(
        "- `VerificationKeyCache.shared`: \(results.keyCacheCount) keys cached (capacity \(results.keyCacheCapacity)); "
            + "`SignatureCache.shared`: \(results.signatureCacheCount) verified signatures (capacity \(results.signatureCacheCapacity)); "
            + "`ProfileVerdictCache.shared`: \(results.verdictCacheCount) chains' certificate verdicts (capacity \(results.verdictCacheCapacity)); at the end of the run."
    )
    lines.append("")
    lines.append(String(format: "Benchmark run (after the build): %.1f s.", results.benchSeconds))
    return lines.joined(separator: "\n")
}
