extension CertificateBundle {
    /// Which files of a directory are pinned certificates, and in which encoding: the rule of the
    /// library whose pins are being migrated, named after it.
    ///
    /// - ``afNetworking``: AFNetworking's `+certificatesInBundle:` asks its bundle for the paths of
    ///   type `cer` and keeps each file's raw bytes, so only `*.cer` files, and only DER (Apple's
    ///   `SecCertificateCreateWithData` reads DER alone; a PEM `.cer` is dropped in public-key mode
    ///   and breaks certificate mode).
    /// - ``alamofire``: Alamofire's `Bundle.af.certificates` scans `.cer .CER .crt .CRT .der .DER`
    ///   and drops what `SecCertificateCreateWithData` cannot read, so DER only.
    /// - ``includingPEM``: either of them plus `*.pem` files, and PEM text (any number of
    ///   certificates) in any file the convention scans. Neither upstream loads PEM; ask for it
    ///   explicitly, so that a stray `ca.pem` never silently becomes a pin.
    ///
    /// Extensions are compared case-sensitively (`.cer` is not `.CER`), as on a case-sensitive file
    /// system; whether `NSBundle` folds case on a case-insensitive one is not checked here.
    public struct Convention: Hashable, Sendable, CustomStringConvertible {
        /// The file name extensions loaded from a directory, without the dot, compared
        /// case-sensitively.
        public let fileExtensions: [String]
        /// Whether PEM text is read; otherwise a file must hold exactly one DER certificate.
        public let readsPEM: Bool
        /// The upstream the convention follows, for messages.
        private let name: String

        private init(name: String, fileExtensions: [String], readsPEM: Bool) {
            self.name = name
            self.fileExtensions = fileExtensions
            self.readsPEM = readsPEM
        }

        /// AFNetworking's `+certificatesInBundle:`: `*.cer` files, DER only. The default.
        public static let afNetworking = Convention(name: "AFNetworking", fileExtensions: ["cer"], readsPEM: false)

        /// Alamofire's `Bundle.af.certificates`: `.cer .CER .crt .CRT .der .DER` files, DER only.
        public static let alamofire = Convention(
            name: "Alamofire",
            fileExtensions: ["cer", "CER", "crt", "CRT", "der", "DER"], readsPEM: false)

        /// This convention plus `*.pem` files, reading PEM text (any number of certificates) as
        /// well as DER in every file it loads.
        public var includingPEM: Convention {
            Convention(
                name: name.hasSuffix("+ PEM") ? name : name + " + PEM",
                fileExtensions: fileExtensions.contains("pem") ? fileExtensions : fileExtensions + ["pem"], readsPEM: true)
        }

        /// Whether a file called `name` is loaded from a directory.
        func loads(fileNamed name: String) -> Bool {
            guard let dot = name.lastIndex(of: ".") else { return false }
            return fileExtensions.contains(String(name[name.index(after: dot)...]))
        }

        /// `AFNetworking (*.cer, DER)`, `Alamofire + PEM (*.cer … *.pem, DER or PEM)`.
        public var description: String {
            "\(name) (" + fileExtensions.map { "*." + $0 }.joined(separator: " ") + (readsPEM ? ", DER or PEM)" : ", DER)")
        }
    }
}
