extension RevocationOptions: CustomStringConvertible {
    /// The flags by the names `trustctl --revocation` takes, comma-separated (`ocsp,crl,require-positive`);
    /// `any` for no flag at all (any method, soft fail).
    public var description: String {
        let names: [(RevocationOptions, String)] = [
            (.ocsp, "ocsp"), (.crl, "crl"), (.preferCRL, "prefer-crl"),
            (.requirePositiveResponse, "require-positive"), (.networkAccessDisabled, "no-network"),
        ]
        let set = names.filter { contains($0.0) }.map(\.1)
        return set.isEmpty ? "any" : set.joined(separator: ",")
    }
}
