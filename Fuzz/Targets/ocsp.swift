import TrustX509

// Fuzz target `ocsp`: `OCSPResponse(derEncoded:)` over arbitrary bytes, then every view of what
// parsed: single responses, the responder, embedded certificates (Views.read), and matching each
// CertID against a fixed certificate and issuer from TestCertificates/.

/// The certificate and issuer the seeds' responses are about (TestCertificates/README.md, revocation).
private let subject = RepositoryFiles.testCertificates("revocation/good-leaf.pem")
private let issuer = RepositoryFiles.testCertificates("ecdsa/intermediate.pem")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOCSP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let response = try OCSPResponse(derEncoded: bytes)
        Sink.describe(response.status)
        Sink.describe(response.responderID as Any)
        Sink.describe(response.producedAt as Any)
        Sink.describe(response.nonce as Any)
        Sink.keep(response.tbsResponseData)
        Sink.describe(response.signatureAlgorithmIdentifier as Any)
        Sink.keep(response.signature)
        for single in response.responses {
            Sink.describe(single.status)
            Sink.describe(single.thisUpdate)
            Sink.describe(single.nextUpdate as Any)
            Sink.describe(single.certID.hashAlgorithm)
            for (certificate, issuer) in zip(subject, issuer) {
                Sink.keep(single.certID.identifies(certificate, issuedBy: issuer))
            }
        }
        for certificate in response.certificates { Views.read(certificate) }
        do {
            Sink.describe(try response.signatureAlgorithm())
        } catch {
            Sink.describe(error)
        }
    } catch {
        Sink.describe(error)
    }
    return 0
}
