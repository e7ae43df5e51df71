import Foundation

/// Why a ``PublicSuffixList`` could not be read or parsed.
public enum PublicSuffixListError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// The file does not exist or cannot be read.
    case unreadable(path: String)
    /// The file is larger than ``PublicSuffixList/maximumFileSize``.
    case tooLarge(path: String, bytes: Int)
    /// A line holds something that is not a rule: not a domain after IDNA conversion, an empty
    /// label, or an exception rule (`!`) of one label or with a wildcard.
    case invalidRule(line: Int, rule: String)
    /// The text holds no rule at all (most likely not a Public Suffix List).
    case noRules

    /// A sentence naming the file or line.
    public var description: String {
        switch self {
        case let .unreadable(path): return "\(path): cannot be read"
        case let .tooLarge(path, bytes):
            return "\(path): \(bytes) bytes, more than the \(PublicSuffixList.maximumFileSize) a public suffix list may have"
        case let .invalidRule(line, rule): return "line \(line): \"\(rule)\" is not a public suffix rule"
        case .noRules: return "no public suffix rule found"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    /// What to load instead.
    public var recoverySuggestion: String? {
        "load the list as published at https://publicsuffix.org/list/public_suffix_list.dat, or use PublicSuffixList.snapshot"
    }
}
