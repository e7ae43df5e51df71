import TrustPinning

// Fuzz target `android-xml`: Android's `network_security_config.xml` with TrustKit-Android's
// `<trustkit-config>`, read by our own XML reader (no DTD internal subset or entities, UTF-8 only,
// limits on bytes, elements and depth, every error with its line) and the network-security-config
// rules (structure, inheritance, pin-sets, trust anchors). `@raw/company_ca` and `@raw/proxy_ca`
// resolve to real certificates (Fuzz/Support/android-res/raw/). Format detection, then
// `load(data:format: .android)`, and when it loads the same use and round trip as `pins-json`.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAndroidXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    PinningConfigurationFuzzing.run(bytes, as: [.android], baseDirectory: PinningConfigurationFuzzing.androidResourceDirectory)
    return 0
}
