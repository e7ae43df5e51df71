import Foundation
import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// TrustPinning's public errors read the same through `LocalizedError` as through `description`,
/// and its failure reasons are `Hashable`: a caller compares them, keeps them in a set, switches on
/// them, never on their text.
final class PinningErrorDescriptionTests: XCTestCase {
    /// A caller's error type that cannot be compared.
    private struct Opaque: Error { let detail: String }
    /// Another one.
    private struct OtherOpaque: Error {}
    private struct Rejected: Error, Hashable { let code: Int }

    func testErrorsAreLocalized() throws {
        let expired = try XCTUnwrap(failureReason(of: DefaultTrustEvaluator(), try TestCertificates.trust(TestCertificates.expiredChain)))
        assertLocalized(expired)
        XCTAssertNotNil(expired.recoverySuggestion)

        let policy = SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: [try TestCertificates.certificate("rsa/root.pem")])
        let trust = try TestCertificates.trust(TestCertificates.validChain)
        do {
            try policy.evaluateWithError(trust, forDomain: TestCertificates.host)
            XCTFail("a chain without the pinned key must fail")
        } catch {
            guard case .publicKeyNotPinned = error else { return XCTFail("\(error)") }
            assertLocalized(error)
            XCTAssertNotNil(error.recoverySuggestion)
        }

        XCTAssertThrowsError(try HostPattern("a.*.example.com")) { error in
            guard let error = error as? PinningConfigurationError, case .invalidHostPattern = error else { return XCTFail("\(error)") }
            assertLocalized(error)
        }
        let absent = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-absent-\(UUID().uuidString)").path
        XCTAssertThrowsError(try CertificateBundle(directory: absent)) { error in
            guard let error = error as? CertificateBundle.DirectoryError else { return XCTFail("\(error)") }
            assertLocalized(error)
            XCTAssertEqual(error.path, absent)
        }
    }

    func testFailureReasonsAreHashable() throws {
        let expired = { failureReason(of: DefaultTrustEvaluator(), try TestCertificates.trust(TestCertificates.expiredChain)) }
        let wrongHost = failureReason(
            of: DefaultTrustEvaluator(), try TestCertificates.trust(TestCertificates.validChain), host: TestCertificates.otherHost)
        let reasons = try [expired(), expired(), wrongHost].map { try XCTUnwrap($0) }
        XCTAssertEqual(reasons[0], reasons[1])
        XCTAssertEqual(Set(reasons).count, 2)
        switch reasons[2] {
        case let .trustEvaluationFailed(host, .hostValidation, failures):
            XCTAssertEqual(host, TestCertificates.otherHost)
            guard case .hostnameMismatch? = failures.first?.reason else { return XCTFail("\(failures)") }
        default:
            XCTFail("\(reasons[2])")
        }
    }

    func testCustomErrorsCompareByValueWhenEquatableAndOtherwiseByType() throws {
        let trust = try TestCertificates.trust(TestCertificates.validChain)
        func rejection(_ error: any Error) throws -> ServerTrustFailureReason {
            try XCTUnwrap(failureReason(of: CustomTrustEvaluator { _, _ in throw error }, trust))
        }
        XCTAssertEqual(try rejection(Rejected(code: 1)), try rejection(Rejected(code: 1)))
        XCTAssertNotEqual(try rejection(Rejected(code: 1)), try rejection(Rejected(code: 2)))
        XCTAssertEqual(try rejection(Opaque(detail: "a")), try rejection(Opaque(detail: "b")))
        XCTAssertNotEqual(try rejection(Opaque(detail: "a")), try rejection(OtherOpaque()))
        XCTAssertNotEqual(try rejection(Rejected(code: 1)), try rejection(OtherOpaque()))
        let set: Set = try [
            rejection(Rejected(code: 1)), rejection(Rejected(code: 1)), rejection(Opaque(detail: "a")),
            rejection(Opaque(detail: "b")), rejection(OtherOpaque()),
        ]
        XCTAssertEqual(set.count, 3)
    }

    private func assertLocalized(_ error: some Error & CustomStringConvertible, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual((error as? any LocalizedError)?.errorDescription, error.description, file: file, line: line)
        XCTAssertEqual(error.localizedDescription, error.description, file: file, line: line)
    }
}
