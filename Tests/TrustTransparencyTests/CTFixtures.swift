import Foundation
import TrustTestSupport
import TrustTransparency
import TrustX509
import XCTest

/// The files `scripts/generate-ct-fixtures` writes, and the dates it uses (repeated here).
enum CTFixtures {
    static let directory = TestCertificates.repositoryRoot.appendingPathComponent("Tests/TrustTransparencyTests/Fixtures")

    /// 2026-01-01T00:00:00Z: the main and v2 leaves' notBefore; log k's embedded SCT is stamped
    /// T0 + 10(k+1) s (log 1's at T0 + 20.5 s).
    static let t0 = Date(timeIntervalSince1970: 1_767_225_600)
    /// When the tests evaluate the 2026 leaves: a month after T0.
    static let evaluation = t0 + 31 * day
    static let day: TimeInterval = 86_400

    /// T0 + `seconds`.
    static func at(_ seconds: TimeInterval) -> Date { t0 + seconds }

    /// `2020-01-01T00:00:00Z`-style text as a date.
    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text) ?? .distantPast
    }

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(path))
    }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try data(path)) }

    static func certificate(_ path: String) throws -> Certificate {
        try Certificate(pemEncoded: String(decoding: try data(path), as: UTF8.self))
    }

    static func leaf(_ name: String) throws -> Certificate { try certificate("leaves/\(name).pem") }
    static func ca() throws -> Certificate { try certificate("ca.pem") }

    /// Log `index`'s SubjectPublicKeyInfo DER.
    static func logKey(_ index: Int) throws -> [UInt8] { try bytes("logs/log-\(index).spki.der") }

    /// A usable log `index`, or with the dates given.
    static func log(
        _ index: Int, state: CTLog.State = .usable, readOnlySince: Date? = nil, retiredSince: Date? = nil,
        shard: CTLog.Shard? = nil, id: [UInt8]? = nil, key: Int? = nil
    ) throws -> CTLog {
        try CTLog(
            key: try logKey(key ?? index), id: id, operatorName: "operator \(index)", description: "log \(index)",
            state: retiredSince != nil ? .retired : readOnlySince != nil ? .readOnly : state,
            readOnlySince: readOnlySince, retiredSince: retiredSince, shard: shard)
    }

    /// A list of usable logs `indices`, updated at T0.
    static func list(_ indices: [Int]) throws -> CTLogList {
        try CTLogList(logs: indices.map { try log($0) }, updated: t0)
    }

    static func list(_ logs: [CTLog]) throws -> CTLogList { try CTLogList(logs: logs, updated: t0) }

    /// The embedded SCTs of leaf `name`.
    static func embedded(_ name: String) throws -> [PresentedTimestamp] { try SCTList.embedded(in: try leaf(name)) }

    /// The SCTs of `tls/NAME.bin`.
    static func tls(_ name: String) throws -> [PresentedTimestamp] { try SCTList.tlsExtension(try bytes("tls/\(name).bin")) }

    /// The SCTs of `ocsp/NAME.der` for leaf `leafName`.
    static func ocsp(_ name: String, leaf leafName: String) throws -> [PresentedTimestamp] {
        let response = try OCSPResponse(derEncoded: try bytes("ocsp/\(name).der"))
        return try SCTList.delivered(in: response, leaf: try leaf(leafName), issuer: try ca())
    }

    /// Evaluates leaf `name` issued by the CA.
    static func evaluate(
        _ name: String, _ timestamps: [PresentedTimestamp], logs: CTLogList,
        at date: Date = evaluation
    ) throws -> CTEvaluation {
        CTPolicy.evaluate(leaf: try leaf(name), issuer: try ca(), timestamps: timestamps, logs: logs, at: date)
    }
}

extension CTEvaluation {
    /// The reasons of the SCTs that did not count, by index.
    var reasons: [Int: SCTRejection] {
        Dictionary(notCounted.map { ($0.index, $0.reason) }, uniquingKeysWith: { first, _ in first })
    }

    /// The counted logs' descriptions, in index order.
    var countedLogs: [String] { counted.map { $0.log.logDescription ?? "?" } }
}
