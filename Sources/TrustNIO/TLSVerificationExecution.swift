/// Where a verification runs. The verification callback is invoked on the channel's event loop,
/// which must never wait for network I/O.
public enum TLSVerificationExecution: Hashable, Sendable {
    /// Off the event loop when the evaluation may fetch revocation information (a revocation
    /// policy without `.networkAccessDisabled`), else on it: an offline evaluation is pure CPU work
    /// of tens of microseconds, cheaper than a hop to another thread and back (docs/performance.md).
    case automatic
    /// Always on the event loop, completing the promise before the callback returns. Use only when
    /// no evaluation can touch the network (the settings' revocation fetching is still moved off
    /// the loop: it cannot be run inline).
    case onEventLoop
    /// Always off the event loop, in a task on Swift's global executor, completing the promise later.
    case offEventLoop
}
