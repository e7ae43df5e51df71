/// What a pin mismatch does.
public enum PinEnforcement: String, Hashable, Sendable, Codable, CaseIterable {
    /// The connection is rejected, and the failure reported.
    case enforce
    /// The failure is reported and the connection proceeds (TrustKit's `kTSKEnforcePinning = NO`,
    /// TrustKit-Android's `enforcePinning="false"`). Chain and host validation are still enforced.
    case reportOnly
}
