import TrustX509

// Fuzz target `certificate`: `Certificate(derEncoded:)` over arbitrary bytes, then every view of
// what parsed (Views.read), including the key and, for a self-issued certificate, its signature.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCertificate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let certificate = try Certificate(derEncoded: bytes)
        Views.read(certificate)
        // What parsed re-parses from its own encoding to an equal certificate.
        if (try? Certificate(derEncoded: certificate.derEncoded)) != certificate {
            fatalError("a parsed certificate does not re-parse from its own encoding")
        }
    } catch {
        Sink.describe(error)
    }
    return 0
}
