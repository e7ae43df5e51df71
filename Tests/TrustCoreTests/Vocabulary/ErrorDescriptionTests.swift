import Foundation
import TrustCore
import TrustCrypto
import TrustDER
import TrustX509
import TrustTestSupport
import XCTest

/// Every public error of TrustDER, TrustCrypto, TrustX509 and TrustCore, raised by the operation
/// that really throws it, reads the same through `LocalizedError` (what `localizedDescription`,
/// logging and UI code show) as through its `description`: never Foundation's generic "The
/// operation could not be completed".
final class ErrorDescriptionTests: XCTestCase {
    func testParsingErrorsAreLocalized() throws {
        assertLocalized(try thrown { () throws(X509Error) in _ = try Certificate(derEncoded: [0x30, 0x80]) })
        let certificateError = try thrown { () throws(X509Error) in _ = try Certificate(derEncoded: [0x30, 0x80]) }
        guard case let .der(derError) = certificateError.reason else { return XCTFail("\(certificateError)") }
        assertLocalized(derError)
        assertLocalized(try thrown { () throws(PEMError) in _ = try PEM.decode("-----BEGIN CERTIFICATE-----\nAAAA\n") })
        assertLocalized(try thrown { () throws(SignatureError) in _ = try PublicKeyDescription(spki: [0x30, 0x00][...]) })
        assertLocalized(try thrown { () throws(CertificateLoadingError) in _ = try Certificate.loadAll(pem: "no certificate here") })
    }

    func testTrustCoreErrorsAreLocalizedWithWhatToDo() throws {
        let missing = "/nonexistent/swifttrust-\(UUID().uuidString).pem"
        let store = try thrown { () throws(SystemTrustStoreError) in _ = try SystemTrustStore.load(environment: ["SSL_CERT_FILE": missing]) }
        XCTAssertEqual(store, .unreadable(variable: "SSL_CERT_FILE", path: missing, problem: .doesNotExist))
        assertLocalized(store)

        let suffixes = try thrown { () throws(PublicSuffixListError) in _ = try PublicSuffixList(parsing: "// only a comment\n") }
        XCTAssertEqual(suffixes, .noRules)
        assertLocalized(suffixes)
        XCTAssertNotNil(suffixes.recoverySuggestion)

        let trust = try TestCertificates.trust(["ecdsa/chain.pem"])
        trust.verifyDate = Date(timeIntervalSince1970: 4_102_444_800) // 2100-01-01: every certificate expired
        let evaluation = try thrown { () throws(TrustEvaluationError) in _ = try trust.evaluateWithError() }
        assertLocalized(evaluation)
        XCTAssertNotNil(evaluation.recoverySuggestion)
        guard case .expired? = evaluation.evaluation.failures.first?.reason else { return XCTFail("\(evaluation)") }
    }

    func testEvaluationsAndTheirErrorsAreHashable() throws {
        let trust = try TestCertificates.trust(["ecdsa/chain.pem"])
        trust.verifyDate = Date(timeIntervalSince1970: 4_102_444_800)
        let first = trust.evaluate()
        let again = trust.evaluate()
        trust.verifyDate = TestCertificates.verifyDate
        let trusted = trust.evaluate()
        XCTAssertEqual(Set([first, again, trusted]).count, 2)
        trust.verifyDate = Date(timeIntervalSince1970: 4_102_444_800)
        let errors = try (0..<2).map { _ in try thrown { () throws(TrustEvaluationError) in _ = try trust.evaluateWithError() } }
        XCTAssertEqual(Set(errors).count, 1)
        XCTAssertEqual(errors.first?.evaluation, first)
    }

    // MARK: - Helpers

    /// The error `body` throws, failing the test when it returns.
    private func thrown<Failure: Error>(
        file: StaticString = #filePath, line: UInt = #line,
        _ body: () throws(Failure) -> Void
    ) throws -> Failure {
        do {
            try body()
        } catch {
            return error
        }
        XCTFail("no error thrown", file: file, line: line)
        throw XCTSkip("nothing to check")
    }

    private func assertLocalized(_ error: some Error & CustomStringConvertible, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual((error as? any LocalizedError)?.errorDescription, error.description, file: file, line: line)
        XCTAssertEqual(error.localizedDescription, error.description, file: file, line: line)
        XCTAssertFalse(error.description.isEmpty, file: file, line: line)
    }
}
