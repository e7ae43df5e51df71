import Foundation
import NIOCore
import TrustCore
import TrustNIO
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// TrustNIO's rejections are `Hashable` (a caller switches on them, keeps them in a set, compares
/// them, never their text) and read the same through `LocalizedError` as through `description`.
/// The verifier is called directly with parsed certificates: no handshake is needed to reject.
final class TLSTrustFailureComparisonTests: XCTestCase {
    private struct Rejected: Error, Hashable { let code: Int }

    func testRejectionsOfTheSameChainAreEqualAndLocalized() async throws {
        let verifier = try TLSTrustVerifier(settings: try TestCertificates.settings())
        let clientChain = try ["ecdsa/leaf-client.pem", "ecdsa/intermediate.pem"].flatMap(TestCertificates.certificates)
        let asServer = try await rejected(verifier.verify(clientChain, role: .server(host: TestCertificates.host)))
        let again = try await rejected(verifier.verify(clientChain, role: .server(host: TestCertificates.host)))
        let empty = try await rejected(verifier.verify([Certificate](), role: .client))
        XCTAssertEqual(asServer, again)
        XCTAssertEqual(empty, .noPeerCertificates)
        XCTAssertEqual(Set([asServer, again, empty]).count, 2)
        guard case .evaluationFailed = asServer else { return XCTFail("\(asServer)") }
        XCTAssertTrue(
            contains(asServer.trustFailures, index: 0) { if case .extendedKeyUsageIncompatible = $0 { true } else { false } },
            "\(asServer)")
        for failure in [asServer, empty] {
            XCTAssertEqual(failure.errorDescription, failure.description)
            XCTAssertEqual(failure.localizedDescription, failure.description)
        }
        let error = TLSTrustError(failure: asServer, tlsError: ChannelError.ioOnClosedChannel)
        XCTAssertEqual(error.localizedDescription, error.description)
        XCTAssertEqual(error.recoverySuggestion, asServer.recoverySuggestion)
        XCTAssertEqual(error, TLSTrustError(failure: again, tlsError: ChannelError.ioOnClosedChannel))
        XCTAssertNotEqual(error, TLSTrustError(failure: empty, tlsError: ChannelError.ioOnClosedChannel))
    }

    func testEvaluatorErrorsCompareByValue() async throws {
        let chain = try TestCertificates.certificates("ecdsa/chain.pem")
        func rejection(_ code: Int) async throws -> TLSTrustFailure {
            let verifier = try TLSTrustVerifier(
                evaluator: CustomTrustEvaluator { _, _ in throw Rejected(code: code) },
                settings: try TestCertificates.settings())
            return try await rejected(verifier.verify(chain, role: .server(host: TestCertificates.host)))
        }
        let one = try await rejection(1)
        guard case let .judgeRejected(host, failure) = one else { return XCTFail("\(one)") }
        XCTAssertEqual(host, TestCertificates.host)
        guard case let .customEvaluationFailed(_, thrown)? = failure.base as? ServerTrustFailureReason else { return XCTFail("\(failure)") }
        XCTAssertEqual(thrown.error as? Rejected, Rejected(code: 1))
        let sameAgain = try await rejection(1)
        let two = try await rejection(2)
        XCTAssertEqual(one, sameAgain)
        XCTAssertNotEqual(one, two)
        XCTAssertEqual(Set([one, sameAgain, two]).count, 2)
    }

    func testConfigurationAndUploadErrorsAreLocalizedAndHashable() {
        let configuration: [TLSTrustConfigurationError] = [.certificateVerificationDisabled, .clientCertificatesNeedPlainEvaluation]
        let uploads: [PinReportUploadError] = [
            .unsupportedScheme("ftp"), .connectionFailed(ComparableError(ChannelError.ioOnClosedChannel)),
            .connectionFailed(ComparableError(ChannelError.eof)), .timedOut,
        ]
        for error in configuration as [any Error & CustomStringConvertible] + uploads {
            XCTAssertEqual((error as? any LocalizedError)?.errorDescription, error.description)
            XCTAssertEqual(error.localizedDescription, error.description)
        }
        XCTAssertEqual(Set(uploads + [.connectionFailed(ComparableError(ChannelError.eof))]).count, 4)
    }

    private func rejected(_ outcome: TLSTrustOutcome, file: StaticString = #filePath, line: UInt = #line) throws -> TLSTrustFailure {
        guard case let .rejected(failure) = outcome else {
            XCTFail("the peer was trusted", file: file, line: line)
            throw XCTSkip("nothing to compare")
        }
        return failure
    }
}
