import OpenSSLServerSupport
import Foundation
import TrustCore
import TrustX509
import XCTest

/// Profile rules about subject public keys, on leaves openssl issues in the test for RSA keys it
/// generates at odd sizes (the committed corpus has 2048-bit RSA only), under every profile.
extension ProfileRuleCoverageTests {
    func testRSAKeyUnder1024Bits() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let key = try issuer.generateRSAKey(bits: 512)
        // A TLS client certificate: Apple's 2048-bit floor (strongKeySize) is for server chains
        // only, so under Apple's policy this breaks the weak-key rule alone. No web-PKI key is that small.
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(eku: "clientAuth"), key: key).certificate
        try assertRule(.weakKeySize, alsoBreaking: [.keyAlgorithm], detail: .weakRSAKey(bits: 512), leaf: leaf, purpose: .clientAuth)
    }

    func testRSAKeyUnder2048BitsInATLSServerChain() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        let key = try issuer.generateRSAKey(bits: 2040)
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(), key: key).certificate
        try assertRule(.strongKeySize, alsoBreaking: [.keyAlgorithm], detail: .rsaKeyTooSmall(bits: 2040, minimumBits: 2048), leaf: leaf)
        // Apple's floor is for TLS servers: the same key in a client certificate is not too small.
        let client = try issuer.issue(commonName: host, extensions: leafExtensions(eku: "clientAuth"), key: key).certificate
        try assertRule(.keyAlgorithm, leaf: client, purpose: .clientAuth)
        // A server certificate the caller trusts directly is held to it too: Apple exempts only a leaf
        // that is itself a user/admin anchor (SecPolicyCheckKeySize), never an app anchor.
        let pinned = try issuer.issue(commonName: host, extensions: leafExtensions(), by: nil, key: key).certificate
        try assertRule(
            .strongKeySize, alsoBreaking: [.keyAlgorithm], detail: .rsaKeyTooSmall(bits: 2040, minimumBits: 2048),
            leaf: pinned, intermediates: [], anchors: [pinned])
    }

    func testSHA1SignatureInATLSServerChain() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // SecPolicyRemoveWeakHashOptions is added to the SSL server policy only: a client chain keeps SHA-1.
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(), digest: "sha1").certificate
        try assertRule(.signatureHashAlgorithm, detail: .weakSignatureHash(algorithm: "ecdsa-with-SHA1"), leaf: leaf)
        let client = try issuer.issue(commonName: host, extensions: leafExtensions(eku: "clientAuth"), digest: "sha1").certificate
        try assertTrustedUnderEveryProfile(leaf: client, purpose: .clientAuth)
    }

    func testRSAModulusNotAMultipleOf8() throws {
        var issuer = try OpenSSLIssuer()
        defer { issuer.remove() }
        // CABF 6.1.5: at least 2048 bits and divisible by 8. 2052 bits satisfies Apple's size rules.
        let key = try issuer.generateRSAKey(bits: 2052)
        let leaf = try issuer.issue(commonName: host, extensions: leafExtensions(), key: key).certificate
        try assertRule(.keyAlgorithm, detail: .rsaModulusNotMultipleOf8(bits: 2052), leaf: leaf)
    }
}
