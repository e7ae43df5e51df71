import Foundation
import TrustTransparency
import TrustX509

// Fuzz target `sct-list`: `SCTList.tlsExtension` over arbitrary bytes, each SCT's fields, then
// `CTPolicy.evaluate` of what parsed (as TLS and as embedded SCTs) for the CT fixtures' main leaf
// and CA with every test log listed (Tests/TrustTransparencyTests/Fixtures, scripts/generate-ct-fixtures).

private let fixtures = RepositoryFiles.root.appendingPathComponent("Tests/TrustTransparencyTests/Fixtures")

private func fixture(_ relative: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: fixtures.appendingPathComponent(relative).path) else {
        FileHandle.standardError.write(Data("fuzz: cannot read \(relative)\n".utf8))
        exit(2)
    }
    return [UInt8](data)
}

private let leaf = try? Certificate(pemEncoded: String(decoding: fixture("leaves/main.pem"), as: UTF8.self))
private let issuer = try? Certificate(pemEncoded: String(decoding: fixture("ca.pem"), as: UTF8.self))
private let logs = try? CTLogList(
    logs: (0..<8).compactMap { try? CTLog(key: fixture("logs/log-\($0).spki.der")) },
    updated: Date(timeIntervalSince1970: 1_767_225_600))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSCTList(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let timestamps = try SCTList.tlsExtension(bytes)
        for presented in timestamps {
            Sink.keep(presented)
            if case let .success(sct) = presented.timestamp { Sink.describe(sct.date) }
        }
        if let leaf, let issuer, let logs {
            let embedded = timestamps.map { PresentedTimestamp(encoded: $0.encoded, source: .embedded) }
            let result = CTPolicy.evaluate(
                leaf: leaf, issuer: issuer, timestamps: timestamps + embedded, logs: logs,
                at: Date(timeIntervalSince1970: 1_769_904_000))
            Sink.describe(result)
            for entry in result.notCounted { Sink.describe(entry.reason) }
        }
    } catch {
        Sink.describe(error)
    }
    return 0
}
