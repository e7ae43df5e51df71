import TrustPinning

// Fuzz target `plist-xml`: XML property lists, an ATS `Info.plist` (`NSAppTransportSecurity` →
// `NSPinnedDomains`) or a TrustKit one (`TSKConfiguration`, or the dictionary alone): format
// detection, then `PinningConfiguration.load(data:format:)` as `.ats` and as `.trustkit`
// (Foundation's parser, then our strict XML reader with its limits and duplicate-key scan); then,
// when it loads, the same use and round trip through every writer as `pins-json`.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlistXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    PinningConfigurationFuzzing.run(bytes, as: [.ats, .trustkit], baseDirectory: nil)
    return 0
}
