import Foundation
import TrustCrypto
import TrustDER
import TrustX509

// `LocalizedError` for the errors of TrustDER, TrustCrypto and TrustX509, declared here because
// those modules do not import Foundation (they depend on nothing but libcrypto, and the fuzz
// targets compile them alone); TrustCore is the first layer that does, and every evaluation links
// it. Each message is the type's own `description`, written once, in its module.

extension DERError: LocalizedError {
    /// Same as `description`.
    public var errorDescription: String? { description }
}

extension PEMError: LocalizedError {
    /// Same as `description`.
    public var errorDescription: String? { description }
}

extension SignatureError: LocalizedError {
    /// Same as `description`.
    public var errorDescription: String? { description }
}

extension X509Error: LocalizedError {
    /// Same as `description`.
    public var errorDescription: String? { description }
}

extension CertificateLoadingError: LocalizedError {
    /// Same as `description`.
    public var errorDescription: String? { description }
}
