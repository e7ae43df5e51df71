#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the paths of a ``ReloadingTrustAnchors`` name at one instant, as stat(2) sees them: the
/// value compared between two checks to tell whether anything changed, without reading a byte.
///
/// stat(2) follows symlinks, so a file is identified by its target: a Kubernetes secret or
/// ConfigMap volume, whose visible names are symlinks through `..data` to a timestamped directory
/// that the kubelet swaps atomically, shows new device/inode numbers after the swap even when the
/// visible names, sizes and times look the same.
struct AnchorFileListing: Hashable, Sendable {
    /// One regular file to read, and its stamp (or why it cannot be stamped).
    struct File: Hashable, Sendable {
        let path: String
        let stamp: Result<AnchorFileStamp, AnchorReloadError>
    }

    /// One configured path: a file (itself), or a directory's regular files, or why it cannot be listed.
    struct Source: Hashable, Sendable {
        let path: String
        let isDirectory: Bool
        let files: Result<[File], AnchorReloadError>
    }

    let sources: [Source]

    /// The listing of `paths` now. A directory contributes its regular files (after symlinks),
    /// in name order, not recursing, skipping hidden names (an editor's or an atomic writer's
    /// temporary file, Kubernetes' `..data` bookkeeping); it may hold at most `maximumEntries`
    /// entries of any kind.
    init(paths: [String], maximumEntries: Int) {
        sources = paths.map { path in Self.source(path, maximumEntries: maximumEntries) }
    }

    private static func source(_ path: String, maximumEntries: Int) -> Source {
        let status: stat
        switch AnchorFileStamp.status(of: path) {
        case let .failure(error): return Source(path: path, isDirectory: false, files: .failure(error))
        case let .success(found): status = found
        }
        if AnchorFileStamp.isDirectory(status) {
            return Source(path: path, isDirectory: true, files: directoryFiles(path, maximumEntries: maximumEntries))
        }
        guard AnchorFileStamp.isRegularFile(status) else {
            return Source(path: path, isDirectory: false, files: .failure(.unreadable(path: path, problem: .notARegularFile)))
        }
        return Source(path: path, isDirectory: false, files: .success([File(path: path, stamp: .success(AnchorFileStamp(status)))]))
    }

    /// The regular files of `directory`, in name order.
    private static func directoryFiles(_ directory: String, maximumEntries: Int) -> Result<[File], AnchorReloadError> {
        let names: [String]
        switch entryNames(directory, maximumEntries: maximumEntries) {
        case let .failure(error): return .failure(error)
        case let .success(found): names = found
        }
        var files: [File] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            switch AnchorFileStamp.status(of: path) {
            case let .failure(error):
                // A dangling symlink, or an entry removed since the listing: the change shows.
                files.append(File(path: path, stamp: .failure(error)))
            case let .success(status):
                // Not recursive: subdirectories (Kubernetes' timestamped ones among them) are passed over.
                guard AnchorFileStamp.isRegularFile(status) else { continue }
                files.append(File(path: path, stamp: .success(AnchorFileStamp(status))))
            }
        }
        return .success(files)
    }

    /// The names in `directory` (without `.` and `..`), at most `maximumEntries`.
    private static func entryNames(_ directory: String, maximumEntries: Int) -> Result<[String], AnchorReloadError> {
        guard let handle = opendir(directory) else {
            return .failure(.unreadable(path: directory, problem: AnchorFileStamp.problem(errno: errno)))
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            guard names.count < maximumEntries else { return .failure(.tooManyFiles(path: directory, limit: maximumEntries)) }
            names.append(name)
        }
        return .success(names)
    }
}

/// What stat(2) says of a file (following symlinks) that changes when the file is replaced or
/// rewritten: device and inode (a rename over it, a symlink swap), size, and the modification and
/// status-change times to the nanosecond (a rewrite in place, a chmod that makes it readable).
struct AnchorFileStamp: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int64
    let modifiedNanoseconds: Int64
    let changedSeconds: Int64
    let changedNanoseconds: Int64

    init(_ status: stat) {
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int64(status.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int64(status.st_mtimespec.tv_nsec)
        changedSeconds = Int64(status.st_ctimespec.tv_sec)
        changedNanoseconds = Int64(status.st_ctimespec.tv_nsec)
        #else
        modifiedSeconds = Int64(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(status.st_mtim.tv_nsec)
        changedSeconds = Int64(status.st_ctim.tv_sec)
        changedNanoseconds = Int64(status.st_ctim.tv_nsec)
        #endif
    }

    /// stat(2) of `path`, following symlinks.
    static func status(of path: String) -> Result<stat, AnchorReloadError> {
        var status = stat()
        guard stat(path, &status) == 0 else { return .failure(.unreadable(path: path, problem: problem(errno: errno))) }
        return .success(status)
    }

    static func isRegularFile(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFREG }
    static func isDirectory(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFDIR }

    /// The problem an `errno` of stat, open or opendir names.
    static func problem(errno code: Int32) -> AnchorReloadError.Problem {
        code == ENOENT || code == ENOTDIR ? .doesNotExist : .notReadable(errno: code)
    }
}
