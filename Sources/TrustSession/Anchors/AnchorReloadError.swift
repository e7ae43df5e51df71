import TrustX509

/// Why ``ReloadingTrustAnchors`` could not load its anchors: the file (or directory) and the rule
/// it broke. The first load throws it; a later reload that fails reports it in
/// ``AnchorReloadEvent/failed(_:keptCount:)`` and keeps the last good set.
public enum AnchorReloadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why a path could not be read.
    public enum Problem: Hashable, Sendable, CustomStringConvertible {
        /// Nothing exists at the path (or a symlink on the way dangles).
        case doesNotExist
        /// It exists but cannot be opened or read (`errno` as the system reported it).
        case notReadable(errno: Int32)
        /// It is neither a regular file nor a directory (a socket, a device, a FIFO).
        case notARegularFile

        /// A short phrase.
        public var description: String {
            switch self {
            case .doesNotExist: return "does not exist"
            case let .notReadable(errno): return "cannot be read (errno \(errno))"
            case .notARegularFile: return "is not a regular file or a directory"
            }
        }
    }

    /// No path was given.
    case noPaths
    /// `path` cannot be read (or, for a directory, listed).
    case unreadable(path: String, problem: Problem)
    /// `path` holds no certificate: an empty file, PEM text without a CERTIFICATE block, or a
    /// directory without a certificate file.
    case noCertificates(path: String)
    /// `path` holds something that is not a readable certificate: a PEM block that does not decode,
    /// or bytes that are neither PEM nor one DER certificate (`error` names the block).
    case invalidCertificate(path: String, error: CertificateLoadingError)
    /// `path` is larger than ``ReloadingTrustAnchors/maximumFileSize`` (`limit`) bytes.
    case fileTooLarge(path: String, size: Int, limit: Int)
    /// The directory `path` holds more than ``ReloadingTrustAnchors/maximumDirectoryEntries`` entries.
    case tooManyFiles(path: String, limit: Int)
    /// The files hold more than ``ReloadingTrustAnchors/maximumCertificates`` certificates together
    /// (`path` is the file that went over).
    case tooManyCertificates(path: String, limit: Int)

    /// The file or directory the error is about; nil for ``noPaths``.
    public var path: String? {
        switch self {
        case .noPaths: return nil
        case let .unreadable(path, _), let .noCertificates(path), let .invalidCertificate(path, _),
            let .fileTooLarge(path, _, _), let .tooManyFiles(path, _), let .tooManyCertificates(path, _):
            return path
        }
    }

    /// One sentence naming the path and the rule.
    public var description: String {
        switch self {
        case .noPaths: return "no trust anchor file or directory was given"
        case let .unreadable(path, problem): return "trust anchor path \(path) \(problem)"
        case let .noCertificates(path): return "trust anchor path \(path) holds no certificate"
        case let .invalidCertificate(path, error): return "trust anchor file \(path) is not readable as certificates: \(error)"
        case let .fileTooLarge(path, size, limit):
            return "trust anchor file \(path) is \(size) bytes, more than the \(limit) allowed"
        case let .tooManyFiles(path, limit): return "trust anchor directory \(path) holds more than \(limit) entries"
        case let .tooManyCertificates(path, limit):
            return "trust anchor files hold more than \(limit) certificates (at \(path))"
        }
    }
}
