import TrustX509

/// The key usage a leaf must assert: Apple's `kSecPolicyCheckKeyUsage`, the option
/// `SecPolicyCreateSSLWithKeyUsage(server, hostname, keyUsage)` puts on the SSL policy.
///
/// Read as trustd reads it. `SecPolicyCheckKeyUsage` (SecPolicyServer.c) calls
/// `SecPolicyCheckCertKeyUsage` (SecPolicyLeafCallbacks.c) on the leaf: the option holds one key-usage
/// mask or an array of them, and the leaf passes when its keyUsage has every bit of any one mask
/// (`keyusage_allows`: `(keyUsage & ku) == ku`). `SecPolicyCreateSSLWithKeyUsage` gives one mask
/// (``init(allOf:)``: every bit of it); several masks (``init(anyOf:)``) are any of them. A leaf
/// without a keyUsage extension passes whatever is required: `SecPolicyCreateSSL_internal`
/// (SecPolicy.c) adds `kSecKeyUsageUnspecified` beside the mask ("Allow a missing KU extension"),
/// which matches a certificate whose key usage is unspecified. (A keyUsage extension with no bit
/// set, the other way to be unspecified there, is malformed here: RFC 5280 §4.2.1.3.)
///
/// ```swift
/// trust.options.requiredLeafKeyUsage = LeafKeyUsageRequirement(allOf: .keyEncipherment)
/// trust.options.requiredLeafKeyUsage = LeafKeyUsageRequirement(anyOf: [.digitalSignature, .keyAgreement])
/// ```
public struct LeafKeyUsageRequirement: Hashable, Sendable, CustomStringConvertible {
    /// The masks, any one of which the leaf's keyUsage must hold wholly; empty: nothing is required.
    public let alternatives: [KeyUsage]

    /// Nothing required (the default, Apple's `kSecKeyUsageUnspecified` passed to
    /// `SecPolicyCreateSSLWithKeyUsage`, which then adds no key-usage check).
    public init() { alternatives = [] }

    /// Every bit of `usage`: `SecPolicyCreateSSLWithKeyUsage(server, hostname, usage)`. An empty
    /// `usage` requires nothing, as Apple adds no check for `kSecKeyUsageUnspecified`.
    public init(allOf usage: KeyUsage) { self.init(anyOf: [usage]) }

    /// Every bit of any one of `usages` (the option holding an array of masks). Empty masks, which
    /// only a leaf without keyUsage matches and such a leaf always passes, are left out; repeated
    /// ones are kept once.
    public init(anyOf usages: [KeyUsage]) {
        var kept: [KeyUsage] = []
        for usage in usages where !usage.isEmpty && !kept.contains(usage) { kept.append(usage) }
        alternatives = kept
    }

    /// Whether nothing is required.
    public var isEmpty: Bool { alternatives.isEmpty }

    /// Whether a leaf whose keyUsage is `usage` (nil: no keyUsage extension) passes.
    public func isSatisfied(by usage: KeyUsage?) -> Bool {
        guard let usage, !alternatives.isEmpty else { return true }
        return alternatives.contains { usage.isSuperset(of: $0) }
    }

    /// `keyEncipherment`, `digitalSignature+keyEncipherment` (every bit of one mask), or
    /// `any of digitalSignature, keyAgreement`; `none` when nothing is required.
    public var description: String {
        let masks = alternatives.map { $0.names.joined(separator: "+") }
        switch masks.count {
        case 0: return "none"
        case 1: return masks[0]
        default: return "any of " + masks.joined(separator: ", ")
        }
    }
}
