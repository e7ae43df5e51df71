import Foundation
import TrustTransparency

// Fuzz target `ct-log-list`: `CTLogList.loadJSON` and `CTLogList.loadPropertyList` over arbitrary
// bytes, then every field of each log loaded.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCTLogList(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let loaders: [(Data) throws -> CTLogList] = [
        { try CTLogList.loadJSON($0, file: "fuzz") }, { try CTLogList.loadPropertyList($0, file: "fuzz") },
    ]
    for load in loaders {
        do {
            let list = try load(bytes)
            Sink.describe(list.updated as Any)
            for log in list.logs {
                Sink.keep(log)
                Sink.describe(log)
                Sink.describe(log.shard as Any)
                Sink.keep(list.log(id: log.id) != nil)
            }
        } catch {
            Sink.describe(error)
        }
    }
    return 0
}
