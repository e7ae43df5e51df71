import ArgumentParser
import Foundation
import SwiftTrust

/// The options Apple puts on its SSL policy, for `verify`, `probe` and `serve`: a required leaf key
/// usage (`SecPolicyCreateSSLWithKeyUsage`). They become ``TrustOptions``, which every evaluation
/// applies whichever judge decides, and are refused with profiles other than ssl and webpki (Apple
/// checks them under its SSL policy only).
struct SSLPolicyInputOptions: ParsableArguments {
    @Option(name: .customLong("key-usage"),
            help: ArgumentHelp("The leaf's keyUsage must have any of these (comma list; a+b: both a and b), e.g. digitalSignature,keyEncipherment; a leaf without keyUsage passes, as Apple's SecPolicyCreateSSLWithKeyUsage.",
                               valueName: "usages"))
    var keyUsage: String?

    func validate() throws {
        if let keyUsage { _ = try Self.keyUsageRequirement(keyUsage) }
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
                    throw ValidationError("--key-usage: \(trimmed.isEmpty ? "an empty name" : trimmed) is not a key usage (use "
                        + "digitalSignature, nonRepudiation, keyEncipherment, dataEncipherment, keyAgreement, keyCertSign, "
                        + "cRLSign, encipherOnly, decipherOnly)")
                }
                usage.insert(bit)
            }
            alternatives.append(usage)
        }
        return LeafKeyUsageRequirement(anyOf: alternatives)
    }

    /// Sets the options on `options` (``TrustOptions/commandLine(trust:certificatePolicies:evaluation:)``).
    func apply(to options: inout TrustOptions) {
        if let keyUsage, let requirement = try? Self.keyUsageRequirement(keyUsage) { options.requiredLeafKeyUsage = requirement }
    }

    /// The flags given, as the user wrote them.
    var givenFlags: [String] {
        [(keyUsage != nil, "--key-usage")].filter(\.0).map(\.1)
    }
}
