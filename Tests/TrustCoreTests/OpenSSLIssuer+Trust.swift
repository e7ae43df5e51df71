import TrustCore
import TrustTestSupport
import TrustX509
import OpenSSLServerSupport

extension OpenSSLIssuer {
    /// A trust for `leaf` and `intermediates` (default: the committed ECDSA intermediate) anchored
    /// at `anchors` (default: the committed ECDSA root), evaluated now.
    static func trust(
        _ leaf: Certificate, intermediates: [Certificate]? = nil, anchors: [Certificate]? = nil,
        policies: [TrustPolicy]
    ) throws -> ServerTrust {
        let chain = try intermediates ?? [TestCertificates.certificate("ecdsa/intermediate.pem")]
        let trust = ServerTrust(certificates: [leaf] + chain, policies: policies)
        trust.setAnchorCertificates(try anchors ?? [TestCertificates.certificate("ecdsa/root.pem")])
        return trust
    }
}
