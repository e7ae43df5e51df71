extension ProfileRule {
    // A rule's bit in a ``ProfileRuleSet`` is its declaration index. The append-only record of
    // those positions is `Tests/TrustCoreTests/Vocabulary/ProfileRuleBitOrder.txt`:
    // `ProfileRuleBitOrderTests` holds the enum's declaration order to it, so a rule inserted, moved
    // or removed fails there and a new rule is declared last and appended to the list.

    /// The rule's bit in a ``ProfileRuleSet``: `1 << n` for the rule declared *n*th (counting from 0).
    var bit: UInt64 { UInt64(1) << UInt64(declarationIndex) }

    /// The case's index in declaration order, in O(1) (`ProfileRuleSet.contains` asks on every
    /// check, so no search and no hashing of the `String` raw value): a case of an enum without
    /// payloads is stored as its declaration index (Swift's type layout, docs/ABI/TypeLayout.rst).
    /// `ProfileRuleBitOrderTests` checks it against `allCases`.
    var declarationIndex: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}
