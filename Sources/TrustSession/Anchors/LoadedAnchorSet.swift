#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TrustCore
import TrustCrypto
import TrustX509

/// The anchors the files of an ``AnchorFileListing`` hold, read within
/// ``ReloadingTrustAnchors``' bounds: every file must be readable, at most
/// ``ReloadingTrustAnchors/maximumFileSize`` bytes, and hold certificates only where it holds PEM
/// blocks TrustX509 reads as certificates (`Certificate.load(from:)`: PEM CERTIFICATE blocks, other
/// blocks passed over, or one DER certificate); together at most
/// ``ReloadingTrustAnchors/maximumCertificates``. Anything else fails the whole set: a half-read
/// set of anchors is not the set the operator wrote.
struct LoadedAnchorSet: Sendable {
    /// The anchors, without duplicates, in file order.
    let anchors: [Certificate]
    /// The files read, in order.
    let files: [String]
    /// Each file's path and the SHA-256 of its bytes: equal for two loads of the same content,
    /// which is how a change of stamps alone (a `touch`, a rewrite with the same bytes) is told from
    /// a change of anchors.
    let content: [FileDigest]

    /// A file's path and the digest of its bytes.
    struct FileDigest: Hashable, Sendable {
        let path: String
        let sha256: [UInt8]
    }

    init(_ listing: AnchorFileListing, maximumFileSize: Int, maximumCertificates: Int) throws(AnchorReloadError) {
        var certificates: [Certificate] = []
        var files: [String] = []
        var content: [FileDigest] = []
        for source in listing.sources {
            let sourceFiles = try source.files.get()
            if source.isDirectory, sourceFiles.isEmpty { throw .noCertificates(path: source.path) }
            for file in sourceFiles {
                _ = try file.stamp.get()
                let bytes = try Self.contents(of: file.path, limit: maximumFileSize)
                let found = try Self.certificates(in: bytes, path: file.path)
                guard found.count <= maximumCertificates - certificates.count else {
                    throw .tooManyCertificates(path: file.path, limit: maximumCertificates)
                }
                certificates += found
                files.append(file.path)
                content.append(FileDigest(path: file.path, sha256: Digest.sha256(bytes)))
            }
        }
        guard !certificates.isEmpty else { throw listing.sources.first.map { .noCertificates(path: $0.path) } ?? .noPaths }
        anchors = CertificateStore(certificates).certificates
        self.files = files
        self.content = content
    }

    /// The certificates of one file's bytes; a file holding none is an error, as is any block that
    /// does not read as a certificate.
    private static func certificates(in bytes: [UInt8], path: String) throws(AnchorReloadError) -> [Certificate] {
        guard !bytes.isEmpty else { throw .noCertificates(path: path) }
        do {
            return try Certificate.load(from: bytes).certificates
        } catch {
            if error.index == nil {
                switch error.error.reason {
                case .empty, .pem(.noBlocks), .unexpectedPEMBlock: throw .noCertificates(path: path)
                default: break
                }
            }
            throw .invalidCertificate(path: path, error: error)
        }
    }

    /// The bytes of the regular file at `path`, at most `limit` of them. Opened without blocking
    /// (a FIFO put in the file's place would otherwise hang the check) and checked to be a regular
    /// file on the descriptor read from.
    private static func contents(of path: String, limit: Int) throws(AnchorReloadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .unreadable(path: path, problem: AnchorFileStamp.problem(errno: errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .unreadable(path: path, problem: AnchorFileStamp.problem(errno: errno))
        }
        guard AnchorFileStamp.isRegularFile(status) else { throw .unreadable(path: path, problem: .notARegularFile) }
        guard status.st_size <= limit else { throw .fileTooLarge(path: path, size: Int(status.st_size), limit: limit) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(status.st_size))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, problem: .notReadable(errno: errno))
            }
            if count == 0 { return bytes }
            // The file may have grown since fstat: the limit holds for what is read.
            guard count <= limit - bytes.count else {
                throw .fileTooLarge(path: path, size: bytes.count + count, limit: limit)
            }
            bytes += chunk[..<count]
        }
    }
}
