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
        /// its DER again (2.3 k instructions per new certificate, callgrind).
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
        "/etc/ssl/certs/ca-certificates.crt",                // Debian, Ubuntu, Gentoo, Arch
        "/etc/pki/tls/certs/ca-bundle.crt",                  // Fedora, RHEL 6
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", // CentOS, RHEL 7+
        "/etc/ssl/ca-bundle.pem",                            // openSUSE
        "/etc/ssl/cert.pem",                                 // Alpine, macOS
        "/var/lib/ca-certificates/ca-bundle.pem",            // SUSE
        "/usr/local/etc/openssl@3/cert.pem",                 // Homebrew
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
        try load(environment: environment, administratorDirectories: administratorDirectoryPaths,
                 distributionDirectories: distributionDirectoryPaths)
    }

    /// ``load(environment:)`` with the administrators' roots read from `administratorDirectories`,
    /// less those the distribution ships in `distributionDirectories`.
    package static func load(environment: [String: String], administratorDirectories: [String],
                             distributionDirectories: [String] = []) throws(SystemTrustStoreError) -> SystemTrustStore {
        var store = try loadAnchors(environment: environment)
        store.classifyAdministratorRoots(in: administratorDirectories, distribution: distributionDirectories)
        return store
    }

    /// The anchors (``load(environment:)``), not yet classified.
    private static func loadAnchors(environment: [String: String]) throws(SystemTrustStoreError) -> SystemTrustStore {
        let file = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        // Empty entries ("a::b", a trailing colon) name nothing, as in PATH-style lists.
        let directories = (environment["SSL_CERT_DIR"] ?? "").split(separator: ":").map(String.init)
        if file != nil || !directories.isEmpty {
            return try loadExplicit(file: file, directories: directories)
        }
        for path in bundlePaths {
            guard let contents = read(path) else { continue }
            let loaded = Loaded(file: path, contents: contents)
            if !loaded.certificates.isEmpty { return loaded.store(source: path) }
        }
        for directory in directoryPaths {
            if let loaded = Loaded(directory: directory), !loaded.certificates.isEmpty {
                return loaded.store(source: directory)
            }
        }
        return SystemTrustStore(store: CertificateStore(), source: nil, skipped: [])
    }

    private init(store: CertificateStore, source: String?, skipped: [SkippedCertificate],
                 administratorRoots: CertificateStore = CertificateStore()) {
        contents = Contents(store: store, administratorRoots: administratorRoots, source: source, skipped: skipped)
    }

    /// Marks the anchors found in `directories` (recursively, bounded) as administrators' roots, unless
    /// the distribution ships them too (`distribution`, read only when an administrator's root is
    /// found). What cannot be read there is not listed: those directories are inputs to the bundle,
    /// whose own reading reports its problems.
    private mutating func classifyAdministratorRoots(in directories: [String], distribution: [String]) {
        var found = anchors(under: directories)
        if !found.certificates.isEmpty {
            let shipped = anchors(under: distribution)
            found = CertificateStore(found.certificates.filter { !shipped.contains($0) })
        }
        self = SystemTrustStore(store: store, source: source, skipped: skipped, administratorRoots: found)
    }

    /// The anchors of ``store`` found in the certificate files under `directories`.
    private func anchors(under directories: [String]) -> CertificateStore {
        var found = CertificateStore()
        for directory in directories {
            for file in Self.certificateFiles(under: directory) {
                guard let contents = Self.read(file) else { continue }
                for certificate in Loaded(file: file, contents: contents).certificates where store.contains(certificate) {
                    found.insert(certificate)
                }
            }
        }
        return found
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

    /// The union of `file` and every directory, each of which must be readable.
    private static func loadExplicit(file: String?, directories: [String]) throws(SystemTrustStoreError) -> SystemTrustStore {
        var loaded = Loaded()
        var configuration: [String] = []
        if let file {
            configuration.append("SSL_CERT_FILE=\(file)")
            guard let contents = read(file) else {
                throw .unreadable(variable: "SSL_CERT_FILE", path: file, problem: problem(file, expectingDirectory: false))
            }
            loaded.add(Loaded(file: file, contents: contents))
        }
        if !directories.isEmpty { configuration.append("SSL_CERT_DIR=\(directories.joined(separator: ":"))") }
        for directory in directories {
            guard let contents = Loaded(directory: directory) else {
                throw .unreadable(variable: "SSL_CERT_DIR", path: directory, problem: problem(directory, expectingDirectory: true))
            }
            loaded.add(contents)
        }
        let source = configuration.joined(separator: ", ")
        guard !loaded.certificates.isEmpty else { throw .noCertificates(configuration: source, skipped: loaded.skipped) }
        return loaded.store(source: source)
    }

    /// The bytes of the regular file at `path`, or nil when it cannot be read.
    fileprivate static func read(_ path: String) -> [UInt8]? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return Array(data)
    }

    /// Why `path` could not be read as a file (or listed as a directory).
    private static func problem(_ path: String, expectingDirectory: Bool) -> SystemTrustStoreError.Problem {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .doesNotExist }
        if isDirectory.boolValue != expectingDirectory { return expectingDirectory ? .isNotADirectory : .isADirectory }
        return .notReadable
    }

    /// Certificates read so far and what was left out.
    private struct Loaded {
        var certificates: [Certificate] = []
        var skipped: [SkippedCertificate] = []

        init() {}

        /// Every certificate of a PEM bundle (other PEM labels are ignored) or of a DER certificate file.
        init(file path: String, contents bytes: [UInt8]) {
            guard PEM.looksLikePEM(bytes), let text = String(validating: bytes, as: UTF8.self) else {
                do { certificates = [try Certificate(derEncoded: bytes)] } catch {
                    skipped = [SkippedCertificate(path: path, line: nil, reason: .invalidCertificate(error))]
                }
                return
            }
            for result in PEM.decodeEach(text) {
                switch result {
                case let .failure(error):
                    skipped.append(SkippedCertificate(path: path, line: nil, reason: .invalidPEM(error)))
                case let .success(block) where block.label == "CERTIFICATE" || block.label == "TRUSTED CERTIFICATE":
                    do { certificates.append(try Certificate(derEncoded: block.der)) } catch {
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
            for name in names.sorted() where name.hasSuffix(".pem") || name.hasSuffix(".crt")
                || name.range(of: #"^[0-9a-f]{8}\.[0-9]+$"#, options: .regularExpression) != nil {
                let file = path + "/" + name
                if let contents = SystemTrustStore.read(file) {
                    add(Loaded(file: file, contents: contents))
                } else {
                    skipped.append(SkippedCertificate(path: file, line: nil, reason: .unreadableFile))
                }
            }
        }

        mutating func add(_ other: Loaded) {
            certificates += other.certificates
            skipped += other.skipped
        }

        func store(source: String) -> SystemTrustStore {
            SystemTrustStore(store: CertificateStore(certificates), source: source, skipped: skipped)
        }
    }
}
