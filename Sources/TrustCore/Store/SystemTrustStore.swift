import Foundation
import TrustDER
import TrustX509

/// The operating system's trust anchors, loaded lazily once and shared.
///
/// Lookup order: `SSL_CERT_FILE`, `SSL_CERT_DIR` (colon-separated directories of PEM files),
/// then the usual bundle locations of Debian/Ubuntu, Fedora/RHEL, Alpine, SUSE and macOS
/// Homebrew OpenSSL. The first source that yields certificates wins; unreadable certificates in a
/// bundle are skipped (a bundle is not ours to reject) and counted in ``skippedCount``.
public struct SystemTrustStore: Sendable {
    /// The anchors.
    public let store: CertificateStore
    /// The file or directory the anchors came from, if any.
    public let source: String?
    /// How many PEM blocks could not be read as certificates.
    public let skippedCount: Int

    /// The shared system store, loaded on first use (Swift statics are initialised once, thread-safely).
    public static let shared = SystemTrustStore.load(environment: ProcessInfo.processInfo.environment)

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

    /// Loads the anchors as described above, using `environment` for the variables.
    public static func load(environment: [String: String]) -> SystemTrustStore {
        if let file = environment["SSL_CERT_FILE"], !file.isEmpty, let loaded = loadFile(file) {
            return SystemTrustStore(store: CertificateStore(loaded.certificates), source: file, skippedCount: loaded.skipped)
        }
        if let dirs = environment["SSL_CERT_DIR"], !dirs.isEmpty {
            for dir in dirs.split(separator: ":").map(String.init) {
                if let loaded = loadDirectory(dir), !loaded.certificates.isEmpty {
                    return SystemTrustStore(store: CertificateStore(loaded.certificates), source: dir, skippedCount: loaded.skipped)
                }
            }
        }
        for path in bundlePaths {
            if let loaded = loadFile(path), !loaded.certificates.isEmpty {
                return SystemTrustStore(store: CertificateStore(loaded.certificates), source: path, skippedCount: loaded.skipped)
            }
        }
        for dir in directoryPaths {
            if let loaded = loadDirectory(dir), !loaded.certificates.isEmpty {
                return SystemTrustStore(store: CertificateStore(loaded.certificates), source: dir, skippedCount: loaded.skipped)
            }
        }
        return SystemTrustStore(store: CertificateStore(), source: nil, skippedCount: 0)
    }

    /// Reads every certificate of a PEM bundle, skipping blocks that do not parse.
    static func loadFile(_ path: String) -> (certificates: [Certificate], skipped: Int)? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = Array(data)
        guard PEM.looksLikePEM(bytes), let text = String(validating: bytes, as: UTF8.self),
              let blocks = try? PEM.decode(text) else {
            return (try? Certificate(derEncoded: bytes)).map { ([$0], 0) }
        }
        var certificates: [Certificate] = []
        var skipped = 0
        for block in blocks where block.label == "CERTIFICATE" || block.label == "TRUSTED CERTIFICATE" {
            if let certificate = try? Certificate(derEncoded: block.der) { certificates.append(certificate) } else { skipped += 1 }
        }
        return (certificates, skipped)
    }

    static func loadDirectory(_ path: String) -> (certificates: [Certificate], skipped: Int)? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
        var certificates: [Certificate] = []
        var skipped = 0
        for name in names.sorted() where name.hasSuffix(".pem") || name.hasSuffix(".crt") || name.range(of: #"^[0-9a-f]{8}\.[0-9]+$"#, options: .regularExpression) != nil {
            if let loaded = loadFile(path + "/" + name) {
                certificates.append(contentsOf: loaded.certificates)
                skipped += loaded.skipped
            }
        }
        return (certificates, skipped)
    }
}
