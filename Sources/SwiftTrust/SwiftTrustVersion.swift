/// The version of the SwiftTrust package, the one place it is written down (`trustctl --version`
/// prints it). Semantic versioning: below 1.0 the public API may still change between minor versions.
public enum SwiftTrustVersion {
    /// `major.minor.patch`.
    public static let current = "0.9.0"
}
