import TrustPinning

// Fuzz target `trustkit-json`: a TrustKit configuration dictionary as JSON (`TSKPinnedDomains`,
// or wrapped in `TSKConfiguration`): format detection, then `load(data:format: .trustkit)`
// (JSONSerialization, the duplicate-key scan and limits, TrustKit's rules), and when it loads the
// same use and round trip as `pins-json`.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrustKitJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    PinningConfigurationFuzzing.run(bytes, as: [.trustkit], baseDirectory: nil)
    return 0
}
