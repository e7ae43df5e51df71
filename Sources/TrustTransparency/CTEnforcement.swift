import Foundation
import TrustX509

/// When trustd requires Certificate Transparency of a chain (`SecPolicyCheckSystemTrustedCTRequired`
/// in `SecPolicyServer.c`), the part that depends on the leaf and the log list.
///
/// trustd enforces CT only when all of these hold; otherwise it skips the check (fails open):
/// 1. the CT kill switch is off;
/// 2. the policy is the SSL server policy (not a pinning policy, and not one that turned the check off);
/// 3. the log list is fresh (checked in within 60 days) or the caller set trusted logs
///    (`SecTrustSetTrustedLogs`);
/// 4. the leaf's notBefore is on or after 2018-10-16 and the leaf is valid at the evaluation time;
/// 5. the chain ends at a root of the system anchor source that is not one of Apple's own roots;
///    never at user, administrator or caller anchors;
/// 6. no CT exception (by domain or by CA key) applies.
///
/// ``exemption(of:at:logs:logsSetByCaller:)`` decides 3 and 4. The others are the caller's (the
/// trust evaluation's, which reports them as ``Exemption/notSSLServerPolicy`` and
/// ``Exemption/anchorNotSystemRoot``): it knows the policy and where the chain is anchored. There
/// is no kill switch, and no exception list (trustd's `is_ct_excepted`: domains or CA keys an MDM
/// profile exempts). When CT is enforced and
/// ``CTEvaluation/isQualified`` is false, trustd reports `kSecPolicyCheckSystemTrustedCTRequired`
/// as a recoverable failure.
public enum CTEnforcement {
    /// 2018-10-16T00:00:00Z: leaves valid from before then are never required to be CT-qualified
    /// (trustd's `561340800.0`, in seconds since 2001).
    public static let earliestNotBefore = Date(timeIntervalSince1970: 1_539_648_000)

    /// Why trustd would not enforce CT for a leaf.
    public enum Exemption: Hashable, Sendable, CustomStringConvertible {
        /// The log list was not updated within 60 days of the evaluation time, and the caller did
        /// not set the trusted logs.
        case staleLogList(updated: Date?)
        /// The leaf's notBefore is before 2018-10-16.
        case issuedBeforeEnforcement(notBefore: Date)
        /// The leaf is not valid at the evaluation time.
        case leafNotCurrentlyValid
        /// The evaluation's policies do not include the SSL server policy (trustd checks CT for
        /// `kSecPolicyNameSSLServer` only: not for clients, not for other purposes).
        case notSSLServerPolicy
        /// The chain does not end at a root of the system anchor source: a caller's, an
        /// administrator's or no anchor at all (trustd's `SecCertificateSourceContains(kSecSystemAnchorSource, root)`).
        case anchorNotSystemRoot

        /// The reason in words.
        public var description: String {
            switch self {
            case let .staleLogList(updated):
                return "the CT log list was " + (updated.map { "last updated \(CTTime.text($0))" } ?? "never known to be current")
                    + ", more than 60 days ago"
            case let .issuedBeforeEnforcement(notBefore):
                return "the leaf's notBefore \(CTTime.text(notBefore)) is before 2018-10-16"
            case .leafNotCurrentlyValid:
                return "the leaf is not valid at the evaluation time"
            case .notSSLServerPolicy:
                return "the policies do not include the SSL server policy"
            case .anchorNotSystemRoot:
                return "the chain does not end at a system root (caller and administrator anchors are exempt)"
            }
        }
    }

    /// Why CT is not enforced for `leaf` at `date` with `logs`, or nil when it is (as far as the
    /// leaf and the list decide).
    ///
    /// - Parameter logsSetByCaller: the caller configured the trusted logs (trustd's
    ///   `SecTrustSetTrustedLogs`): the list's age then does not matter.
    public static func exemption(of leaf: Certificate, at date: Date, logs: CTLogList, logsSetByCaller: Bool) -> Exemption? {
        guard logsSetByCaller || logs.isFresh(at: date) else { return .staleLogList(updated: logs.updated) }
        let notBefore = Date(timeIntervalSince1970: Double(leaf.notBefore.secondsSince1970))
        let notAfter = Date(timeIntervalSince1970: Double(leaf.notAfter.secondsSince1970))
        guard notBefore >= earliestNotBefore else { return .issuedBeforeEnforcement(notBefore: notBefore) }
        // SecCertificateIsValid: notBefore <= t <= notAfter.
        guard notBefore <= date, date <= notAfter else { return .leafNotCurrentlyValid }
        return nil
    }
}
