/// The system call of a fetch's connection that failed, in
/// ``FetchFailureReason/transportFailed(operation:errno:)``.
public enum SocketOperation: String, Hashable, Sendable, CustomStringConvertible {
    /// Waiting for the socket to be ready (`poll(2)`).
    case poll
    /// Sending the request (`send(2)`).
    case send
    /// Reading the answer (`read(2)`).
    case read

    /// The call's name.
    public var description: String { rawValue }
}
