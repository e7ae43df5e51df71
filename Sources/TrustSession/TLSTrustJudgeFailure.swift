import TrustCore

/// Why a ``TLSTrustJudging`` judge rejected a peer: a typed failure of the judge's module
/// (TrustPinning's `ServerTrustFailureReason` and `SecurityPolicyFailure`), which
/// ``TLSTrustFailure/judgeRejected(host:failure:)`` carries and ``TLSTrustFailure`` reads its
/// ``trustFailures`` and text from.
///
/// A conformer that is a `LocalizedError` lends ``TLSTrustFailure`` its `recoverySuggestion`.
public protocol TLSTrustJudgeFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The evaluation failures underneath (each names its certificate and the rule it broke);
    /// empty for reasons that are not about the chain (pins, configuration). Default: empty.
    var trustFailures: [TrustFailure] { get }

    /// One line naming the reason for `host` without the underlying ``trustFailures``.
    /// Default: ``description(forHost:)``.
    func summary(forHost host: String) -> String

    /// One line naming the reason for `host` and the underlying failures. Default: the host, then
    /// the failure's `description`.
    func description(forHost host: String) -> String
}

extension TLSTrustJudgeFailure {
    /// Empty.
    public var trustFailures: [TrustFailure] { [] }

    /// ``description(forHost:)``.
    public func summary(forHost host: String) -> String { description(forHost: host) }

    /// `host`, then the failure's `description`.
    public func description(forHost host: String) -> String { "\(host): \(description)" }
}

/// A ``TLSTrustJudgeFailure`` of any type, `Hashable` so that ``TLSTrustFailure`` is: equal when
/// the failures' types and values are (compared as `ComparableError` compares errors, never by
/// their text).
///
/// ```swift
/// if case let .judgeRejected(_, rejection) = failure, let reason = rejection.base as? ServerTrustFailureReason { … }
/// ```
public struct AnyTLSTrustJudgeFailure: Hashable, Sendable, CustomStringConvertible {
    /// The judge's failure.
    public let base: any TLSTrustJudgeFailure

    /// Wraps `base`.
    public init(_ base: any TLSTrustJudgeFailure) {
        self.base = base
    }

    /// The failure's own description.
    public var description: String { base.description }

    /// Equal when the failures' types and values are.
    public static func == (lhs: AnyTLSTrustJudgeFailure, rhs: AnyTLSTrustJudgeFailure) -> Bool {
        ComparableError(lhs.base) == ComparableError(rhs.base)
    }

    /// Hashes the failure's value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ComparableError(base))
    }
}
