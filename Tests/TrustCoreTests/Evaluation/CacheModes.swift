import TrustCore
import TrustCrypto
import TrustX509
import XCTest

/// The three ways an evaluation can meet the process-wide caches (issue 13 item 7).
enum CacheMode: String, CaseIterable {
    /// Caches on, holding whatever earlier evaluations (earlier tests, other options) stored.
    case asLeft = "caches on, as earlier evaluations left them"
    /// ``TrustCaches/isEnabled`` false: nothing is looked up or stored.
    case off = "caches off"
    /// Caches on, every shared cache emptied first: everything is computed and stored.
    case emptied = "caches on, emptied first"

    /// Empties the three process-wide caches.
    static func emptyAll() {
        VerificationKeyCache.shared.removeAll()
        SignatureCache.shared.removeAll()
        ProfileVerdictCache.shared.removeAll()
    }
}

extension ServerTrust {
    /// Evaluates once per ``CacheMode``, asserts that the verdict and everything that explains it — the
    /// result, the chain, every failure (index and complete reason), every path attempt and the
    /// revocation statuses — are identical each time, and returns the first evaluation.
    ///
    /// Not for evaluations running concurrently with each other: the switch is process-wide.
    func evaluateInEveryCacheMode(file: StaticString = #filePath, line: UInt = #line) -> TrustEvaluation {
        let wasEnabled = TrustCaches.isEnabled
        defer { TrustCaches.isEnabled = wasEnabled }
        var evaluations: [(mode: CacheMode, evaluation: TrustEvaluation)] = []
        for mode in CacheMode.allCases {
            if mode == .emptied { CacheMode.emptyAll() }
            TrustCaches.isEnabled = mode != .off
            evaluations.append((mode, evaluate()))
        }
        let reference = evaluations[0]
        for (mode, evaluation) in evaluations.dropFirst() {
            let context = "\(mode.rawValue) vs \(reference.mode.rawValue)"
            XCTAssertEqual(evaluation.result, reference.evaluation.result, context, file: file, line: line)
            XCTAssertEqual(evaluation.chain, reference.evaluation.chain, context, file: file, line: line)
            XCTAssertEqual(evaluation.failures, reference.evaluation.failures, context, file: file, line: line)
            XCTAssertEqual(evaluation.attempts, reference.evaluation.attempts, context, file: file, line: line)
            XCTAssertEqual(evaluation.revocationStatuses, reference.evaluation.revocationStatuses, context, file: file, line: line)
        }
        return reference.evaluation
    }
}
