import TrustX509

// Fuzz target `crl`: `CertificateRevocationList(derEncoded:)` over arbitrary bytes, then every
// view of what parsed, entry lookups included.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCRL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        Views.read(try CertificateRevocationList(derEncoded: bytes))
    } catch {
        Sink.describe(error)
    }
    return 0
}
