/// The table of ``ProfileRule``s and the profiles that apply them, as printed in docs/profiles.md
/// (`trustctl profiles --markdown`), generated from the rules themselves so the two cannot drift.
package enum ProfileRulesTable {
    /// The profiles in table-column order.
    package static let profiles: [TrustProfile] = [.rfc5280, .rfc5280Strict, .basicX509, .ssl, .webPKI, .spiffe]

    /// One Markdown table row per rule: name, a ✓ for each profile that applies it, source, summary.
    package static var markdown: String {
        var lines = [
            "| rule | " + profiles.map(\.description).joined(separator: " | ") + " | source | what it checks |",
            "|---|" + profiles.map { _ in ":-:|" }.joined() + "---|---|",
        ]
        for rule in ProfileRule.allCases {
            let marks = profiles.map { rule.profiles.contains($0) ? "✓" : "" }
            lines.append("| `\(rule.rawValue)` | " + marks.joined(separator: " | ") + " | \(rule.source) | \(rule.summary) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
