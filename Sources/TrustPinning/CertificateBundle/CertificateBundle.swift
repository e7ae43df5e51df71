import Foundation
import TrustDER
import TrustX509

/// Pinned certificates loaded from a directory by a named ``Convention``: AFNetworking's
/// `+certificatesInBundle:` (`*.cer`, DER; the default), Alamofire's `Bundle.af.certificates`
/// (`.cer .CER .crt .CRT .der .DER`, DER), or either ``Convention/includingPEM``. Unlike both
/// upstreams, nothing is dropped silently: every entry that contributes no certificate (another
/// extension, PEM under a DER-only convention, a key, a file over the ``Limits``) is listed in
/// ``skipped`` with its reason.
///
/// ```swift
/// let bundle = try CertificateBundle(directory: "Resources/pins")          // *.cer, DER
/// bundle.skipped.forEach { print("skipped", $0) }
/// let evaluator = PinnedCertificatesTrustEvaluator(certificates: bundle.certificates)
/// let keys = PublicKeysTrustEvaluator(keys: bundle.publicKeys)
/// ```
public struct CertificateBundle: Sendable {
    /// The convention the files were loaded by.
    public let convention: Convention
    /// The certificates found, in file-name order (and order within a file), without duplicates.
    public let certificates: [Certificate]
    /// The entries that contributed no certificate, in file-name order.
    public let skipped: [SkippedFile]

    /// The certificates' public keys, for ``PublicKeysTrustEvaluator``.
    public var publicKeys: [SubjectPublicKeyInfo] { certificates.publicKeys }

    /// Loads the files directly inside `directory` (not recursively) that `convention` loads.
    ///
    /// - Parameters:
    ///   - directory: The directory.
    ///   - convention: Which names and encodings are pins; default ``Convention/afNetworking``.
    ///   - limits: How much is read; default ``Limits/standard``.
    /// - Throws: ``DirectoryError`` when the directory cannot be listed.
    public init(directory: String, convention: Convention = .afNetworking, limits: Limits = .standard) throws(DirectoryError) {
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
            } else if convention.loads(fileNamed: name) {
                paths.append(path)
            } else {
                skipped.append(SkippedFile(path: path, reason: .unsupportedExtension(convention)))
            }
        }
        let loaded = CertificateBundle(files: paths, convention: convention, limits: limits)
        self.convention = convention
        certificates = loaded.certificates
        self.skipped = (skipped + loaded.skipped).sorted { $0.path < $1.path }
    }

    /// Loads each file in the encoding `convention` reads (DER only unless it
    /// ``Convention/includingPEM``), whatever its name.
    ///
    /// - Parameters:
    ///   - files: The files, loaded in this order.
    ///   - convention: Whether PEM is read; its extensions are not checked. Default
    ///     ``Convention/afNetworking`` (DER only).
    ///   - limits: How much is read; default ``Limits/standard``.
    public init(files: [String], convention: Convention = .afNetworking, limits: Limits = .standard) {
        var certificates: [Certificate] = []
        var skipped: [SkippedFile] = []
        var totalSize = 0
        var loadedFiles = 0
        for path in files {
            func skip(_ reason: SkipReason) { skipped.append(SkippedFile(path: path, reason: reason)) }
            guard loadedFiles < limits.maximumFileCount else {
                skip(.fileCountLimitReached(limit: limits.maximumFileCount))
                continue
            }
            let bytes: [UInt8]
            switch Self.read(path, limit: limits.maximumFileSize) {
            case let .bytes(read): bytes = read
            case let .skipped(reason):
                skip(reason)
                continue
            }
            guard bytes.count <= limits.maximumTotalSize - totalSize else {
                skip(.totalSizeLimitReached(limit: limits.maximumTotalSize))
                continue
            }
            totalSize += bytes.count
            loadedFiles += 1
            // AFNetworking and Alamofire hand the raw bytes to SecCertificateCreateWithData, which
            // reads one DER certificate: PEM text is not a pin unless PEM was asked for.
            if !convention.readsPEM, PEM.looksLikePEM(bytes), !Self.isSingleDERElement(bytes) {
                skip(.pemNotRead(convention))
                continue
            }
            do {
                certificates += try Certificate.loadAll(from: bytes)
            } catch {
                skip(.malformed(error))
            }
        }
        self.convention = convention
        self.certificates = certificates.uniqued()
        self.skipped = skipped
    }

    /// The bytes of a regular file (or a link to one) of at most `limit` bytes; a device or FIFO is
    /// never opened, and reading stops after `limit + 1` bytes.
    private static func read(_ path: String, limit: Int) -> FileContents {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved) else { return .skipped(.unreadable) }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { return .skipped(.notARegularFile) }
        let bytes: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: resolved))
            defer { try? handle.close() }
            bytes = Array(try handle.read(upToCount: limit + 1) ?? Data())
        } catch {
            return .skipped(.unreadable)
        }
        guard bytes.count <= limit else { return .skipped(.tooLarge(limit: limit)) }
        return .bytes(bytes)
    }

    /// A file's bytes, or why it was not read.
    private enum FileContents {
        case bytes([UInt8])
        case skipped(SkipReason)
    }

    /// Whether `bytes` are one DER element spanning the input (such bytes are DER even when a field
    /// holds "-----BEGIN ", as `Certificate.load(from:)` decides).
    private static func isSingleDERElement(_ bytes: [UInt8]) -> Bool {
        bytes.first == 0x30 && (try? DERReader.parseSingle(bytes[...])) != nil
    }
}
