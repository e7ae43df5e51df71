/// An error of a type this library does not know (what a caller's closure, an evaluator or a
/// transport threw), as a failure reason carries it: the one wrapper that lets those reasons
/// synthesize `Equatable` and `Hashable`.
///
/// Two wrapped errors compare by value when the error's type is `Equatable` (or `Hashable`),
/// otherwise by their type alone (two errors of the same type that cannot be compared are equal,
/// which keeps `==` reflexive); never by the error's text. The wrapper describes itself as the
/// error does, so a reason's text is the same as if it held the error itself.
///
/// ```swift
/// if case let .challengeCancelled(_, underlying?) = failure,
///    let reason = underlying.error as? ServerTrustFailureReason { … }
/// ```
public struct ComparableError: Hashable, Sendable, CustomStringConvertible {
    /// The wrapped error.
    public let error: any Error

    /// Wraps `error`.
    public init(_ error: any Error) {
        self.error = error
    }

    /// The error's own description (what string interpolation of the error gives).
    public var description: String { String(describing: error) }

    /// Equal when the errors' values are (their type is `Equatable`), or when neither can be
    /// compared and their types are the same.
    public static func == (lhs: ComparableError, rhs: ComparableError) -> Bool {
        if let left = hashableValue(of: lhs.error), let right = hashableValue(of: rhs.error) { return left == right }
        guard type(of: lhs.error) == type(of: rhs.error) else { return false }
        if let left = equatableValue(of: lhs.error) { return isEqual(left, rhs.error) }
        return true
    }

    /// Hashes the value when its type is `Hashable`, otherwise the type (what every pair that
    /// `==` calls equal shares).
    public func hash(into hasher: inout Hasher) {
        if let value = Self.hashableValue(of: error) {
            hasher.combine(value)
        } else {
            hasher.combine(ObjectIdentifier(type(of: error)))
        }
    }

    // The casts go through `Any`: cast from `any Error`, the compiler wrongly warns that they
    // always succeed.
    private static func hashableValue(of value: Any) -> AnyHashable? {
        (value as? any Hashable).map { AnyHashable($0) }
    }

    private static func equatableValue(of value: Any) -> (any Equatable)? {
        value as? any Equatable
    }

    private static func isEqual<Value: Equatable>(_ value: Value, _ other: any Error) -> Bool {
        (other as? Value) == value
    }
}
