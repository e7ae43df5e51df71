import Foundation
import TrustCore
import TrustDocuments
import TrustDER

/// A pinning configuration file that cannot be loaded, naming the file, where in it (a line, a key
/// path, or both) and the rule broken. Loading is all or nothing: no configuration is returned
/// when any part is wrong.
public struct PinningConfigurationLoadError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// The file, as given to the loader (`<input>` for bytes without a name).
    public let file: String
    /// The 1-based line, when the format reports lines.
    public let line: Int?
    /// The key path to the offending value (`NSAppTransportSecurity.NSPinnedDomains.example.com`,
    /// `domains[2].pins[0]`, `domain-config[1]/pin-set/pin[0]`), when known.
    public let keyPath: String?
    /// The rule broken.
    public let rule: PinningConfigurationRule

    /// Creates an error.
    public init(file: String, line: Int? = nil, keyPath: String? = nil, rule: PinningConfigurationRule) {
        self.file = file
        self.line = line
        self.keyPath = keyPath
        self.rule = rule
    }

    /// `file:line: at keyPath: rule`.
    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let keyPath, !keyPath.isEmpty { location += ": at \(keyPath)" }
        return "\(location): \(rule)"
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}

/// The rules a pinning configuration file must follow; each case says what to fix.
public enum PinningConfigurationRule: Hashable, Sendable, CustomStringConvertible {
    /// The file is not well-formed in its syntax (JSON, XML or property list); the parser's words.
    case malformedDocument(String)
    /// The file is not in the format expected, or its format could not be recognised.
    case unrecognisedFormat(String)
    /// A JSON file is not UTF-8 (UTF-16, UTF-32, or bytes that are no UTF-8): refused before it
    /// is decoded, as RFC 8259 §8.1 requires UTF-8 of JSON exchanged between systems.
    case notUTF8(JSONEncodingProblem)
    /// The format version is not one this library reads.
    case unsupportedVersion(String, supported: [String])
    /// A required key, element or attribute is missing.
    case missingKey(String)
    /// A key, element or attribute the format does not define (usually a typo): refused rather
    /// than ignored, so a misspelt setting is not silently dropped.
    case unexpectedKey(String)
    /// A value has the wrong type.
    case wrongType(expected: String, found: String)
    /// A value is not one the key allows.
    case invalidValue(String, reason: String)
    /// A pin, host pattern or domain is not valid.
    case invalidPin(PinningConfigurationError)
    /// The same domain is configured twice.
    case duplicateDomain(String)
    /// A domain has none of the pin keys its format requires (ATS: `NSPinnedLeafIdentities` or
    /// `NSPinnedCAIdentities`).
    case noPins(domain: String)
    /// Fewer distinct pins than the format requires (TrustKit requires two, one a backup key).
    case tooFewPins(domain: String, count: Int, minimum: Int)
    /// A date is not a `yyyy-MM-dd` calendar day.
    case invalidDate(String)
    /// A report URI is not an absolute `http` or `https` URL.
    case invalidReportURI(String)
    /// A file the configuration refers to (a trust anchor) could not be read or parsed.
    case unreadableReference(String, reason: String)

    /// What is wrong and how to fix it.
    public var description: String {
        switch self {
        case let .malformedDocument(message): return "malformed document: \(message)"
        case let .unrecognisedFormat(message): return "unrecognised format: \(message)"
        case let .notUTF8(problem):
            let convert = problem.iconvName.map { "; convert it to UTF-8 (iconv -f \($0) -t UTF-8)" } ?? ""
            return "not UTF-8: the file holds \(problem), and JSON configurations must be UTF-8 (RFC 8259 §8.1)\(convert)"
        case let .unsupportedVersion(version, supported):
            return "unsupported version \(version) (this library reads \(supported.joined(separator: ", ")))"
        case let .missingKey(key): return "missing required \(key)"
        case let .unexpectedKey(key): return "unexpected \(key) (not defined by the format; check the spelling)"
        case let .wrongType(expected, found): return "expected \(expected), found \(found)"
        case let .invalidValue(value, reason): return "invalid value \"\(QuotedValue.capped(value))\": \(reason)"
        case let .invalidPin(error): return error.description
        case let .duplicateDomain(domain): return "domain \(domain) is configured more than once"
        case let .noPins(domain): return "domain \(domain) pins nothing: give NSPinnedLeafIdentities, NSPinnedCAIdentities or both"
        case let .tooFewPins(domain, count, minimum):
            let why = minimum > 1 ? " (one a backup key not yet in use)" : ""
            return "domain \(domain) has \(count) distinct pin\(count == 1 ? "" : "s"), the format requires at least \(minimum)\(why)"
        case let .invalidDate(text): return "invalid date \"\(QuotedValue.capped(text))\": expected yyyy-MM-dd"
        case let .invalidReportURI(text):
            return
                "invalid report URI \"\(QuotedValue.capped(ReportURI.redactingPassword(text)))\": expected an absolute http or https URL with a host and no user or password"
        case let .unreadableReference(reference, reason): return "cannot use \(reference): \(reason)"
        }
    }
}

/// A configuration that cannot be written in another format without changing what it means
/// (`trustctl pins convert`): refused rather than translated into something weaker.
public struct PinningConfigurationExportError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// The target format.
    public let format: PinningConfigurationFormat
    /// The domain whose policy cannot be expressed, if the problem is one domain's.
    public let domain: String?
    /// What the format cannot express.
    public let reason: String

    /// Creates an error.
    public init(format: PinningConfigurationFormat, domain: String?, reason: String) {
        self.format = format
        self.domain = domain
        self.reason = reason
    }

    /// `cannot write … as FORMAT: reason`.
    public var description: String {
        let subject = domain.map { "domain \($0)" } ?? "the configuration"
        return "cannot write \(subject) as \(format.displayName): \(reason)"
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
