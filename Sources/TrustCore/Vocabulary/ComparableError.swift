/// An error of a type this library does not know (what a caller's closure or a transport threw),
/// compared so that the failure reasons carrying one can be `Hashable`: by value when the error's
/// type is `Equatable` (or `Hashable`), otherwise by its type alone (two errors of the same
/// type that cannot be compared are equal, which keeps `==` reflexive). Never by the error's text.
package struct ComparableError: Hashable, Sendable {
    /// The wrapped error.
    package let error: any Error

    /// Wraps `error`.
    package init(_ error: any Error) {
        self.error = error
    }

    package static func == (lhs: ComparableError, rhs: ComparableError) -> Bool {
        if let left = hashableValue(of: lhs.error), let right = hashableValue(of: rhs.error) { return left == right }
        guard type(of: lhs.error) == type(of: rhs.error) else { return false }
        if let left = equatableValue(of: lhs.error) { return isEqual(left, rhs.error) }
        return true
    }

    /// Hashes the value when its type is `Hashable`, otherwise the type (what every pair that
    /// `==` calls equal shares).
    package func hash(into hasher: inout Hasher) {
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
