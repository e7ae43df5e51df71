import TrustCore
import TrustPinning
import TrustX509
import TrustTestSupport
import XCTest

/// AFNetworking 3/4's `-evaluateServerTrust:forDomain:` decision table, every combination of
/// pinning mode × allowInvalidCertificates × validatesDomainName × pinned certificates (none,
/// the chain's intermediate, an unrelated root) × chain (valid; untrusted root; expired leaf),
/// for the domain www.swifttrust.test. Derived by hand from AFSecurityPolicy.m:
///
/// - guard: domain && allowInvalid && validatesDomainName && (mode none || nothing pinned) → NO
/// - none: allowInvalid || trust valid
/// - otherwise, !allowInvalid && !trust valid → NO; then
///   certificate: pinned certificates as the only anchors, evaluate, some chain certificate pinned;
///   public key: some key of the (evaluated chain, else presented) certificates pinned.
///
/// Each cell is the expected outcome: `ok`, or the ``SecurityPolicyFailure`` case:
/// `domain` domainValidationRequiresPinning, `eval` evaluationFailed, `none` noPinnedCertificates,
/// `anchor` pinnedAnchorEvaluationFailed, `key` publicKeyNotPinned.
final class SecurityPolicyDecisionTableTests: XCTestCase {
    enum Pins: String, CaseIterable { case nothing, intermediate, unrelated }
    enum Chain: String, CaseIterable { case valid, untrustedRoot, expired }

    struct Row {
        let mode: SecurityPolicy.PinningMode
        let allowInvalid: Bool
        let validatesDomain: Bool
        /// Per pins (nothing, intermediate, unrelated): outcomes for chains (valid, untrustedRoot, expired).
        let cells: [String]
    }

    static let table: [Row] = [
        //   mode          allowInvalid validatesDomain   nothing pinned         intermediate pinned    unrelated root pinned
        Row(mode: .none, allowInvalid: false, validatesDomain: true, cells: ["ok eval eval", "ok eval eval", "ok eval eval"]),
        Row(mode: .none, allowInvalid: false, validatesDomain: false, cells: ["ok eval eval", "ok eval eval", "ok eval eval"]),
        Row(mode: .none, allowInvalid: true, validatesDomain: true, cells: ["domain domain domain", "domain domain domain", "domain domain domain"]),
        Row(mode: .none, allowInvalid: true, validatesDomain: false, cells: ["ok ok ok", "ok ok ok", "ok ok ok"]),
        Row(mode: .certificate, allowInvalid: false, validatesDomain: true, cells: ["none eval eval", "ok eval eval", "anchor eval eval"]),
        Row(mode: .certificate, allowInvalid: false, validatesDomain: false, cells: ["none eval eval", "ok eval eval", "anchor eval eval"]),
        Row(mode: .certificate, allowInvalid: true, validatesDomain: true, cells: ["domain domain domain", "ok ok anchor", "anchor anchor anchor"]),
        Row(mode: .certificate, allowInvalid: true, validatesDomain: false, cells: ["none none none", "ok ok anchor", "anchor anchor anchor"]),
        Row(mode: .publicKey, allowInvalid: false, validatesDomain: true, cells: ["none eval eval", "ok eval eval", "key eval eval"]),
        Row(mode: .publicKey, allowInvalid: false, validatesDomain: false, cells: ["none eval eval", "ok eval eval", "key eval eval"]),
        Row(mode: .publicKey, allowInvalid: true, validatesDomain: true, cells: ["domain domain domain", "ok ok ok", "key key key"]),
        Row(mode: .publicKey, allowInvalid: true, validatesDomain: false, cells: ["none none none", "ok ok ok", "key key key"]),
    ]

    static func trust(_ chain: Chain) throws -> ServerTrust {
        switch chain {
        case .valid: return try TestCertificates.trust(TestCertificates.validChain)
        case .untrustedRoot: return try TestCertificates.trust(TestCertificates.validChain, anchors: ["scenarios/root2.pem"])
        case .expired: return try TestCertificates.trust(TestCertificates.expiredChain)
        }
    }

    static func pinned(_ pins: Pins) throws -> [Certificate] {
        switch pins {
        case .nothing: return []
        case .intermediate: return [try TestCertificates.certificate("ecdsa/intermediate.pem")]
        case .unrelated: return [try TestCertificates.certificate("rsa/root.pem")]
        }
    }

    static func code(_ failure: SecurityPolicyFailure) -> String {
        switch failure {
        case .domainValidationRequiresPinning: return "domain"
        case .evaluationFailed: return "eval"
        case .noPinnedCertificates: return "none"
        case .pinnedAnchorEvaluationFailed: return "anchor"
        case .certificateNotPinned: return "cert"
        case .publicKeyNotPinned: return "key"
        case .chainNotEntirelyPinned: return "chain"
        case .optionsNotEnforceable: return "options"
        case .certificateTransparencyNotEnforceable: return "ct"
        }
    }

    func testTableCoversEveryCombination() {
        let keys = Set(Self.table.map { "\($0.mode) \($0.allowInvalid) \($0.validatesDomain)" })
        XCTAssertEqual(keys.count, SecurityPolicy.PinningMode.allCases.count * 2 * 2)
        XCTAssertEqual(Self.table.count, keys.count)
        XCTAssertTrue(
            Self.table.allSatisfy { row in
                row.cells.count == Pins.allCases.count
                    && row.cells.allSatisfy {
                        $0.split(separator: " ").count == Chain.allCases.count
                    }
            })
    }

    func testDecisionTable() throws {
        var checked = 0
        for row in Self.table {
            for (pins, cell) in zip(Pins.allCases, row.cells) {
                for (chain, expected) in zip(Chain.allCases, cell.split(separator: " ").map(String.init)) {
                    var policy = SecurityPolicy(pinningMode: row.mode, pinnedCertificates: try Self.pinned(pins))
                    policy.allowInvalidCertificates = row.allowInvalid
                    policy.validatesDomainName = row.validatesDomain
                    let label =
                        "mode \(row.mode), allowInvalid \(row.allowInvalid), validatesDomainName \(row.validatesDomain), "
                        + "pinned \(pins), chain \(chain)"

                    let trust = try Self.trust(chain)
                    let outcome: String
                    do {
                        try policy.evaluateWithError(trust, forDomain: TestCertificates.host)
                        outcome = "ok"
                    } catch {
                        outcome = Self.code(error)
                    }
                    XCTAssertEqual(outcome, expected, label)
                    XCTAssertEqual(policy.evaluate(try Self.trust(chain), forDomain: TestCertificates.host), expected == "ok", label)
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, 3 * 2 * 2 * 3 * 3)
    }
}
