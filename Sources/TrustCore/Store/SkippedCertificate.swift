import TrustDER
import TrustX509

/// A PEM block or file of a trust store that could not be read as a certificate and was left out.
public struct SkippedCertificate: Hashable, Sendable, CustomStringConvertible {
    /// Why it was left out.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The PEM block is malformed (the error names its line).
        case invalidPEM(PEMError)
        /// The block (or DER file) decodes but is not a certificate we can parse.
        case invalidCertificate(X509Error)
        /// A file of a certificate directory cannot be read.
        case unreadableFile
        /// A file of a certificate directory is larger than `limit` bytes; it is not read.
        case tooLarge(limit: Int)

        /// A short phrase.
        public var description: String {
            switch self {
            case let .invalidPEM(error): return error.description
            case let .invalidCertificate(error): return "not a valid certificate: \(error)"
            case .unreadableFile: return "cannot be read"
            case let .tooLarge(limit): return "is larger than \(limit) bytes"
            }
        }
    }

    /// The file it is in.
    public let path: String
    /// The 1-based line of the block's BEGIN marker, when it is a PEM block that decoded.
    public let line: Int?
    /// Why it was left out.
    public let reason: Reason

    /// Creates a record of a left-out block or file.
    public init(path: String, line: Int?, reason: Reason) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    /// `path, line N: reason`.
    public var description: String {
        path + (line.map { ", line \($0)" } ?? "") + ": \(reason)"
    }
}
