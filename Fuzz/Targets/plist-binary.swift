import TrustDocuments
import TrustPinning

// Fuzz target `plist-binary`: binary property lists (`bplist00`), read by our own
// `BinaryPropertyListReader` (Sources/TrustPinning/Configuration/BinaryPropertyList/), never by
// Foundation: the trailer and offset table checked against the bytes, shared objects counted each
// time they are used (the seeds include a 30-level `n = [n-1, n-1]` bomb), cycles, depth and
// duplicate keys refused. Format detection, then `load(data:format:)` as `.ats` and as
// `.trustkit`, and when it loads the same use and round trip as `pins-json`.
//
// An input that does not start with `bplist` gets `bplist00` put in front, so that every input
// reaches the binary reader (other inputs would go to Foundation's XML and OpenStep parser, which
// `plist-xml` fuzzes).

private let magic = Array("bplist00".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlistBinary(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if !bytes.starts(with: magic.prefix(6)) { bytes = magic + bytes }
    PinningConfigurationFuzzing.run(bytes, as: [.ats, .trustkit], baseDirectory: nil)
    return 0
}
