// PublicSuffixList.swift
// The Public Suffix List (publicsuffix.org): which domains are registry-controlled, so that a
// wildcard certificate cannot span one (`*.co.uk`).

import Foundation

/// A parsed Public Suffix List (<https://publicsuffix.org/list/>): the domains under which anyone
/// can register names (`com`, `co.uk`, `kobe.jp`'s wildcard children, …).
///
/// `HostnameMatcher` uses it for the wildcard rule: a `dNSName` `*.REST` never matches when
/// `REST` is a public suffix, so `*.com` and `*.co.uk` match nothing (CA/Browser Forum Baseline
/// Requirements §3.2.2.6; Chromium does the same).
///
/// The algorithm is the list's own (publicsuffix.org "Formal algorithm"): every rule that matches
/// the domain's right-most labels is found (`*` matches any one label); an exception rule
/// (`!www.ck`) prevails and its left-most label is not part of the suffix; otherwise the rule with
/// the most labels prevails; when none matches, the implicit rule `*` makes the top-level label
/// the suffix. Rules and domains are compared in lower-case A-label form, so a rule written as
/// `公司.cn` matches `xn--55qx5d.cn`.
///
/// ``snapshot`` is a copy of the list shipped with SwiftTrust (see
/// ``snapshotVersion``); ``init(contentsOf:consultedSections:)`` loads another copy, such as
/// Debian's `/usr/share/publicsuffix/public_suffix_list.dat`. Which of the list's sections are
/// consulted is ``consultedSections``: by default only the ICANN section, as the Baseline
/// Requirements (§3.2.2.6) and Chromium prescribe, so a wildcard under a private registry such as
/// `*.s3.amazonaws.com` or `*.appspot.com` (whose owners do hold such certificates) still matches.
public struct PublicSuffixList: Hashable, Sendable {
    /// Equal when both consult the same sections of the same rules: the shipped snapshot, or the
    /// same loaded copy (rules are compared by identity, not by content).
    public static func == (lhs: PublicSuffixList, rhs: PublicSuffixList) -> Bool {
        lhs.consultedSections == rhs.consultedSections && lhs.sourceIdentity == rhs.sourceIdentity
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(consultedSections)
        hasher.combine(sourceIdentity)
    }

    /// The loaded rules' identity; nil for the shipped snapshot.
    private var sourceIdentity: ObjectIdentifier? {
        if case let .parsed(trie) = source { return ObjectIdentifier(trie) }
        return nil
    }

    /// The sections of the list (`===BEGIN ICANN DOMAINS===`, `===BEGIN PRIVATE DOMAINS===`).
    public struct Sections: OptionSet, Hashable, Sendable {
        /// The raw bits.
        public let rawValue: UInt8
        /// Creates a set from raw bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Suffixes operated by ICANN-delegated registries (`com`, `co.uk`).
        public static let icann = Sections(rawValue: 1 << 0)
        /// Suffixes that private companies submitted for their own namespaces (`s3.amazonaws.com`).
        public static let privateDomains = Sections(rawValue: 1 << 1)
        /// Both sections.
        public static let all: Sections = [.icann, .privateDomains]
    }

    /// The list shipped with SwiftTrust (``snapshotVersion``), consulting the ICANN section only.
    ///
    /// Should the shipped text ever fail to parse, this list treats every domain as a public
    /// suffix, so that no wildcard matches (fail closed); a unit test guards against that.
    ///
    /// The shipped text is parsed on the first lookup, not when the list is first named: a
    /// `ServerTrust` holds the list from its creation, but only a wildcard name consults it, and
    /// parsing the list would be most of a process's first evaluation of a chain without wildcards.
    public static let snapshot = PublicSuffixList(source: .shippedSnapshot, consultedSections: .icann)

    /// Where ``snapshot`` comes from: the upstream version of the copy it was made from.
    public static var snapshotVersion: String { PublicSuffixListSnapshot.version }

    /// The sections whose rules are consulted. Rules outside any section marker (in a list that
    /// has none) are always consulted.
    public var consultedSections: Sections

    /// The number of rules read (every section).
    public var ruleCount: Int { rules.ruleCount }

    /// Where the rules come from: a parsed text, or the shipped snapshot, parsed on first use.
    private enum RuleSource: Sendable {
        case parsed(RuleTrie)
        case shippedSnapshot
    }

    private let source: RuleSource

    private var rules: RuleTrie {
        switch source {
        case let .parsed(rules): return rules
        case .shippedSnapshot: return RuleTrie.shippedSnapshot
        }
    }

    private init(source: RuleSource, consultedSections: Sections) {
        self.source = source
        self.consultedSections = consultedSections
    }

    /// Parses a list in the publicsuffix.org format: one rule per line (only the text before the
    /// first white space counts), `//` comment lines, blank lines, and the section markers.
    ///
    /// - Parameters:
    ///   - text: The list's text.
    ///   - consultedSections: Which sections the list consults (default: ICANN only).
    /// - Throws: ``PublicSuffixListError/invalidRule(line:rule:)`` for a rule that is not a domain
    ///   (after IDNA conversion), an exception rule of one label or with a wildcard, or
    ///   ``PublicSuffixListError/noRules`` when the text holds no rule at all.
    public init(parsing text: String, consultedSections: Sections = .icann) throws(PublicSuffixListError) {
        self.init(source: .parsed(try RuleTrie(parsing: text)), consultedSections: consultedSections)
    }

    /// Reads and parses a list file (see ``init(parsing:consultedSections:)``).
    ///
    /// - Parameters:
    ///   - path: For example `/usr/share/publicsuffix/public_suffix_list.dat` (Debian's
    ///     `publicsuffix` package).
    ///   - consultedSections: Which sections the list consults (default: ICANN only).
    /// - Throws: ``PublicSuffixListError/unreadable(path:)`` or
    ///   ``PublicSuffixListError/tooLarge(path:bytes:)`` when the file cannot be used, else the
    ///   parse errors of ``init(parsing:consultedSections:)``.
    public init(contentsOf path: String, consultedSections: Sections = .icann) throws(PublicSuffixListError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path) }
        guard data.count <= PublicSuffixList.maximumFileSize else { throw .tooLarge(path: path, bytes: data.count) }
        try self.init(parsing: String(decoding: data, as: UTF8.self), consultedSections: consultedSections)
    }

    /// The largest list file read (the real list is about 250 KB).
    public static let maximumFileSize = 16 << 20

    /// The public suffix of `domain` in lower-case A-label form (`"co.uk"` for
    /// `"www.Example.co.uk"`), or nil when `domain` is not a valid host name (see
    /// `IDNA.toASCII(_:)`, not ending in a numeric label; a leading dot or an IP address is not one).
    public func publicSuffix(of domain: String) -> String? {
        guard let labels = PublicSuffixList.labels(of: domain) else { return nil }
        return labels.suffix(suffixLabelCount(labels)).joined(separator: ".")
    }

    /// The registrable domain of `domain`: its public suffix and one more label (`"example.co.uk"`
    /// for `"www.example.co.uk"`), or nil when `domain` is itself a public suffix or not a valid
    /// host name.
    public func registrableDomain(of domain: String) -> String? {
        guard let labels = PublicSuffixList.labels(of: domain) else { return nil }
        let count = suffixLabelCount(labels)
        guard count < labels.count else { return nil }
        return labels.suffix(count + 1).joined(separator: ".")
    }

    /// Whether `domain` is a public suffix (false for a name that is not a valid host name).
    public func isPublicSuffix(_ domain: String) -> Bool {
        guard let labels = PublicSuffixList.labels(of: domain) else { return false }
        return suffixLabelCount(labels) >= labels.count
    }

    /// Whether the lower-case A-labels `labels` (left to right) form a public suffix.
    package func isPublicSuffix(labels: [ArraySlice<UInt8>]) -> Bool {
        suffixLabelCount(labels.map { String(decoding: $0, as: UTF8.self) }) >= labels.count
    }

    /// How many right-most labels of `labels` (lower-case A-labels) form the public suffix.
    private func suffixLabelCount(_ labels: [String]) -> Int {
        rules.suffixLabelCount(labels, sections: consultedSections.rawValue | RuleTrie.unsectioned)
    }

    /// The lower-case A-labels of a host name, or nil when it is not one (an IP address is not).
    private static func labels(of domain: String) -> [String]? {
        guard let ascii = IDNA.toASCII(domain), !IDNA.endsInNumericLabel(ascii) else { return nil }
        return ascii.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }
}

/// The rules of a list as a tree of labels read right to left (`uk` → `co`), each node saying
/// which sections end a normal or an exception rule there. Shared by every copy of a list.
///
/// Built on a process's first wildcard check, so building is kept cheap: the text is read as
/// bytes, ASCII labels skip IDNA's general path, and the tree's edges are one dictionary keyed by
/// (parent, label) rather than a dictionary per node.
private final class RuleTrie: Sendable {
    /// The section bit of rules outside any section marker; always consulted.
    package static let unsectioned: UInt8 = 1 << 7

    private struct Node: Sendable {
        /// The child under the `*` label, or -1.
        var wildcardChild = -1
        /// Sections in which a normal rule ends here.
        var normal: UInt8 = 0
        /// Sections in which an exception rule (`!`) ends here.
        var exception: UInt8 = 0
    }

    /// An edge of the tree: the child of `parent` under `label`.
    private struct Edge: Hashable, Sendable {
        let parent: Int
        let label: String
    }

    private let nodes: [Node]
    private let edges: [Edge: Int]
    package let ruleCount: Int
    /// Set only for the fail-closed fallback of ``PublicSuffixList/snapshot``.
    private let everyDomainPublic: Bool

    /// A list under which every domain is a public suffix.
    package static let everyDomainIsPublic = RuleTrie(nodes: [Node()], edges: [:], ruleCount: 0, everyDomainPublic: true)

    /// The shipped snapshot's rules, parsed once, on first use (a global's thread-safe lazy
    /// initialisation). Should the shipped text ever fail to parse, every domain is a public suffix,
    /// so that no wildcard matches (fail closed); a unit test guards against that.
    package static let shippedSnapshot: RuleTrie = (try? RuleTrie(parsing: PublicSuffixListSnapshot.text)) ?? everyDomainIsPublic

    private init(nodes: [Node], edges: [Edge: Int], ruleCount: Int, everyDomainPublic: Bool) {
        self.nodes = nodes
        self.edges = edges
        self.ruleCount = ruleCount
        self.everyDomainPublic = everyDomainPublic
    }

    /// The tree under construction.
    private struct Builder {
        var nodes = [Node()]
        var edges: [Edge: Int] = [:]
        var ruleCount = 0

        init(expectedRules: Int) {
            nodes.reserveCapacity(expectedRules + 1)
            edges.reserveCapacity(expectedRules)
        }

        /// Adds a rule (labels left to right) in `section`.
        mutating func add(_ labels: [String], isException: Bool, section: UInt8) {
            var index = 0
            for label in labels.reversed() {
                index = child(of: index, label)
            }
            if isException {
                nodes[index].exception |= section
            } else {
                nodes[index].normal |= section
            }
            ruleCount += 1
        }

        /// The child of `parent` under `label`, made when missing.
        private mutating func child(of parent: Int, _ label: String) -> Int {
            let made = nodes.count
            if label == "*" {
                let existing = nodes[parent].wildcardChild
                if existing >= 0 { return existing }
                nodes[parent].wildcardChild = made
            } else {
                let edge = Edge(parent: parent, label: label)
                if let existing = edges[edge] { return existing }
                edges[edge] = made
            }
            nodes.append(Node())
            return made
        }
    }

    convenience init(parsing text: String) throws(PublicSuffixListError) {
        var text = text
        // The text's UTF-8 bytes in one buffer: lines, fields and labels are cut by index.
        let built = text.withUTF8 { buffer in
            Result { () throws(PublicSuffixListError) in try RuleTrie.build(buffer) }
        }
        let builder = try built.get()
        guard builder.ruleCount > 0 else { throw .noRules }
        self.init(nodes: builder.nodes, edges: builder.edges, ruleCount: builder.ruleCount, everyDomainPublic: false)
    }

    /// Reads every line of `text` (UTF-8) into a tree.
    private static func build(_ text: UnsafeBufferPointer<UInt8>) throws(PublicSuffixListError) -> Builder {
        let newline = UInt8(ascii: "\n")
        // Room for about as many nodes as a list of this size has, capped (a large file of comments
        // reserves little; a large list grows the tables as it goes).
        var builder = Builder(expectedRules: min(text.count / 16, 1 << 15))
        var section = RuleTrie.unsectioned
        var lineNumber = 0
        var lineStart = 0
        while lineStart <= text.count {
            let lineEnd = text[lineStart...].firstIndex(of: newline) ?? text.count
            defer { lineStart = lineEnd + 1 }
            lineNumber += 1
            let line = UnsafeBufferPointer(rebasing: text[lineStart..<lineEnd])
            // Only the text up to the first white space is read (the list's format rules); a line
            // with non-ASCII text is cut at Unicode white space.
            let fieldLength: Int
            if line.allSatisfy({ $0 < 0x80 }) {
                fieldLength = line.firstIndex(where: RuleTrie.isASCIIWhitespace) ?? line.count
            } else {
                fieldLength = String(decoding: line, as: UTF8.self).prefix { !$0.isWhitespace }.utf8.count
            }
            if fieldLength == 0 { continue }
            let field = UnsafeBufferPointer(rebasing: line[..<fieldLength])
            if fieldLength >= 2, field[0] == UInt8(ascii: "/"), field[1] == UInt8(ascii: "/") {
                section = RuleTrie.section(afterMarker: String(decoding: line, as: UTF8.self)) ?? section
                continue
            }
            guard let rule = RuleTrie.normalisedRule(field) else {
                throw .invalidRule(line: lineNumber, rule: String(decoding: field, as: UTF8.self))
            }
            builder.add(rule.labels, isException: rule.isException, section: section)
        }
        return builder
    }

    /// White space as the list's format means it, for an ASCII line.
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte)
    }

    /// The section a marker comment opens (`===BEGIN ICANN DOMAINS===`) or closes; nil for other comments.
    private static func section(afterMarker line: String) -> UInt8? {
        if line.contains("===BEGIN ICANN DOMAINS===") { return PublicSuffixList.Sections.icann.rawValue }
        if line.contains("===BEGIN PRIVATE DOMAINS===") { return PublicSuffixList.Sections.privateDomains.rawValue }
        if line.contains("===END ICANN DOMAINS===") || line.contains("===END PRIVATE DOMAINS===") { return unsectioned }
        return nil
    }

    /// A rule's labels in lower-case A-label form (`*` kept) and whether it is an exception; nil
    /// when it is not a valid rule. `field` is the rule's UTF-8 text.
    private static func normalisedRule(_ field: UnsafeBufferPointer<UInt8>) -> (labels: [String], isException: Bool)? {
        let isException = field.first == UInt8(ascii: "!")
        var start = isException ? 1 : 0
        var labels: [String] = []
        labels.reserveCapacity(4)
        while true {
            let end = field[start...].firstIndex(of: UInt8(ascii: ".")) ?? field.count
            let label = UnsafeBufferPointer(rebasing: field[start..<end])
            if label.count == 1, label[0] == UInt8(ascii: "*") {
                labels.append("*")
            } else {
                // One label at a time, so a `*` elsewhere in the rule does not upset IDNA. (A full
                // stop variant such as U+3002 maps to "." and would make this label two.)
                guard var ascii = IDNA.toASCII(utf8: label),
                    ascii.withUTF8({ !$0.contains(UInt8(ascii: ".")) })
                else { return nil }
                labels.append(ascii)
            }
            guard end < field.count else { break }
            start = end + 1
        }
        // An exception removes its left-most label from the suffix: it needs two, none of them `*`.
        if isException && (labels.count < 2 || labels.contains("*")) { return nil }
        return labels.isEmpty ? nil : (labels, isException)
    }

    /// How many right-most labels of `labels` form the public suffix, consulting rules of `sections`.
    package func suffixLabelCount(_ labels: [String], sections: UInt8) -> Int {
        if everyDomainPublic { return labels.count }
        // All rules matching so far, as the set of tree nodes reached (a `*` child matches any label).
        var reached = [0]
        var longestRule = 0
        var longestException = 0
        var depth = 0
        for label in labels.reversed() {
            depth += 1
            var next: [Int] = []
            for index in reached {
                if let child = edges[Edge(parent: index, label: label)] { next.append(child) }
                let wildcard = nodes[index].wildcardChild
                if wildcard >= 0 { next.append(wildcard) }
            }
            guard !next.isEmpty else { break }
            for index in next {
                if nodes[index].normal & sections != 0 { longestRule = depth }
                if nodes[index].exception & sections != 0 { longestException = depth }
            }
            reached = next
        }
        // An exception prevails, without its left-most label; otherwise the longest rule, and
        // with no rule at all the implicit `*` (the top-level label alone).
        if longestException > 0 { return longestException - 1 }
        return max(longestRule, 1)
    }
}
