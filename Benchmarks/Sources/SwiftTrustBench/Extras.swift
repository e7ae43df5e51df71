// The extra measurements: a real-world bundle, a 100,000-certificate issuer pool, memory, limbo.
import COpenSSLBench
import Foundation
import SwiftCertificatesBench
import SwiftTrust

// MARK: - Real-world bundle

/// The DER certificates of a PEM bundle (decoded once, outside any timing).
func loadBundle(_ path: String) throws -> [[UInt8]] {
    guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("cannot read \(path)") }
    return try PEM.decode(String(decoding: data, as: UTF8.self)).filter { $0.label == "CERTIFICATE" }.map(\.der)
}

// MARK: - Issuer pool

/// A synthetic pool of distinct CA certificates made from one real one by rewriting bytes in place
/// (subject CN tail, serial tail, subjectKeyIdentifier tail, signature tail), plus a probe leaf
/// whose issuer name and authorityKeyIdentifier point at one member. Signatures are not valid:
/// only lookups are measured.
struct IssuerPool: Sendable {
    let certificates: [Certificate]
    let probe: Certificate
    let probeIssuerIndex: Int

    static let digits = 6

    static func make(count: Int, chain: Chain, commonName: String) throws -> IssuerPool {
        let base = chain.intermediate
        let parsed = try Certificate(derEncoded: base)
        let cnBytes = Array(commonName.utf8)
        guard cnBytes.count > digits else { throw BenchError("common name too short") }
        let cnOffsets = occurrences(of: cnBytes, in: base)
        guard cnOffsets.count == 1, let cnOffset = cnOffsets.first else { throw BenchError("subject CN not found once in the base certificate") }
        let cnTail = cnOffset + cnBytes.count - digits
        let serial = Array(parsed.serialNumber)
        guard serial.count >= 4, let serialOffset = occurrences(of: serial, in: Array(base.prefix(40))).first else {
            throw BenchError("serial not found")
        }
        let serialTail = serialOffset + serial.count - 3
        guard let ski = parsed.extensions.subjectKeyIdentifier?.keyIdentifier, ski.count >= 4,
            let skiOffset = occurrences(of: Array(ski), in: base).first
        else { throw BenchError("SKI not found") }
        let skiTail = skiOffset + ski.count - 3
        let signatureTail = base.count - 3

        func stamp(_ bytes: inout [UInt8], at offset: Int, _ value: Int) {
            bytes[offset] = UInt8((value >> 16) & 0xFF)
            bytes[offset + 1] = UInt8((value >> 8) & 0xFF)
            bytes[offset + 2] = UInt8(value & 0xFF)
        }
        func stampDecimal(_ bytes: inout [UInt8], at offset: Int, _ value: Int) {
            var remaining = value
            for position in stride(from: offset + digits - 1, through: offset, by: -1) {
                bytes[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            }
        }

        var certificates: [Certificate] = []
        certificates.reserveCapacity(count)
        for index in 0..<count {
            var der = base
            stampDecimal(&der, at: cnTail, index)
            stamp(&der, at: serialTail, index)
            stamp(&der, at: skiTail, index)
            stamp(&der, at: signatureTail, index)
            certificates.append(try Certificate(derEncoded: der))
        }

        // The probe: the real leaf, its issuer CN and AKI rewritten to name member `probeIssuerIndex`.
        let probeIssuerIndex = count * 3 / 4 + 17
        var leaf = chain.leaf
        guard let leafCN = occurrences(of: cnBytes, in: leaf).first,
            let leafAKI = occurrences(of: Array(ski), in: leaf).first
        else { throw BenchError("leaf issuer/AKI not found") }
        stampDecimal(&leaf, at: leafCN + cnBytes.count - digits, probeIssuerIndex)
        stamp(&leaf, at: leafAKI + ski.count - 3, probeIssuerIndex)
        let probe = try Certificate(derEncoded: leaf)
        guard probe.issuer == certificates[probeIssuerIndex].subject else { throw BenchError("probe does not name its issuer") }
        return IssuerPool(certificates: certificates, probe: probe, probeIssuerIndex: probeIssuerIndex)
    }

    static func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard needle.count <= haystack.count else { return [] }
        var found: [Int] = []
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { found.append(start) }
        }
        return found
    }

    /// The linear-scan baseline: every certificate whose subject equals the probe's issuer.
    @inline(never)
    static func linearScan(_ certificates: [Certificate], for child: Certificate) -> Int {
        let issuer = child.issuer
        var found = 0
        for certificate in certificates where certificate.subject == issuer { found += 1 }
        return found
    }
}

// MARK: - Memory

/// Heap growth (glibc `mallinfo2`: in-use bytes of the main arena; call on the main thread) while
/// `body` builds something that stays alive until `body` returns its result.
@MainActor
func heapGrowth<T>(_ body: () throws -> T) rethrows -> (bytes: Int, value: T) {
    let before = ob_heap_in_use()
    let value = try body()
    let after = ob_heap_in_use()
    return (Int(after) - Int(before), value)
}

struct MemoryReport: Sendable, Codable {
    var perCertificate: [String: Double] = [:] // label -> bytes per certificate
    var notes: [String] = []
    var copies = 0
}

/// Bytes retained per parsed certificate, `copies` certificates kept alive, for the three libraries.
@MainActor
func measureMemory(chains: [Chain], copies: Int) -> MemoryReport {
    var report = MemoryReport()
    report.copies = copies
    for chain in chains {
        // Distinct DER buffers (a copy per certificate, as if each came from its own connection),
        // allocated before the measured region.
        let ders: [[UInt8]] = (0..<copies).map { _ in chain.leaf.withUnsafeBufferPointer { Array($0) } }
        let derBytes = Double(chain.leaf.count)
        report.perCertificate["\(chain.name) leaf DER size"] = derBytes

        var kept: [Certificate] = []
        kept.reserveCapacity(copies)
        let ours = heapGrowth { for der in ders { if let c = try? Certificate(derEncoded: der) { kept.append(c) } } }
        // A certificate keeps a private copy of its DER (so that parses of one shared array do not
        // contend on its reference count); the growth then includes that copy, which is the DER it
        // keeps, not overhead beyond it. Decided from the buffers, not assumed.
        let keepsOwnCopy =
            kept.first.map { certificate in
                certificate.derEncoded.withUnsafeBufferPointer { $0.baseAddress } != ders[0].withUnsafeBufferPointer { $0.baseAddress }
            } ?? false
        let beyondDER = Double(ours.bytes) / Double(copies) - (keepsOwnCopy ? derBytes : 0)
        report.perCertificate["\(chain.name) SwiftTrust (beyond the DER it keeps)"] = beyondDER
        report.perCertificate["\(chain.name) SwiftTrust (including the DER)"] = beyondDER + derBytes
        // Views that allocate are decoded on first use: what a certificate holds once an
        // evaluation has read them (the views validation reads, kept until the certificate goes).
        let viewsRead = heapGrowth { kept.reduce(0) { $0 &+ Ours.touchValidated($1) } }
        report.perCertificate["\(chain.name) SwiftTrust (beyond the DER, once validation has read its views)"] =
            beyondDER + Double(viewsRead.bytes) / Double(copies)
        consume(kept)
        kept = []

        var x509s: [OpaquePointer] = []
        x509s.reserveCapacity(copies)
        let openssl = heapGrowth {
            for der in ders { if let c = der.withUnsafeBufferPointer({ ob_cert_new($0.baseAddress, $0.count) }) { x509s.append(c) } }
        }
        report.perCertificate["\(chain.name) OpenSSL X509 (own copies)"] = Double(openssl.bytes) / Double(copies)
        for c in x509s { ob_cert_free(c) }
        x509s = []

        let theirs = heapGrowth { SwiftCertificates.parseKeeping(ders) }
        report.perCertificate["\(chain.name) swift-certificates (beyond the DER)"] = Double(theirs.bytes) / Double(copies)
        consume(theirs.value)
    }
    return report
}

// MARK: - x509-limbo

struct LimboRun: Sendable, Codable {
    let wallSeconds: [Double]
    let suiteSeconds: Double?
    let summary: String
    let exitStatus: Int32
}

/// Runs `trustctl limbo SUITE` `runs` times and times each process.
func runLimbo(trustctl: String, suite: String, knownDisagreements: String?, runs: Int) throws -> LimboRun {
    var walls: [Double] = []
    var suiteSeconds: Double?
    var summary = ""
    var status: Int32 = 0
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: trustctl)
        process.arguments = ["limbo", suite] + (knownDisagreements.map { ["--known-disagreements", $0] } ?? [])
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let start = clock.now
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        walls.append(microseconds(clock.now - start) / 1e6)
        status = process.terminationStatus
        let text = String(decoding: output, as: UTF8.self)
        for line in text.split(separator: "\n") {
            if line.hasPrefix("suite time: ") {
                suiteSeconds = Double(line.dropFirst("suite time: ".count).split(separator: " ").first ?? "")
            }
            if line.contains(" passed, ") { summary = String(line) }
        }
    }
    return LimboRun(wallSeconds: walls, suiteSeconds: suiteSeconds, summary: summary, exitStatus: status)
}
