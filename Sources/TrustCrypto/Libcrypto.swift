internal import CTrustOpenSSL

/// The libcrypto this process runs with. It is linked dynamically, so this may be a newer build
/// than the one SwiftTrust was compiled against: tools print it so a report names the library that
/// actually verified the signatures.
public enum Libcrypto {
    /// OpenSSL's own name and version of the running libcrypto, e.g. `OpenSSL 3.0.13 30 Jan 2024`
    /// (`OpenSSL_version(OPENSSL_VERSION)`).
    public static var version: String {
        guard let text = OpenSSL_version(OPENSSL_VERSION) else { return "unknown libcrypto" }
        return String(cString: text)
    }
}
