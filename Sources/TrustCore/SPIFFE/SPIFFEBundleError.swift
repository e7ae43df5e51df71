import TrustDocuments
import Foundation

/// A SPIFFE trust bundle file that cannot be loaded, naming the file, where in it (a key path such
/// as `keys[1].x5c[0]`, and a line when known) and the rule broken. Loading is all or nothing.
public struct SPIFFEBundleError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// The file, as given to the loader (`<input>` for bytes without a name).
    public let file: String
    /// The 1-based line, when known.
    public let line: Int?
    /// The key path to the offending value, when known.
    public let keyPath: String?
    /// The rule broken.
    public let rule: SPIFFEBundleRule

    /// Creates an error.
    public init(file: String, line: Int? = nil, keyPath: String? = nil, rule: SPIFFEBundleRule) {
        self.file = file
        self.line = line
        self.keyPath = keyPath
        self.rule = rule
    }

    /// `file:line: at keyPath: rule`.
    public var description: String {
        var location = TerminalText.escaped(file)
        if let line { location += ":\(line)" }
        if let keyPath, !keyPath.isEmpty { location += ": at \(TerminalText.escaped(keyPath))" }
        return "\(location): \(rule)"
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}

/// The rules a SPIFFE trust bundle file must follow (the SPIFFE bundle format, spiffe/spiffe
/// `SPIFFE_Trust_Domain_and_Bundle.md` §4 and `X509-SVID.md` §6, read within the
/// reader's caps; or PEM); each case says what to fix.
public enum SPIFFEBundleRule: Hashable, Sendable, CustomStringConvertible {
    /// The file does not exist or cannot be read.
    case unreadable
    /// The file is larger than the reader allows (``SPIFFETrustBundle/maximumJSONSize``,
    /// ``SPIFFETrustBundle/maximumPEMSize``): its size (or the bytes read) and the limit.
    case tooLarge(bytes: Int, limit: Int)
    /// The JSON is not UTF-8 (RFC 8259 §8.1).
    case notUTF8(JSONEncodingProblem)
    /// The text is not JSON: the parser's words.
    case malformedJSON(String)
    /// More keys and values than ``SPIFFETrustBundle/maximumJSONValueCount``.
    case tooManyValues(limit: Int)
    /// Values nested deeper than ``SPIFFETrustBundle/maximumJSONDepth``.
    case tooDeep(limit: Int)
    /// A key written twice in one object (RFC 8259 §4 leaves its meaning open; readers disagree).
    case duplicateKey(String)
    /// The document has no `keys` (§4.1.3: it MUST be present).
    case missingKeys
    /// A value has the wrong type: what was expected and what was found.
    case wrongType(expected: String, found: String)
    /// A value of the right type that the key does not allow (an integer out of range).
    case invalidValue(String)
    /// An `x5c` value that is not strict base64 (RFC 7517 §4.7).
    case invalidBase64
    /// An `x5c` value or PEM block that is not a certificate: the parser's reason.
    case invalidCertificate(String)
    /// A PEM file that holds no certificate, or is not PEM: the reader's reason.
    case noCertificates(String)
    /// A bundle's trust domain was not given and cannot be told: a PEM bundle, or JSON whose
    /// authorities do not all name one trust domain (a signing certificate's SPIFFE ID
    /// `spiffe://trust-domain`, X509-SVID §3.2). The reason, as a clause.
    case trustDomainUnknown(String)

    /// What is wrong and how to fix it.
    public var description: String {
        switch self {
        case .unreadable: return "cannot be read"
        case let .tooLarge(bytes, limit): return "\(bytes) bytes or more; a SPIFFE bundle is at most \(limit) bytes"
        case let .notUTF8(problem): return "not UTF-8 (\(problem)); JSON is UTF-8 (RFC 8259 §8.1)"
        case let .malformedJSON(words): return "malformed JSON: \(TerminalText.escaped(words))"
        case let .tooManyValues(limit): return "more than \(limit) keys and values"
        case let .tooDeep(limit): return "values nested more than \(limit) deep"
        case let .duplicateKey(key):
            return "the key \"\(TerminalText.escaped(key))\" appears twice in the same object, and readers disagree on which counts"
        case .missingKeys: return "no \"keys\": a SPIFFE bundle is a JWK Set whose \"keys\" MUST be present (SPIFFE bundle §4.1.3)"
        case let .wrongType(expected, found): return "expected \(expected), found \(TerminalText.escaped(found))"
        case let .invalidValue(words): return "invalid value: \(TerminalText.escaped(words))"
        case .invalidBase64: return "x5c value is not base64 (RFC 7517 §4.7)"
        case let .invalidCertificate(reason): return "not a certificate: \(TerminalText.escaped(reason))"
        case let .noCertificates(reason): return "no certificate: \(TerminalText.escaped(reason))"
        case let .trustDomainUnknown(reason):
            return "the bundle's trust domain is not given, and \(TerminalText.escaped(reason))"
        }
    }
}
