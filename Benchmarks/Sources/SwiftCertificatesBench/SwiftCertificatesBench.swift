// The swift-certificates 1.21 columns of the SwiftTrust benchmark. Everything crosses this module's
// boundary as DER byte arrays, so its `Certificate` and `CertificateStore` never meet SwiftTrust's.
import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// swift-certificates operations timed by the harness.
public enum SwiftCertificates {
    /// `Certificate(derEncoded:)`: swift-certificates decodes the fields and builds the public key
    /// (a swift-crypto key) eagerly; extension views decode on access.
    @inline(never)
    public static func parse(_ der: [UInt8]) -> Bool {
        (try? Certificate(derEncoded: der)) != nil
    }

    /// Parses every certificate; returns how many parsed.
    public static func parseAll(_ ders: [[UInt8]]) -> Int {
        var parsed = 0
        for der in ders where (try? Certificate(derEncoded: der)) != nil { parsed += 1 }
        return parsed
    }

    /// Parses `ders` and keeps the certificates alive in the returned object (memory measurements).
    public static func parseKeeping(_ ders: [[UInt8]]) -> AnyObject {
        KeptCertificates(ders.compactMap { try? Certificate(derEncoded: $0) })
    }

    /// Parses leaf, intermediate and root from DER, builds a `Verifier` (RFC5280Policy at a fixed
    /// time + ServerIdentityPolicy) over a store holding the root, and validates.
    public static func verifyFresh(
        leaf: [UInt8], intermediate: [UInt8], root: [UInt8],
        host: String, at date: Date
    ) async -> Bool {
        guard let leafCertificate = try? Certificate(derEncoded: leaf),
            let intermediateCertificate = try? Certificate(derEncoded: intermediate),
            let rootCertificate = try? Certificate(derEncoded: root)
        else { return false }
        var verifier = makeVerifier(root: rootCertificate, host: host, date: date)
        let result = await verifier.validate(leaf: leafCertificate, intermediates: CertificateStore([intermediateCertificate]))
        if case .validCertificate = result { return true }
        return false
    }

    /// A chain parsed once with a verifier built once, validated again and again.
    public static func reusedChain(
        leaf: [UInt8], intermediate: [UInt8], root: [UInt8],
        host: String, at date: Date
    ) -> (any ReusedChain)? {
        guard let leafCertificate = try? Certificate(derEncoded: leaf),
            let intermediateCertificate = try? Certificate(derEncoded: intermediate),
            let rootCertificate = try? Certificate(derEncoded: root)
        else { return nil }
        return Reused(
            leaf: leafCertificate, intermediates: CertificateStore([intermediateCertificate]),
            verifier: makeVerifier(root: rootCertificate, host: host, date: date))
    }

    /// The leaf's signature checked with the intermediate's (already built) public key:
    /// `intermediate.publicKey.isValidSignature(leaf.signature, for: leaf)`.
    public static func signatureCheck(leaf: [UInt8], issuer: [UInt8]) -> (any SignatureCheck)? {
        guard let leafCertificate = try? Certificate(derEncoded: leaf),
            let issuerCertificate = try? Certificate(derEncoded: issuer)
        else { return nil }
        return Signature(leaf: leafCertificate, issuer: issuerCertificate)
    }

    static func makeVerifier(root: Certificate, host: String, date: Date) -> Verifier<some VerifierPolicy> {
        Verifier(rootCertificates: CertificateStore([root])) {
            RFC5280Policy(fixedExpiryValidationTime: date)
            ServerIdentityPolicy(serverHostname: host, serverIP: nil)
        }
    }
}

/// A parsed chain and verifier, reused by every call.
public protocol ReusedChain: AnyObject, Sendable {
    func verify() async -> Bool
}

/// One signature check with pre-parsed certificates and key.
public protocol SignatureCheck: AnyObject, Sendable {
    func check() -> Bool
}

final class Reused<Policy: VerifierPolicy>: ReusedChain, @unchecked Sendable {
    let leaf: Certificate
    let intermediates: CertificateStore
    var verifier: Verifier<Policy>

    init(leaf: Certificate, intermediates: CertificateStore, verifier: Verifier<Policy>) {
        self.leaf = leaf
        self.intermediates = intermediates
        self.verifier = verifier
    }

    func verify() async -> Bool {
        if case .validCertificate = await verifier.validate(leaf: leaf, intermediates: intermediates) { return true }
        return false
    }
}

final class Signature: SignatureCheck, @unchecked Sendable {
    let leaf: Certificate
    let issuer: Certificate

    init(leaf: Certificate, issuer: Certificate) {
        self.leaf = leaf
        self.issuer = issuer
    }

    func check() -> Bool { issuer.publicKey.isValidSignature(leaf.signature, for: leaf) }
}

final class KeptCertificates: @unchecked Sendable {
    let certificates: [Certificate]
    init(_ certificates: [Certificate]) { self.certificates = certificates }
}
