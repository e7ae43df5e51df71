import TrustCore

/// The rules TrustKit's `parseTrustKitConfiguration` applies to a domain policy beyond its keys'
/// types, shared by the loader and the writer so that what is written loads again.
enum TrustKitDomainRules {
    /// The distinct pins a policy needs: two when enforced, so that one is a backup key ("less than
    /// 2 pins (ie. no backup pins) … might brick your App"); one in report-only mode.
    static func minimumPins(for enforcement: PinEnforcement) -> Int {
        enforcement == .enforce ? 2 : 1
    }

    /// The Public Suffix List with its private section too: TrustKit's registry check was added
    /// after `appspot.com`, a private-section suffix.
    private static let publicSuffixes: PublicSuffixList = {
        var list = PublicSuffixList.snapshot
        list.consultedSections = .all
        return list
    }()

    /// Why `domain` (normalised) may not include its subdomains, or nil when it may: TrustKit
    /// refuses `TSKIncludeSubdomains` on a public suffix, which would pin every site registered
    /// under it (`*.com`, `*.appspot.com`).
    static func subdomainRefusal(domain: String) -> String? {
        guard publicSuffixes.isPublicSuffix(domain) else { return nil }
        return
            "\(domain) is a public suffix (publicsuffix.org); \(TrustKitKey.includeSubdomains) would pin every site registered under it, which TrustKit refuses"
    }

    /// Whether some policy other than `excluded` covers it through `TSKIncludeSubdomains`: a
    /// `kSKExcludeSubdomainFromParentPolicy` entry needs a parent policy to be excluded from.
    static func hasParentPolicy(for excluded: String, among policies: some Sequence<DomainPinningPolicy>) -> Bool {
        policies.contains { parent in
            parent.subdomains == .anyDepth && excluded.hasSuffix("." + parent.domain)
        }
    }
}
