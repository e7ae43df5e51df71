/// The revocation methods, in the order they are consulted and fetched unless a method's
/// preference flag moves it first. The one line a new method adds (CONTRIBUTING.md, "Where to add a
/// revocation source").
enum RevocationMethodRegistry {
    /// Every method.
    static let methods: [any RevocationMethodDefinition.Type] = [
        OCSPRevocationMethod.self,
        CRLRevocationMethod.self,
    ]

    /// Every method's flag: what ``RevocationOptions/useAnyAvailableMethod`` stands for.
    static let methodFlags: RevocationOptions = methods.reduce(into: []) { $0.insert($1.flag) }

    /// The flags that reorder methods (`.preferCRL`).
    static let preferenceFlags: RevocationOptions = methods.reduce(into: []) { flags, method in
        if let preference = method.preference { flags.insert(preference.flag) }
    }

    /// The methods `options` selects, in order, for every combination of method and preference
    /// flags: built once, because the list is read for every certificate of every chain whose
    /// revocation is checked.
    private static let orders: [RevocationOptions: [any RevocationMethodDefinition.Type]] = {
        let relevant = methodFlags.union(preferenceFlags)
        var table: [RevocationOptions: [any RevocationMethodDefinition.Type]] = [:]
        // Every subset of the relevant bits.
        var subset: UInt32 = 0
        repeat {
            let options = RevocationOptions(rawValue: subset)
            let selected = methods.filter { options.checks($0) }
            let preferred = selected.filter { $0.preference.map { options.contains($0.flag) } ?? false }
            table[options] = preferred + selected.filter { method in !preferred.contains { ObjectIdentifier($0) == ObjectIdentifier(method) } }
            subset = (subset &- relevant.rawValue) & relevant.rawValue
        } while subset != 0
        return table
    }()

    /// The methods `options` selects, in the order they are consulted and fetched.
    static func methods(in options: RevocationOptions) -> [any RevocationMethodDefinition.Type] {
        orders[options.intersection(methodFlags.union(preferenceFlags))] ?? []
    }
}

extension RevocationMethod {
    /// The largest document this method's requests ask for, in bytes: 20 MiB for a CRL, 64 KiB
    /// for an OCSP response (TrustHTTP's `HTTPRevocationFetcher` defaults to these).
    public var maximumResponseBytes: Int {
        RevocationMethodRegistry.methods.first { $0.method == self }?.maximumResponseBytes ?? 0
    }
}

extension RevocationOptions {
    /// Whether `method` is checked under these options: its flag, or no method flag at all (neither
    /// means every one, as with Apple's `kSecRevocationUseAnyAvailableMethod`).
    func checks(_ method: any RevocationMethodDefinition.Type) -> Bool {
        contains(method.flag) || isDisjoint(with: RevocationMethodRegistry.methodFlags)
    }

    /// The methods these options use, in the order they are consulted and fetched: the registry's
    /// order, a method whose preference flag is set first (`.preferCRL`: `kSecRevocationPreferCRL`).
    var methodsInOrder: [any RevocationMethodDefinition.Type] { RevocationMethodRegistry.methods(in: self) }
}
