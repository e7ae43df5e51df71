import Foundation
import TrustCore
import TrustDiagnostics
import TrustCrypto
import TrustX509

// Fuzz target `server-trust`: a whole `ServerTrust` evaluation (ordering, path building, path
// validation, name constraints, policies, profile rules, revocation with supplied CRLs and OCSP
// responses, chain diagnostics) over mutated chains, with fixed anchors and a fixed verify date.
//
// Input: one control byte, then DER elements one after the other. Each element that parses as a
// certificate is presented (in input order); one that parses as a CRL or an OCSP response is
// supplied for revocation checking. The control byte picks:
//   bits 0–1  the policy: .ssl, .webPKI, .basicX509, or .profile(.rfc5280Strict, serverAuth)
//   bit 2     add .revocation(.useAnyAvailableMethod, .networkAccessDisabled)
//   bit 3     ... with .requirePositiveResponse (hard fail)
//   bit 4     the reference identity is the IP address 192.0.2.10 instead of www.swifttrust.test
//   bit 5     also build ChainDiagnostics (trustctl chain) and render it as text
//   bit 6     present the certificates in LeafOrdering.leafFirst order (trustctl's --reorder)
//
// Never touches the network: synchronous `evaluate()` uses only supplied revocation information,
// and the revocation policy says so too (.networkAccessDisabled).

/// Roots of every hierarchy in TestCertificates/ (README.md): ECDSA, RSA, Ed25519, the second root.
private let anchors = ["ecdsa/root.pem", "rsa/root.pem", "ed25519/root.pem", "scenarios/root2.pem"]
    .flatMap(RepositoryFiles.testCertificates)
/// The pinned verify date of the test certificates: 2026-06-01T00:00:00Z.
private let verifyDate = Date(timeIntervalSince1970: 1_780_272_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerTrust(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = bytes.first else { return 0 }
    // Caches carry verdicts from one input to the next: off, so that every input is reproducible alone.
    TrustCaches.isEnabled = false

    var certificates: [Certificate] = []
    var crls: [CertificateRevocationList] = []
    var ocspResponses: [OCSPResponse] = []
    for element in ConcatenatedDER.elements(bytes.dropFirst()) {
        if let certificate = try? Certificate(derEncoded: element) {
            certificates.append(certificate)
        } else if let crl = try? CertificateRevocationList(derEncoded: element) {
            crls.append(crl)
        } else if let response = try? OCSPResponse(derEncoded: element) {
            ocspResponses.append(response)
        }
    }
    if control & 0x40 != 0 { certificates = LeafOrdering.leafFirst(certificates) }

    let host = control & 0x10 != 0 ? "192.0.2.10" : "www.swifttrust.test"
    var policies: [TrustPolicy]
    switch control & 0x03 {
    case 0: policies = [.ssl(server: true, hostname: host)]
    case 1: policies = [.webPKI(server: true, hostname: host)]
    case 2: policies = [.basicX509]
    default: policies = [.profile(.rfc5280Strict, purpose: .serverAuth, hostname: host)]
    }
    if control & 0x04 != 0 {
        var options: RevocationOptions = [.useAnyAvailableMethod, .networkAccessDisabled]
        if control & 0x08 != 0 { options.insert(.requirePositiveResponse) }
        policies.append(.revocation(options))
    }

    let trust = ServerTrust(certificates: certificates, policies: policies)
    trust.setAnchorCertificates(anchors)
    trust.verifyDate = verifyDate
    trust.setCRLs(crls)
    trust.setOCSPResponses(ocspResponses)
    let evaluation = trust.evaluate()
    Sink.describe(evaluation)
    Sink.keep(evaluation.chain)
    Sink.keep(evaluation.violatedRules.count)
    for failure in evaluation.failures { Sink.describe(failure) }
    for status in evaluation.revocationStatuses { Sink.describe(status) }
    if control & 0x20 != 0 {
        let diagnostics = ChainDiagnostics(trust: trust, host: host, verifyDate: verifyDate)
        Sink.keep(diagnostics.text(style: .plain))
        Sink.keep(diagnostics.text(style: .color))
    }
    return 0
}
