import TrustX509

/// How ``SystemTrustStore`` found its anchors: every place it consulted, in order, what each held,
/// and the store (or the error) that resulted, as `trustctl store` reports it.
///
/// Made by the one discovery every evaluation runs (``SystemTrustStore/discover(environment:locations:)``;
/// ``SystemTrustStore/load(environment:)`` keeps only ``result``), so the record says what
/// evaluations actually trust.
package struct SystemTrustStoreDiscovery: Sendable {
    /// A certificate read from a trust-store file, with where it was read.
    package struct Entry: Sendable {
        /// The certificate.
        package let certificate: Certificate
        /// The file it was read from.
        package let path: String
        /// The 1-based line of its PEM block's BEGIN marker; nil for a DER file.
        package let line: Int?
    }

    /// One place consulted.
    package struct Location: Sendable {
        /// What the place is to the store.
        package enum Kind: String, Sendable, CaseIterable {
            /// The file `SSL_CERT_FILE` names.
            case sslCertFile = "SSL_CERT_FILE"
            /// One directory of `SSL_CERT_DIR`.
            case sslCertDir = "SSL_CERT_DIR"
            /// A distribution's bundle file, probed when neither variable is set.
            case bundleFile = "bundle"
            /// A distribution's directory of certificate files, probed after the bundle files.
            case certificateDirectory = "directory"
            /// A directory administrators install local roots into, read to classify the anchors.
            case administratorDirectory = "administrator"
            /// A directory of the distribution's own roots, read to classify the anchors.
            case distributionDirectory = "distribution"
        }

        /// What came of consulting it.
        package enum Status: Hashable, Sendable {
            /// Its certificates are anchors (or, for the classifying directories, it was read).
            case used
            /// It was read and holds no certificate: a probed location is passed over, a configured
            /// one adds nothing.
            case empty
            /// It cannot be read (a configured path is then a ``SystemTrustStoreError``; a probed one is
            /// passed over).
            case unreadable(SystemTrustStoreError.Problem)
            /// It was not looked at: an earlier location was used, a variable is set, the store could not
            /// be loaded, or (the distribution's directories) no administrator's root was found.
            case notConsulted
        }

        /// What the place is.
        package let kind: Kind
        /// Its path.
        package let path: String
        /// What came of it.
        package let status: Status
        /// Every certificate read there, in file and block order, duplicates kept. For the classifying
        /// directories this includes certificates that are not anchors (installed but not in the bundle).
        package let entries: [Entry]
        /// The blocks and files there that are not readable certificates.
        package let skipped: [SkippedCertificate]

        /// A location consulted with the given outcome.
        package init(kind: Kind, path: String, status: Status, entries: [Entry] = [], skipped: [SkippedCertificate] = []) {
            self.kind = kind
            self.path = path
            self.status = status
            self.entries = entries
            self.skipped = skipped
        }

        /// `paths`, each of the kind `kind`, not consulted.
        package static func notConsulted(_ kind: Kind, _ paths: [String]) -> [Location] {
            paths.map { Location(kind: kind, path: $0, status: .notConsulted) }
        }
    }

    /// Every location, in the order consulted (those not consulted in the order they would have been).
    package let locations: [Location]
    /// The store evaluations use, or why there is none.
    package let result: Result<SystemTrustStore, SystemTrustStoreError>
}
