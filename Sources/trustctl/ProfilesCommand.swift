import ArgumentParser
import SwiftTrust

/// `trustctl profiles`: which rule each profile applies, and where the rule comes from.
struct Profiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the validation rules of each profile (rfc5280, rfc5280-strict, basic, ssl, webpki, spiffe).",
        discussion: """
            Every profile applies RFC 5280 §6.1 path validation; the rules listed here come on top.

            Example: trustctl profiles --profile ssl
            lists what Apple's SSL policy checks beyond path validation, each rule with its source; \
            trustctl profiles --markdown > table.md writes the table of docs/profiles.md; \
            trustctl profiles --apple lists Apple's trustd rules item by item (the Apple function and what \
            SwiftTrust does).
            """
    )

    @Option(help: "Only the rules of this profile.")
    var profile: TrustProfile?

    @Flag(help: "Print the Markdown table of docs/profiles.md.")
    var markdown = false

    @Flag(help: "Apple's trustd rules item by item, with the Apple function and what SwiftTrust does.")
    var apple = false

    func run() throws {
        if apple {
            if markdown { return print(AppleRulesTable.markdown, terminator: "") }
            for row in AppleRulesTable.rows {
                print(row.topic)
                print("    Apple: \(row.apple)")
                print("    SwiftTrust: \(row.swiftTrust)")
            }
            return
        }
        if markdown {
            print(ProfileRulesTable.markdown, terminator: "")
            return
        }
        let rules = profile.map { Array($0.rules) } ?? ProfileRule.allCases
        for rule in rules {
            let profiles = ProfileRulesTable.profiles.filter { rule.profiles.contains($0) }.map(\.description)
            print("\(rule.rawValue)  [\(profiles.joined(separator: ", "))]")
            print("    \(rule.summary)")
            print("    source: \(rule.source)")
        }
    }
}
