extension RevocationOptions: CustomStringConvertible {
    /// Every flag once, with the name `trustctl --revocation` takes and its Swift name: the one table
    /// that descriptions, error texts and the command line read.
    /// Each method's flag first, then their preference flags, from `RevocationMethodRegistry`.
    package static let namedFlags: [(flag: RevocationOptions, name: String, swiftName: String)] =
        RevocationMethodRegistry.methods.map { ($0.flag, $0.flagNames.name, $0.flagNames.swiftName) }
        + RevocationMethodRegistry.methods.compactMap { $0.preference } + [
            (.requirePositiveResponse, "require-positive", "requirePositiveResponse"),
            (.networkAccessDisabled, "no-network", "networkAccessDisabled"),
        ]

    /// The flags by the names `trustctl --revocation` takes, comma-separated (`ocsp,crl,require-positive`);
    /// `any` for no flag at all (any method, soft fail).
    public var description: String {
        let set = Self.namedFlags.filter { contains($0.flag) }.map(\.name)
        return set.isEmpty ? "any" : set.joined(separator: ",")
    }

    /// The flags by their Swift names (`crl, requirePositiveResponse`), as error texts show them; `none`
    /// for no flag at all.
    package var swiftNames: String {
        let set = Self.namedFlags.filter { contains($0.flag) }.map(\.swiftName)
        return set.isEmpty ? "none" : set.joined(separator: ", ")
    }

    /// The flags a `trustctl --revocation` name stands for (`any`: ``useAnyAvailableMethod``), or nil.
    package static func flags(named name: String) -> RevocationOptions? {
        if name == "any" { return .useAnyAvailableMethod }
        return namedFlags.first { $0.name == name }?.flag
    }

    /// Every name ``flags(named:)`` knows, sorted.
    package static var flagNames: [String] { (namedFlags.map(\.name) + ["any"]).sorted() }
}
