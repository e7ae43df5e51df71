import Foundation

/// Why the anchors an operator configured with `SSL_CERT_FILE` / `SSL_CERT_DIR` cannot be used.
///
/// An explicit configuration restricts what is trusted; silently trusting the distribution bundle
/// instead would undo that restriction, so every problem with it is an error (fail closed).
public enum SystemTrustStoreError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// What is wrong with a configured path.
    public enum Problem: Hashable, Sendable, CustomStringConvertible {
        /// Nothing exists at the path.
        case doesNotExist
        /// `SSL_CERT_FILE` names a directory.
        case isADirectory
        /// `SSL_CERT_DIR` names something that is not a directory.
        case isNotADirectory
        /// It exists but cannot be read (permissions, I/O error).
        case notReadable
        /// The file is larger than `limit` bytes (``SystemTrustStore``'s cap per file); it is not read.
        case tooLarge(limit: Int)

        /// A short phrase.
        public var description: String {
            switch self {
            case .doesNotExist: return "does not exist"
            case .isADirectory: return "is a directory, not a file"
            case .isNotADirectory: return "is not a directory"
            case .notReadable: return "cannot be read"
            case let .tooLarge(limit): return "is larger than \(limit) bytes"
            }
        }
    }

    /// A path named by `variable` cannot be read.
    case unreadable(variable: String, path: String, problem: Problem)
    /// The configured file and directories hold no readable certificate; `skipped` says what was
    /// found instead.
    case noCertificates(configuration: String, skipped: [SkippedCertificate])

    /// Names the variable and the path, and what to do.
    public var description: String {
        switch self {
        case let .unreadable(variable, path, problem):
            return "\(variable)=\(path) \(problem): fix or unset \(variable) (the distribution's CA bundle is not used instead)"
        case let .noCertificates(configuration, skipped):
            let found = skipped.first.map { ": \(skipped.count) unreadable, first \($0)" } ?? ": no certificate files"
            return "\(configuration) holds no readable certificate\(found)"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    /// What to change (``description`` already says it for an unreadable path).
    public var recoverySuggestion: String? {
        switch self {
        case .unreadable: return nil
        case .noCertificates:
            return "put PEM or DER certificates there, or unset SSL_CERT_FILE and SSL_CERT_DIR (the distribution's CA bundle is not used instead)"
        }
    }
}
