import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one switch for every SwiftTrust cache (each a `BoundedCache`).
///
/// Caches never change a verdict — each is keyed on everything its value depends on — so switching
/// them off only costs time. It exists to prove that claim (the test suite evaluates the scenario and
/// conformance suites with caches on and off and requires identical verdicts and reasons) and to
/// measure or debug without them.
///
/// The initial value comes from the environment variable ``environmentVariable``
/// (`SWIFTTRUST_CACHES`), read once on first use: unset, empty, `on`, `1`, `true` or `yes` leave
/// caching on; any other value (`off`, `0`, …) switches it off, so that a mistyped request to disable
/// caching does not silently leave it on. `SWIFTTRUST_CACHES=off trustctl limbo …` runs without caches.
public enum TrustCaches {
    /// The environment variable that sets the initial value of ``isEnabled``.
    public static let environmentVariable = "SWIFTTRUST_CACHES"

    /// Whether caches are consulted and filled. Safe to read and set from any thread; a change applies
    /// to lookups that start after it. Switching caching off does not empty the caches.
    public static var isEnabled: Bool {
        get { enabled.load(ordering: .acquiring) }
        set { enabled.store(newValue, ordering: .releasing) }
    }

    /// Whether an environment value (nil when the variable is unset) leaves caching on.
    package static func isEnabled(environmentValue value: String?) -> Bool {
        guard let value else { return true }
        return ["", "on", "1", "true", "yes"].contains(value.lowercased())
    }

    private static let enabled = Atomic<Bool>(isEnabled(environmentValue: environmentValue()))

    private static func environmentValue() -> String? {
        guard let pointer = getenv(environmentVariable) else { return nil }
        return String(cString: pointer)
    }
}
