import Foundation
import TrustCrypto
import TrustDER
import TrustX509

/// The operating system's trust anchors, loaded lazily once and shared.
///
/// When `SSL_CERT_FILE` or `SSL_CERT_DIR` (colon-separated directories of PEM files) is set, the
/// anchors are exactly the certificates of that file and those directories together, as OpenSSL's
/// default verify paths read them. Such an explicit configuration restricts what is trusted, so a
/// path in it that cannot be read, or a configuration without a single readable certificate, is a
/// ``SystemTrustStoreError``: the distribution bundle is never trusted in its place.
///
/// Without either variable, the usual bundle locations of Debian/Ubuntu, Fedora/RHEL, Alpine, SUSE
/// and macOS Homebrew OpenSSL are probed; the first that yields certificates wins.
///
/// Either way, a block that is not a readable certificate is left out (a bundle is not ours to
/// reject as a whole) and listed in ``skipped`` with the reason.
/// No file is read past 16 MiB: a larger `SSL_CERT_FILE` is a ``SystemTrustStoreError``, a larger
/// bundle is passed over as unreadable, a larger file of a directory is listed in ``skipped``.
///
/// Which anchors an administrator installed is read from the directories local roots are installed
/// into (``administratorDirectoryPaths``): on Debian, Ubuntu and Alpine `update-ca-certificates` adds
/// `/usr/local/share/ca-certificates` to the same bundle as the distribution's roots, on Fedora/RHEL
/// `update-ca-trust` reads `/etc/pki/ca-trust/source/anchors`, on SUSE `/etc/pki/trust/anchors`.
/// Apple scopes some TLS server rules by that difference (``administratorRoots``).
public struct SystemTrustStore: Sendable {
    /// The anchors.
    public var store: CertificateStore { contents.store }
    /// The anchors of ``store`` an administrator installed (found, byte for byte, in
    /// ``administratorDirectoryPaths``), as opposed to the distribution's own. Apple's trustd treats
    /// such roots as user anchors (trust settings): its 398-day limit and strict serverAuth rule apply
    /// only under roots of its own store (`SecPolicyCheckSystemTrustValidityPeriod`,
    /// `SecPolicyCheckServerAuthEKU`), and a leaf that is itself one is exempt from the key-size and
    /// 825-day rules (`SecPolicyCheckKeySize`, `SecPolicyCheckOtherTrustValidityPeriod`).
    public var administratorRoots: CertificateStore { contents.administratorRoots }
    /// Where the anchors came from: the configured `SSL_CERT_FILE` / `SSL_CERT_DIR`, or the bundle
    /// file or directory found; nil when none was found.
    public var source: String? { contents.source }
    /// Every PEM block or file that could not be read as a certificate, and why.
    public var skipped: [SkippedCertificate] { contents.skipped }

    /// Everything, behind one reference: every TLS server evaluation reads the shared store to
    /// classify its root (``source(of:)``), and copying one reference costs one retain.
    private let contents: Contents

    private final class Contents: Sendable {
        let store: CertificateStore
        let administratorRoots: CertificateStore
        let source: String?
        let skipped: [SkippedCertificate]
        /// The SHA-256 of every anchor and of every administrator's root: a chain's root is classified
        /// by the digest its certificate already carries (the verdict cache's key), not by hashing
        /// its DER again, a whole SHA-256 for every root not seen before.
        let systemDigests: Set<DigestWords>
        let administratorDigests: Set<DigestWords>

        init(store: CertificateStore, administratorRoots: CertificateStore, source: String?, skipped: [SkippedCertificate]) {
            self.store = store
            self.administratorRoots = administratorRoots
            self.source = source
            self.skipped = skipped
            systemDigests = Set(store.certificates.map(\.sha256Words))
            administratorDigests = Set(administratorRoots.certificates.map(\.sha256Words))
        }
    }

    /// The shared system store, loaded from the process environment on first use.
    ///
    /// - Throws: ``SystemTrustStoreError`` when `SSL_CERT_FILE` / `SSL_CERT_DIR` is set but unusable
    ///   (the same error on every access: the store is loaded once).
    public static var shared: SystemTrustStore {
        get throws(SystemTrustStoreError) { try loadedShared.get() }
    }

    /// Swift statics are initialised once, thread-safely.
    private static let loadedShared = Result { () throws(SystemTrustStoreError) -> SystemTrustStore in
        try load(environment: ProcessInfo.processInfo.environment)
    }

    /// Well-known CA bundle files, most common first.
    public static let bundlePaths = [
        "/etc/ssl/certs/ca-certificates.crt", // Debian, Ubuntu, Gentoo, Arch
        "/etc/pki/tls/certs/ca-bundle.crt", // Fedora, RHEL 6
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", // CentOS, RHEL 7+
        "/etc/ssl/ca-bundle.pem", // openSUSE
        "/etc/ssl/cert.pem", // Alpine, macOS
        "/var/lib/ca-certificates/ca-bundle.pem", // SUSE
        "/usr/local/etc/openssl@3/cert.pem", // Homebrew
    ]

    /// Well-known directories of individual PEM files.
    public static let directoryPaths = ["/etc/ssl/certs", "/etc/pki/tls/certs", "/system/etc/security/cacerts"]

    /// Where administrators install local roots (read with their subdirectories, `*.crt` and `*.pem`):
    /// Debian, Ubuntu and Alpine (`update-ca-certificates`), Fedora/RHEL (`update-ca-trust`), SUSE.
    public static let administratorDirectoryPaths = [
        "/usr/local/share/ca-certificates", "/etc/pki/ca-trust/source/anchors", "/etc/pki/trust/anchors",
    ]

    /// Where distributions keep their own roots, which `update-ca-certificates` puts in the bundle with
    /// the administrators' (Debian, Ubuntu, Alpine): a root found here too is a system root, however
    /// else it was installed (trustd asks its system source first).
    public static let distributionDirectoryPaths = ["/usr/share/ca-certificates"]

    /// How a trust anchor is trusted, for the rules Apple scopes by it.
    package func source(of anchor: Certificate) -> AnchorSource {
        let contents = contents
        let digest = anchor.sha256Words
        if !contents.administratorDigests.isEmpty && contents.administratorDigests.contains(digest) { return .administrator }
        return contents.systemDigests.contains(digest) ? .system : .caller
    }

    /// Loads the anchors as described above, reading the variables from `environment` (pass a
    /// dictionary of your own to load a configuration without changing the process environment).
    ///
    /// - Throws: ``SystemTrustStoreError`` when `SSL_CERT_FILE` or `SSL_CERT_DIR` is set and names a
    ///   path that cannot be read, or when together they hold no readable certificate.
    public static func load(environment: [String: String]) throws(SystemTrustStoreError) -> SystemTrustStore {
        try discover(environment: environment).result.get()
    }

    /// ``load(environment:)`` with the administrators' roots read from `administratorDirectories`,
    /// less those the distribution ships in `distributionDirectories`.
    package static func load(
        environment: [String: String], administratorDirectories: [String],
        distributionDirectories: [String] = []
    ) throws(SystemTrustStoreError) -> SystemTrustStore {
        var locations = SystemTrustStoreLocations.standard
        locations.administratorDirectories = administratorDirectories
        locations.distributionDirectories = distributionDirectories
        return try discover(environment: environment, locations: locations).result.get()
    }

    /// The discovery behind ``load(environment:)``, with its record: every location consulted, in
    /// order, what each held and where each certificate was read (`trustctl store`).
    ///
    /// - Parameters:
    ///   - environment: Where `SSL_CERT_FILE` and `SSL_CERT_DIR` are read.
    ///   - locations: The bundle files, directories and classifying directories probed; evaluations use
    ///     ``SystemTrustStoreLocations/standard``.
    package static func discover(
        environment: [String: String],
        locations: SystemTrustStoreLocations = .standard
    ) -> SystemTrustStoreDiscovery {
        let file = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        // Empty entries ("a::b", a trailing colon) name nothing, as in PATH-style lists.
        let directories = (environment["SSL_CERT_DIR"] ?? "").split(separator: ":").map(String.init)
        var record: [Location] = []
        let result: Result<SystemTrustStore, SystemTrustStoreError>
        if file != nil || !directories.isEmpty {
            result = loadExplicit(file: file, directories: directories, record: &record)
            record +=
                Location.notConsulted(.bundleFile, locations.bundleFiles)
                + Location.notConsulted(.certificateDirectory, locations.certificateDirectories)
        } else {
            result = .success(probe(locations, record: &record))
        }
        guard case var .success(store) = result else {
            record +=
                Location.notConsulted(.administratorDirectory, locations.administratorDirectories)
                + Location.notConsulted(.distributionDirectory, locations.distributionDirectories)
            return SystemTrustStoreDiscovery(locations: record, result: result)
        }
        store.classifyAdministratorRoots(
            in: locations.administratorDirectories, distribution: locations.distributionDirectories,
            record: &record)
        return SystemTrustStoreDiscovery(locations: record, result: .success(store))
    }

    private typealias Location = SystemTrustStoreDiscovery.Location

    /// The first bundle file, else the first directory, that yields certificates; an empty store when none does.
    private static func probe(_ locations: SystemTrustStoreLocations, record: inout [Location]) -> SystemTrustStore {
        var found: SystemTrustStore?
        for path in locations.bundleFiles {
            guard found == nil else {
                record.append(Location(kind: .bundleFile, path: path, status: .notConsulted))
                continue
            }
            let contents: [UInt8]
            switch read(path) {
            case let .bytes(bytes): contents = bytes
            case let .problem(problem):
                record.append(Location(kind: .bundleFile, path: path, status: .unreadable(problem)))
                continue
            }
            let loaded = Loaded(file: path, contents: contents)
            record.append(loaded.location(.bundleFile, path))
            if !loaded.entries.isEmpty { found = loaded.store(source: path) }
        }
        for directory in locations.certificateDirectories {
            guard found == nil else {
                record.append(Location(kind: .certificateDirectory, path: directory, status: .notConsulted))
                continue
            }
            guard let loaded = Loaded(directory: directory) else {
                record.append(
                    Location(
                        kind: .certificateDirectory, path: directory,
                        status: .unreadable(directoryProblem(directory))))
                continue
            }
            record.append(loaded.location(.certificateDirectory, directory))
            if !loaded.entries.isEmpty { found = loaded.store(source: directory) }
        }
        return found ?? SystemTrustStore(store: CertificateStore(), source: nil, skipped: [])
    }

    private init(
        store: CertificateStore, source: String?, skipped: [SkippedCertificate],
        administratorRoots: CertificateStore = CertificateStore()
    ) {
        contents = Contents(store: store, administratorRoots: administratorRoots, source: source, skipped: skipped)
    }

    /// Marks the anchors found in `directories` (recursively, bounded) as administrators' roots, unless
    /// the distribution ships them too (`distribution`, read only when an administrator's root is
    /// found). What cannot be read there is not in ``skipped`` (only in the record): those directories
    /// are inputs to the bundle, whose own reading reports its problems.
    private mutating func classifyAdministratorRoots(in directories: [String], distribution: [String], record: inout [Location]) {
        let administrators = directories.map { Self.certificates(under: $0, kind: .administratorDirectory) }
        record += administrators
        var found = anchors(in: administrators)
        if found.certificates.isEmpty {
            record += Location.notConsulted(.distributionDirectory, distribution)
        } else {
            let distributions = distribution.map { Self.certificates(under: $0, kind: .distributionDirectory) }
            record += distributions
            let shipped = anchors(in: distributions)
            found = CertificateStore(found.certificates.filter { !shipped.contains($0) })
        }
        self = SystemTrustStore(store: store, source: source, skipped: skipped, administratorRoots: found)
    }

    /// The anchors of ``store`` among the certificates read at `locations`.
    private func anchors(in locations: [Location]) -> CertificateStore {
        var found = CertificateStore()
        for location in locations {
            for entry in location.entries where store.contains(entry.certificate) { found.insert(entry.certificate) }
        }
        return found
    }

    /// Every certificate of the certificate files under `directory` (``certificateFiles(under:depth:)``).
    private static func certificates(under directory: String, kind: Location.Kind) -> Location {
        var loaded = Loaded()
        let files = certificateFiles(under: directory)
        for file in files { loaded.add(Loaded(readingFile: file)) }
        if files.isEmpty, (try? FileManager.default.contentsOfDirectory(atPath: directory)) == nil {
            return Location(kind: kind, path: directory, status: .unreadable(directoryProblem(directory)))
        }
        return loaded.location(kind, directory)
    }

    /// The `*.crt` and `*.pem` files under `directory` and its subdirectories (`update-ca-certificates`
    /// reads subdirectories), at most ``maximumAdministratorFiles`` and 8 levels deep, in name order.
    private static func certificateFiles(under directory: String, depth: Int = 0) -> [String] {
        guard depth < 8, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var files: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            guard files.count < maximumAdministratorFiles else { break }
            let path = directory + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                files += certificateFiles(under: path, depth: depth + 1).prefix(maximumAdministratorFiles - files.count)
            } else if name.hasSuffix(".crt") || name.hasSuffix(".pem") {
                files.append(path)
            }
        }
        return files
    }

    /// The most files read from the administrators' directories.
    static let maximumAdministratorFiles = 4096

    /// The union of `file` and every directory, each of which must be readable; each is recorded,
    /// those after an unreadable one as not consulted.
    private static func loadExplicit(
        file: String?, directories: [String],
        record: inout [Location]
    ) -> Result<SystemTrustStore, SystemTrustStoreError> {
        var loaded = Loaded()
        var failure: SystemTrustStoreError?
        if let file {
            switch read(file) {
            case let .bytes(contents):
                let part = Loaded(file: file, contents: contents)
                record.append(part.location(.sslCertFile, file))
                loaded.add(part)
            case let .problem(problem):
                record.append(Location(kind: .sslCertFile, path: file, status: .unreadable(problem)))
                failure = .unreadable(variable: "SSL_CERT_FILE", path: file, problem: problem)
            }
        }
        for directory in directories {
            guard failure == nil else {
                record.append(Location(kind: .sslCertDir, path: directory, status: .notConsulted))
                continue
            }
            guard let part = Loaded(directory: directory) else {
                let problem = directoryProblem(directory)
                record.append(Location(kind: .sslCertDir, path: directory, status: .unreadable(problem)))
                failure = .unreadable(variable: "SSL_CERT_DIR", path: directory, problem: problem)
                continue
            }
            record.append(part.location(.sslCertDir, directory))
            loaded.add(part)
        }
        if let failure { return .failure(failure) }
        let source =
            ([file.map { "SSL_CERT_FILE=\($0)" }]
            + [directories.isEmpty ? nil : "SSL_CERT_DIR=\(directories.joined(separator: ":"))"])
            .compactMap { $0 }.joined(separator: ", ")
        guard !loaded.entries.isEmpty else { return .failure(.noCertificates(configuration: source, skipped: loaded.skipped)) }
        return .success(loaded.store(source: source))
    }

    /// The most bytes read from one file of the store: a larger file is not read (an error for
    /// `SSL_CERT_FILE`, a skipped file elsewhere). Distribution bundles hold well under 1 MB.
    package static let maximumFileSize = 16 << 20

    /// The bytes of the file at `path` (a link is followed), at most ``maximumFileSize`` of them:
    /// reading stops one byte past the cap, so no file (a huge bundle, `/dev/zero`) can exhaust memory.
    fileprivate static func read(_ path: String) -> FileContents {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .problem(.doesNotExist) }
        guard !isDirectory.boolValue else { return .problem(.isADirectory) }
        let bytes: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            bytes = Array(try handle.read(upToCount: maximumFileSize + 1) ?? Data())
        } catch {
            return .problem(.notReadable)
        }
        guard bytes.count <= maximumFileSize else { return .problem(.tooLarge(limit: maximumFileSize)) }
        return .bytes(bytes)
    }

    /// A file's bytes, or why they were not read.
    fileprivate enum FileContents {
        case bytes([UInt8])
        case problem(SystemTrustStoreError.Problem)
    }

    /// Why the directory at `path` could not be listed.
    private static func directoryProblem(_ path: String) -> SystemTrustStoreError.Problem {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .doesNotExist }
        return isDirectory.boolValue ? .notReadable : .isNotADirectory
    }

    /// Certificates read so far, each with where it was read, and what was left out.
    private struct Loaded {
        var entries: [SystemTrustStoreDiscovery.Entry] = []
        var skipped: [SkippedCertificate] = []

        init() {}

        /// Every certificate of a PEM bundle (other PEM labels are ignored) or of a DER certificate file.
        init(file path: String, contents bytes: [UInt8]) {
            guard PEM.looksLikePEM(bytes), let text = String(validating: bytes, as: UTF8.self) else {
                do { entries = [.init(certificate: try Certificate(derEncoded: bytes), path: path, line: nil)] } catch {
                    skipped = [SkippedCertificate(path: path, line: nil, reason: .invalidCertificate(error))]
                }
                return
            }
            for result in PEM.decodeEach(text) {
                switch result {
                case let .failure(error):
                    skipped.append(SkippedCertificate(path: path, line: nil, reason: .invalidPEM(error)))
                case let .success(block) where block.label == "CERTIFICATE" || block.label == "TRUSTED CERTIFICATE":
                    do { entries.append(.init(certificate: try Certificate(derEncoded: block.der), path: path, line: block.line)) } catch {
                        skipped.append(SkippedCertificate(path: path, line: block.line, reason: .invalidCertificate(error)))
                    }
                case .success:
                    continue
                }
            }
        }

        /// The certificate files of a directory (`*.pem`, `*.crt`, OpenSSL hash links), in name
        /// order; nil when the directory cannot be listed.
        init?(directory path: String) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
            for name in names.sorted()
            where name.hasSuffix(".pem") || name.hasSuffix(".crt")
                || name.range(of: #"^[0-9a-f]{8}\.[0-9]+$"#, options: .regularExpression) != nil
            {
                add(Loaded(readingFile: path + "/" + name))
            }
        }

        /// The certificates of the file at `path` (``init(file:contents:)``), or the file skipped with
        /// why it cannot be read.
        init(readingFile path: String) {
            switch SystemTrustStore.read(path) {
            case let .bytes(contents): self.init(file: path, contents: contents)
            case let .problem(problem):
                self.init()
                let reason: SkippedCertificate.Reason
                switch problem {
                case let .tooLarge(limit): reason = .tooLarge(limit: limit)
                case .doesNotExist, .isADirectory, .isNotADirectory, .notReadable: reason = .unreadableFile
                }
                skipped = [SkippedCertificate(path: path, line: nil, reason: reason)]
            }
        }

        mutating func add(_ other: Loaded) {
            entries += other.entries
            skipped += other.skipped
        }

        /// The record of the location these were read from: used when it holds a certificate.
        func location(_ kind: Location.Kind, _ path: String) -> Location {
            Location(kind: kind, path: path, status: entries.isEmpty ? .empty : .used, entries: entries, skipped: skipped)
        }

        func store(source: String) -> SystemTrustStore {
            SystemTrustStore(store: CertificateStore(entries.lazy.map(\.certificate)), source: source, skipped: skipped)
        }
    }
}
