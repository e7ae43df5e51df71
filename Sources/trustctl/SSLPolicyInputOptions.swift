import ArgumentParser
import Foundation
import SwiftTrust

/// The options Apple puts on its SSL policy, for `verify`, `probe` and `serve`: a required leaf key
/// usage (`SecPolicyCreateSSLWithKeyUsage`) and SPKI pins (`kSecPolicyCheckLeafSPKISHA256`,
/// `kSecPolicyCheckCAspkiSHA256`). They become ``TrustOptions``, which every evaluation
/// applies whichever judge decides, and are refused with profiles other than ssl and webpki (Apple
/// checks them under its SSL policy only).
struct SSLPolicyInputOptions: ParsableArguments {
    @Option(
        name: .customLong("key-usage"),
        help: ArgumentHelp(
            "The leaf's keyUsage must have any of these (comma list; a+b: both a and b), e.g. digitalSignature,keyEncipherment; a leaf without keyUsage passes, as Apple's SecPolicyCreateSSLWithKeyUsage.",
            valueName: "usages"))
    var keyUsage: String?

    @Option(
        name: .customLong("leaf-spki-sha256"),
        help: "The leaf's SPKI SHA-256 must be one of these, BASE64 or sha256/BASE64 (repeatable; Apple's kSecPolicyCheckLeafSPKISHA256).")
    var leafSPKISHA256: [String] = []

    @Option(
        name: .customLong("ca-spki-sha256"),
        help:
            "A CA certificate's SPKI SHA-256 (any above the leaf, the anchor included) must be one of these, BASE64 or sha256/BASE64 (repeatable; Apple's kSecPolicyCheckCAspkiSHA256)."
    )
    var caSPKISHA256: [String] = []

    func validate() throws {
        if let keyUsage { _ = try Self.keyUsageRequirement(keyUsage) }
        _ = try Self.digests(leafSPKISHA256, flag: "--leaf-spki-sha256")
        _ = try Self.digests(caSPKISHA256, flag: "--ca-spki-sha256")
    }

    /// The SHA-256 digests of `pins` (`BASE64` or `sha256/BASE64`, read as `--pin-sha256` reads them).
    static func digests(_ pins: [String], flag: String) throws -> [[UInt8]] {
        try pins.map { text in
            do { return try SPKIPin(text.hasPrefix(SPKIPin.prefix) ? text : SPKIPin.prefix + text).digest } catch {
                throw ValidationError("\(flag): \(error)")
            }
        }
    }

    /// Refuses these options under a profile whose policy is not Apple's SSL policy (or the web-PKI
    /// one built on it), naming the flag and the profile.
    func validate(profile: TrustProfile) throws {
        guard profile != .ssl, profile != .webPKI, let flag = givenFlags.first else { return }
        throw ValidationError("\(flag) is an option of Apple's SSL policy: it applies to --profile ssl or webpki, not \(profile)")
    }

    /// `a,b+c`: a, or both b and c (``LeafKeyUsageRequirement/init(anyOf:)``), by RFC 5280's bit names.
    static func keyUsageRequirement(_ text: String) throws -> LeafKeyUsageRequirement {
        var alternatives: [KeyUsage] = []
        for alternative in text.split(separator: ",", omittingEmptySubsequences: false) {
            var usage: KeyUsage = []
            for name in alternative.split(separator: "+", omittingEmptySubsequences: false) {
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                guard let bit = KeyUsage.named(trimmed) else {
                    throw ValidationError(
                        "--key-usage: \(trimmed.isEmpty ? "an empty name" : trimmed) is not a key usage (use "
                            + "digitalSignature, nonRepudiation, keyEncipherment, dataEncipherment, keyAgreement, keyCertSign, "
                            + "cRLSign, encipherOnly, decipherOnly)")
                }
                usage.insert(bit)
            }
            alternatives.append(usage)
        }
        return LeafKeyUsageRequirement(anyOf: alternatives)
    }

    /// Sets the options on `options` (``TrustOptions/commandLine(trust:certificatePolicies:evaluation:)``);
    /// ``validate()`` has read every value, and a pin list that did not read would match nothing.
    func apply(to options: inout TrustOptions) {
        if let keyUsage, let requirement = try? Self.keyUsageRequirement(keyUsage) { options.requiredLeafKeyUsage = requirement }
        if !leafSPKISHA256.isEmpty { options.leafSPKISHA256 = (try? Self.digests(leafSPKISHA256, flag: "--leaf-spki-sha256")) ?? [] }
        if !caSPKISHA256.isEmpty { options.caSPKISHA256 = (try? Self.digests(caSPKISHA256, flag: "--ca-spki-sha256")) ?? [] }
    }

    /// The flags given, as the user wrote them.
    var givenFlags: [String] {
        [(keyUsage != nil, "--key-usage"), (!leafSPKISHA256.isEmpty, "--leaf-spki-sha256"), (!caSPKISHA256.isEmpty, "--ca-spki-sha256")]
            .filter(\.0).map(\.1)
    }
}
