import Foundation
import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

extension TestCertificates {
    /// A trust for the presented files (leaf first), anchored at `anchors` only, at the verify date.
    static func trust(_ presented: [String], anchors: [String] = ["ecdsa/root.pem"]) throws -> ServerTrust {
        let trust = ServerTrust(certificates: try presented.flatMap { try certificates($0) })
        trust.setAnchorCertificates(try anchors.flatMap { try certificates($0) })
        trust.verifyDate = verifyDate
        return trust
    }

    /// Named presented chains.
    static let validChain = ["ecdsa/chain.pem"]
    static let expiredChain = ["ecdsa/leaf-expired.pem", "ecdsa/intermediate.pem"]
    static let selfSigned = ["ecdsa/self-signed-leaf.pem"]
}

extension ServerTrustFailureReason {
    /// The case name without associated values (with the stage of a failed evaluation), for compact assertions.
    var caseName: String {
        switch self {
        case .noRequiredEvaluator: return "noRequiredEvaluator"
        case .noCertificatesFound: return "noCertificatesFound"
        case .noPublicKeysFound: return "noPublicKeysFound"
        case .trustEvaluationFailed(_, .defaultValidation, _): return "trustEvaluationFailed/default"
        case .trustEvaluationFailed(_, .hostValidation, _): return "trustEvaluationFailed/host"
        case .trustEvaluationFailed(_, .revocation, _): return "trustEvaluationFailed/revocation"
        case .certificatePinningFailed: return "certificatePinningFailed"
        case .publicKeyPinningFailed: return "publicKeyPinningFailed"
        case .optionsNotEnforceable: return "optionsNotEnforceable"
        case .certificateTransparencyNotEnforceable: return "certificateTransparencyNotEnforceable"
        case .pinSetMismatch: return "pinSetMismatch"
        case .customEvaluationFailed: return "customEvaluationFailed"
        }
    }
}

/// "pass" when `evaluator` accepts `trust` for `host`, else the failure's case name
/// (or "other: <error>" for an error that is not a ``ServerTrustFailureReason``).
func outcome(of evaluator: any ServerTrustEvaluating, _ trust: ServerTrust, host: String = TestCertificates.host) -> String {
    do {
        try evaluator.evaluate(trust, forHost: host)
        return "pass"
    } catch let reason as ServerTrustFailureReason {
        return reason.caseName
    } catch {
        return "other: \(error)"
    }
}

/// The ``ServerTrustFailureReason`` `evaluator` throws, failing the test when it passes.
func failureReason(
    of evaluator: any ServerTrustEvaluating, _ trust: ServerTrust, host: String = TestCertificates.host,
    file: StaticString = #filePath, line: UInt = #line
) -> ServerTrustFailureReason? {
    do {
        try evaluator.evaluate(trust, forHost: host)
        XCTFail("expected a failure", file: file, line: line)
    } catch let reason as ServerTrustFailureReason {
        return reason
    } catch {
        XCTFail("unexpected error \(error)", file: file, line: line)
    }
    return nil
}

/// One row of an evaluator matrix.
struct EvaluatorCase {
    let name: String
    let presented: [String]
    var anchors: [String] = ["ecdsa/root.pem"]
    var host: String = TestCertificates.host
    let evaluator: any ServerTrustEvaluating
    let expected: String
}

/// Runs every row on a fresh trust and checks its outcome.
func assertMatrix(_ rows: [EvaluatorCase], file: StaticString = #filePath, line: UInt = #line) throws {
    for row in rows {
        let trust = try TestCertificates.trust(row.presented, anchors: row.anchors)
        XCTAssertEqual(outcome(of: row.evaluator, trust, host: row.host), row.expected, row.name, file: file, line: line)
    }
}
