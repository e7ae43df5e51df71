/// The well-known places ``SystemTrustStore`` reads when neither `SSL_CERT_FILE` nor `SSL_CERT_DIR`
/// is set, and where it learns which anchors an administrator installed.
///
/// ``standard`` is what every evaluation uses; ``under(root:)`` reads the same layout below another
/// directory (a mounted container image, or a test's temporary tree) without changing anything else.
package struct SystemTrustStoreLocations: Hashable, Sendable {
    /// Bundle files, probed in order: the first that yields a certificate is the store.
    package var bundleFiles: [String]
    /// Directories of individual certificate files, probed after every bundle file.
    package var certificateDirectories: [String]
    /// Where administrators install local roots (``SystemTrustStore/administratorDirectoryPaths``).
    package var administratorDirectories: [String]
    /// Where the distribution keeps its own roots (``SystemTrustStore/distributionDirectoryPaths``).
    package var distributionDirectories: [String]

    /// Creates a set of locations.
    package init(
        bundleFiles: [String], certificateDirectories: [String], administratorDirectories: [String],
        distributionDirectories: [String]
    ) {
        self.bundleFiles = bundleFiles
        self.certificateDirectories = certificateDirectories
        self.administratorDirectories = administratorDirectories
        self.distributionDirectories = distributionDirectories
    }

    /// The locations of ``SystemTrustStore/load(environment:)`` and ``SystemTrustStore/shared``.
    package static let standard = SystemTrustStoreLocations(
        bundleFiles: SystemTrustStore.bundlePaths, certificateDirectories: SystemTrustStore.directoryPaths,
        administratorDirectories: SystemTrustStore.administratorDirectoryPaths,
        distributionDirectories: SystemTrustStore.distributionDirectoryPaths)

    /// Every location with `root` put in front of it (`/mnt/image` reads `/mnt/image/etc/ssl/cert.pem`, ...).
    /// `SSL_CERT_FILE` and `SSL_CERT_DIR` are not locations: they are read as the environment gives them.
    package func under(root: String) -> SystemTrustStoreLocations {
        var prefix = root
        while prefix.count > 1 && prefix.hasSuffix("/") { prefix.removeLast() }
        if prefix == "/" { return self }
        func rooted(_ paths: [String]) -> [String] { paths.map { prefix + $0 } }
        return SystemTrustStoreLocations(
            bundleFiles: rooted(bundleFiles), certificateDirectories: rooted(certificateDirectories),
            administratorDirectories: rooted(administratorDirectories),
            distributionDirectories: rooted(distributionDirectories))
    }
}
