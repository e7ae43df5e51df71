/// Where a handshake's verification runs (``TLSHandshakeDecider``). A TLS stack calls its
/// verification hook on a thread that must never wait for network I/O (swift-nio's event loop).
public enum TLSVerificationExecution: Hashable, Sendable {
    /// Off the event loop when the evaluation may fetch revocation information (a revocation
    /// policy without `.networkAccessDisabled`), else on it: an offline evaluation is pure CPU work
    /// of tens of microseconds, cheaper than a hop to another thread and back (docs/performance.md).
    case automatic
    /// Always on the event loop, decided before the hook returns. Use only when no evaluation can
    /// touch the network (the settings' revocation fetching, and a missing intermediate's download,
    /// are still moved off the loop: they cannot be run inline).
    case onEventLoop
    /// Always off the event loop, in a task on Swift's global executor, decided later.
    case offEventLoop
}
