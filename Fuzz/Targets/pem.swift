import TrustDER
import TrustX509

// Fuzz target `pem`: PEM and Base64 decoding, and the loaders that read PEM or DER files
// (certificates, CRLs), over arbitrary text.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPEM(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    Sink.keep(PEM.looksLikePEM(bytes))
    do {
        for block in try PEM.decode(text) {
            Sink.keep(block)
            // Encoding what was decoded must decode to the same block contents.
            let reencoded = PEM.encode(block.der, label: block.label)
            if let again = try? PEM.decode(reencoded), again.count == 1, again[0].der != block.der {
                fatalError("PEM round trip changed the contents of \(block.label)")
            }
        }
    } catch {
        Sink.describe(error)
    }
    for result in PEM.decodeEach(text) {
        switch result {
        case .success(let block): Sink.keep(block.line)
        case .failure(let error): Sink.describe(error)
        }
    }
    if let decoded = Base64.decode(bytes) {
        // What Base64 decodes, it must encode back to something that decodes to the same bytes.
        if Base64.decode(Array(Base64.encode(decoded).utf8)) != decoded {
            fatalError("Base64 round trip changed the bytes")
        }
    }
    do {
        let loaded = try Certificate.load(from: bytes)
        Sink.keep(loaded.certificates.count)
        for skipped in loaded.skippedBlocks { Sink.describe(skipped) }
    } catch {
        Sink.describe(error)
    }
    do {
        Sink.keep(try CertificateRevocationList.loadAll(from: bytes).count)
    } catch {
        Sink.describe(error)
    }
    return 0
}
