import Foundation
import TrustX509

/// Certificates loaded from a directory the way AFNetworking's and Alamofire's bundle scans find
/// pinned certificates (files ending `.cer .CER .crt .CRT .der .DER`, plus `.pem`), each file PEM
/// (any number of certificates) or DER. Nothing is dropped silently: every file that contributes
/// no certificate is listed in ``skipped`` with the reason.
///
/// ```swift
/// let bundle = try CertificateBundle(directory: "Resources/pins")
/// bundle.skipped.forEach { print("skipped", $0) }
/// let evaluator = PinnedCertificatesTrustEvaluator(certificates: bundle.certificates)
/// let keys = PublicKeysTrustEvaluator(keys: bundle.publicKeys)
/// ```
public struct CertificateBundle: Sendable {
    /// The file name extensions scanned for (case-sensitive, as in the seeds).
    public static let fileExtensions = ["cer", "CER", "crt", "CRT", "der", "DER", "pem"]

    /// Why a file contributed no certificate.
    public enum SkipReason: Hashable, Sendable, CustomStringConvertible {
        /// The name does not end in one of ``CertificateBundle/fileExtensions``.
        case unsupportedExtension
        /// It is a directory (directories are not scanned recursively).
        case directory
        /// It could not be read.
        case unreadable
        /// It is not a PEM or DER certificate file.
        case malformed(CertificateLoadingError)

        /// A short phrase.
        public var description: String {
            switch self {
            case .unsupportedExtension:
                return "not a certificate file name (." + CertificateBundle.fileExtensions.joined(separator: " .") + ")"
            case .directory: return "directory (not scanned)"
            case .unreadable: return "unreadable"
            case let .malformed(error): return "malformed: \(error)"
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

    /// The certificates found, in file-name order (and order within a file), without duplicates.
    public let certificates: [Certificate]
    /// The files that contributed no certificate, in file-name order.
    public let skipped: [SkippedFile]

    /// The certificates' public keys, for ``PublicKeysTrustEvaluator``.
    public var publicKeys: [SubjectPublicKeyInfo] { certificates.publicKeys }

    /// Loads every certificate file directly inside `directory` (not recursively).
    ///
    /// - Throws: ``DirectoryError`` when the directory cannot be listed.
    public init(directory: String) throws(DirectoryError) {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            throw DirectoryError(path: directory)
        }
        let base = URL(fileURLWithPath: directory, isDirectory: true)
        var paths: [String] = []
        var skipped: [SkippedFile] = []
        for name in names.sorted() {
            let path = base.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                skipped.append(SkippedFile(path: path, reason: .directory))
            } else if let dot = name.lastIndex(of: "."), Self.fileExtensions.contains(String(name[name.index(after: dot)...])) {
                paths.append(path)
            } else {
                skipped.append(SkippedFile(path: path, reason: .unsupportedExtension))
            }
        }
        let loaded = CertificateBundle(files: paths)
        certificates = loaded.certificates
        self.skipped = (skipped + loaded.skipped).sorted { $0.path < $1.path }
    }

    /// Loads the certificates of each file (PEM or DER), whatever its name.
    public init(files: [String]) {
        var certificates: [Certificate] = []
        var skipped: [SkippedFile] = []
        for path in files {
            guard let data = FileManager.default.contents(atPath: path) else {
                skipped.append(SkippedFile(path: path, reason: .unreadable))
                continue
            }
            do {
                certificates += try Certificate.loadAll(from: Array(data))
            } catch {
                skipped.append(SkippedFile(path: path, reason: .malformed(error)))
            }
        }
        self.certificates = certificates.uniqued()
        self.skipped = skipped
    }
}
