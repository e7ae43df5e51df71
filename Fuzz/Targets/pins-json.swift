import TrustPinning

// Fuzz target `pins-json`: SwiftTrust's own JSON pin format (docs/pinning-configuration.md):
// format detection, `PinningConfiguration.load(data:format: .json)` with its duplicate-key scan,
// strict keys and limits, anchors as inline PEM or files relative to TestCertificates/; then, when
// it loads, host lookups, a pin check against the ECDSA chain, a `ServerTrustManager`, and writing
// in every format, asserting that what is written loads back to the same policies.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPinsJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    PinningConfigurationFuzzing.run(bytes, as: [.json], baseDirectory: PinningConfigurationFuzzing.testCertificatesDirectory)
    return 0
}
