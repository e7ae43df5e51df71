internal import CTrustOpenSSL

/// The libcrypto `EVP_MD` objects for every ``DigestAlgorithm``, fetched once per process.
///
/// Fetching explicitly (rather than passing `EVP_sha256()` and letting OpenSSL 3 fetch
/// implicitly on every call) avoids a method-store lookup per digest.
///
/// `@unchecked Sendable`: the pointers refer to fetched `EVP_MD` objects that are immutable,
/// reference-counted by libcrypto, never freed (they live for the process), and documented by
/// OpenSSL 3 as safe to use from several threads at once.
struct EVPDigestTable: @unchecked Sendable {
    /// The process-wide table.
    static let shared = EVPDigestTable()

    private let sha1: OpaquePointer?
    private let sha256: OpaquePointer?
    private let sha384: OpaquePointer?
    private let sha512: OpaquePointer?

    private init() {
        // Fall back to the built-in method tables if an explicit fetch fails (it should not
        // with the default provider); OpenSSL then fetches implicitly on each use.
        sha1 = EVP_MD_fetch(nil, "SHA1", nil) ?? EVP_sha1()
        sha256 = EVP_MD_fetch(nil, "SHA2-256", nil) ?? EVP_sha256()
        sha384 = EVP_MD_fetch(nil, "SHA2-384", nil) ?? EVP_sha384()
        sha512 = EVP_MD_fetch(nil, "SHA2-512", nil) ?? EVP_sha512()
    }

    /// The `EVP_MD` for `algorithm`, or nil if libcrypto provides none.
    func md(_ algorithm: DigestAlgorithm) -> OpaquePointer? {
        switch algorithm {
        case .sha1: return sha1
        case .sha256: return sha256
        case .sha384: return sha384
        case .sha512: return sha512
        }
    }
}
