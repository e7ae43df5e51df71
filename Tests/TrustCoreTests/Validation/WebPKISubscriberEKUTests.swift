import TrustTestSupport
import XCTest
@testable import TrustCore
import TrustDER
import TrustX509

/// CABF 7.1.2.7.10: a subscriber certificate's extKeyUsage is non-critical and never lists
/// anyExtendedKeyUsage. The profile rules are checked directly on re-encoded leaves (their
/// signatures no longer verify, which the profile does not look at).
final class WebPKISubscriberEKUTests: XCTestCase {
    private let serverAuth: [UInt8] = TestDER.tlv(0x06, [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01])
    private let anyEKU: [UInt8] = TestDER.tlv(0x06, [0x55, 0x1D, 0x25, 0x00])

    /// The leaf with its extKeyUsage replaced by `purposes`, critical or not.
    private func leaf(purposes: [[UInt8]], critical: Bool) throws -> Certificate {
        var editable = EditableCertificate(try TestCertificates.certificate("ecdsa/leaf.pem"))
        guard let wrapper = editable.fields.last, wrapper.first == 0xA3 else { throw XCTSkip("leaf has no extensions") }
        let list = TestDER.children(TestDER.element(in: wrapper[...], at: 0).content)
        let sequence = TestDER.element(in: list[0].encoded, at: list[0].encoded.startIndex)
        var extensions: [[UInt8]] = []
        for ext in TestDER.children(sequence.content) {
            let oid = TestDER.children(ext.content).first.map { Array($0.encoded) }
            if oid == TestDER.tlv(0x06, [0x55, 0x1D, 0x25]) {
                var parts = [TestDER.tlv(0x06, [0x55, 0x1D, 0x25])]
                if critical { parts.append(TestDER.tlv(0x01, [0xFF])) }
                parts.append(TestDER.tlv(0x04, TestDER.sequence(purposes)))
                extensions.append(TestDER.sequence(parts))
            } else {
                extensions.append(Array(ext.encoded))
            }
        }
        editable.fields[editable.fields.count - 1] = TestDER.tlv(0xA3, TestDER.sequence(extensions))
        return try editable.parse()
    }

    private func violations(_ certificate: Certificate) throws -> [String] {
        let options = ValidationRequest.testing(verifyTime: DERTimeFixture.verifyTime, profile: .webPKI, purposes: [.serverAuth])
        let flags = try CertificateProfileRules.flags(
            of: certificate, at: 0, chainCount: 1, isAnchor: false, rootSource: .caller,
            options: options, isSignedByAnotherKey: { _ in false })
        return CertificateProfileRules.violations(of: certificate, flags: flags).map(\.description)
    }

    func testPlainServerAuthLeafHasNoEKUViolation() throws {
        let certificate = try leaf(purposes: [serverAuth], critical: false)
        let found = try violations(certificate)
        XCTAssertFalse(found.contains { $0.contains("extKeyUsage") }, "\(found)")
    }

    func testCriticalLeafEKUIsAViolation() throws {
        let certificate = try leaf(purposes: [serverAuth], critical: true)
        let found = try violations(certificate)
        XCTAssertTrue(found.contains { $0.contains("is critical") }, "\(found)")
    }

    func testAnyExtendedKeyUsageInALeafIsAViolation() throws {
        let certificate = try leaf(purposes: [serverAuth, anyEKU], critical: false)
        let found = try violations(certificate)
        XCTAssertTrue(found.contains { $0.contains("anyExtendedKeyUsage") }, "\(found)")
    }
}

/// The verify date used across TrustCore tests (2026-06-01T00:00:00Z).
enum DERTimeFixture {
    static var verifyTime: DERTime {
        guard let time = DERTime(secondsSince1970: 1_780_272_000) else { preconditionFailure("constant date") }
        return time
    }
}
