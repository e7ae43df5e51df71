import Foundation
import TrustX509

extension CertificateBundle {
    /// Why a file contributed no certificate.
    public enum SkipReason: Hashable, Sendable, CustomStringConvertible {
        /// The name does not end in one of the convention's extensions (``Convention/fileExtensions``).
        case unsupportedExtension(Convention)
        /// It is a directory (directories are not scanned recursively).
        case directory
        /// It is neither a regular file nor a link to one (a device, a socket, a FIFO).
        case notARegularFile
        /// It could not be read.
        case unreadable
        /// It holds PEM text, and the convention reads DER only (``Convention/readsPEM``): as
        /// AFNetworking and Alamofire, which would not pin it either.
        case pemNotRead(Convention)
        /// It is not a certificate the convention reads (DER that does not parse, a key, random bytes).
        case malformed(CertificateLoadingError)
        /// It is larger than ``Limits/maximumFileSize``.
        case tooLarge(limit: Int)
        /// ``Limits/maximumFileCount`` files were read before it.
        case fileCountLimitReached(limit: Int)
        /// Reading it would go beyond ``Limits/maximumTotalSize``.
        case totalSizeLimitReached(limit: Int)

        /// A short phrase.
        public var description: String {
            switch self {
            case let .unsupportedExtension(convention):
                return "not a file the \(convention) convention loads" + (convention.readsPEM ? "" : "; PEM files load with includingPEM")
            case .directory: return "directory (not scanned)"
            case .notARegularFile: return "not a regular file"
            case .unreadable: return "unreadable"
            case let .pemNotRead(convention):
                return
                    "PEM text, and the \(convention) convention reads DER only (as its upstream: Apple's SecCertificateCreateWithData reads DER); convert it (openssl x509 -outform der) or load with includingPEM"
            case let .malformed(error): return "malformed: \(error)"
            case let .tooLarge(limit): return "larger than \(limit) bytes"
            case let .fileCountLimitReached(limit): return "not read: \(limit) files were already read"
            case let .totalSizeLimitReached(limit): return "not read: it would take the bytes read beyond \(limit)"
            }
        }
    }

    /// A file that contributed no certificate.
    public struct SkippedFile: Hashable, Sendable, CustomStringConvertible {
        /// The file's path.
        public let path: String
        /// Why it was skipped.
        public let reason: SkipReason

        /// `path: reason`.
        public var description: String { "\(path): \(reason)" }
    }

    /// A directory that cannot be listed.
    public struct DirectoryError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
        /// The directory's path.
        public let path: String

        /// `cannot list directory PATH`.
        public var description: String { "cannot list directory \(path)" }

        /// Same as ``description``.
        public var errorDescription: String? { description }

        /// What to check.
        public var recoverySuggestion: String? { "check that \(path) exists, is a directory and is readable" }
    }
}
