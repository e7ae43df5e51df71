/// Which report collectors an ``HTTPPinningReportUploader`` may send to beyond public `https` ones.
///
/// A report URI comes from a pinning configuration file, which may not be the application's own
/// (a shared or downloaded configuration). By default a report goes only over `https`, to a
/// collector whose address is public: never in clear text, and never to the host itself, its
/// link-local neighbours or its private network (a server-side request forgery through a
/// configuration). Each allowance must be stated.
public struct PinReportCollectorPolicy: Hashable, Sendable {
    /// Whether `http://` collectors are sent to (reports then travel in clear). Default false.
    public var allowsPlainHTTP: Bool
    /// Whether collectors at loopback, link-local, private-use (RFC 1918, RFC 6598, RFC 4193),
    /// unspecified or multicast addresses are sent to, judged on the address actually connected
    /// to (a name resolving to one counts). Default false.
    public var allowsLocalAddresses: Bool

    /// A policy; by default public `https` collectors only.
    public init(allowsPlainHTTP: Bool = false, allowsLocalAddresses: Bool = false) {
        self.allowsPlainHTTP = allowsPlainHTTP
        self.allowsLocalAddresses = allowsLocalAddresses
    }
}
