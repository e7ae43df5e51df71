import SwiftTrust

/// One fetch that gave nothing and why, as `--json` prints it.
struct FetchFailureReport: Encodable {
    let url: String
    /// `CRL`, `OCSP` or `caIssuers`.
    let purpose: String
    /// e.g. `fetch refused: 10.0.0.5 is a private-use address`, `HTTP 404`.
    let reason: String

    init(_ failure: FetchFailure) {
        url = failure.url
        purpose = failure.purpose.description
        reason = failure.reason.description
    }

    /// The reports of `failures`, nil when there are none (left out of the JSON).
    static func reports(_ failures: [FetchFailure]) -> [FetchFailureReport]? {
        failures.isEmpty ? nil : failures.map(FetchFailureReport.init)
    }
}

/// One certificate's revocation status with the fetches that gave nothing, as `serve` and `probe`
/// print them for an accepted peer.
struct RevocationReport: Encodable {
    let index: Int
    let subject: String
    let status: String
    let fetchFailures: [FetchFailureReport]?

    /// The checked statuses of `evaluation` (none when revocation was not checked).
    static func reports(of evaluation: TrustEvaluation?) -> [RevocationReport] {
        (evaluation?.revocationStatuses ?? []).compactMap { status in
            if case .notChecked = status.status { return nil }
            return RevocationReport(
                index: status.index, subject: status.subject, status: status.status.description,
                fetchFailures: FetchFailureReport.reports(status.fetchFailures))
        }
    }

    /// `revocation of certificate N (subject): status`.
    var text: String { "revocation of certificate \(index) (\(subject)): \(status)" }
}
