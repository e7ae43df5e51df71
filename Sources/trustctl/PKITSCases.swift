import Foundation
import SwiftTrust

/// One PKITS test (or one subpart of a test the PKITS document runs with several settings), as
/// listed in `scripts/pkits-cases.tsv`.
struct PKITSCase {
    /// `4.8.1.3`: section, test and, for a test with several settings, the subpart.
    let id: String
    /// The end-entity certificate's file name without `.crt`.
    let endEntity: String
    /// Whether the path must validate.
    let expectsValid: Bool
    /// RFC 5280 §6.1.1 (c) user-initial-policy-set.
    var initialPolicySet: Set<ASN1ObjectIdentifier> = [OID.anyPolicy]
    /// §6.1.1 (f), (e), (g).
    var initialExplicitPolicy = false
    var initialPolicyMappingInhibit = false
    var initialAnyPolicyInhibit = false
    /// The user-constrained-policy-set the document expects when the path validates.
    var expectedPolicies: Set<ASN1ObjectIdentifier> = [PKITSCase.testPolicy(1)]
    /// The document expects the path to be rejected only because the end entity's (or a CA's)
    /// revocation status cannot be determined (no CRL in scope, a stale one): a relying party that
    /// accepts unknown status (soft fail) accepts it. Revoked certificates, and CRLs the caller
    /// supplied that fail their checks, are rejected in either mode.
    var statusUndetermined = false

    /// The sections whose cases are also run in soft-fail mode.
    static let revocationSections: Set<String> = ["4.4", "4.5", "4.14", "4.15"]

    /// Whether the path must validate when unknown revocation status is accepted (soft fail).
    var expectsValidSoftFail: Bool { expectsValid || statusUndetermined }

    /// `4.8` for `4.8.1.3`.
    var section: String { id.split(separator: ".").prefix(2).joined(separator: ".") }

    /// NIST-test-policy-`number`: 2.16.840.1.101.3.2.1.48.`number`.
    static func testPolicy(_ number: Int) -> ASN1ObjectIdentifier { ASN1ObjectIdentifier(stringLiteral: "2.16.840.1.101.3.2.1.48.\(number)") }

    /// A malformed line of the case list.
    struct FormatError: Error, CustomStringConvertible {
        let line: Int
        let message: String
        var description: String { "line \(line): \(message)" }
    }

    /// Parses the case list: `id<TAB>end-entity<TAB>valid|invalid[<TAB>settings]`, `#` comments.
    static func parseList(_ text: String) throws(FormatError) -> [PKITSCase] {
        var cases: [PKITSCase] = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 3 || fields.count == 4, fields[2] == "valid" || fields[2] == "invalid" else {
                throw FormatError(line: offset + 1, message: "expected id, end entity, valid|invalid and optional settings")
            }
            var testCase = PKITSCase(id: fields[0], endEntity: fields[1], expectsValid: fields[2] == "valid")
            for setting in (fields.count == 4 ? fields[3].split(separator: " ") : []) {
                try testCase.apply(String(setting), line: offset + 1)
            }
            cases.append(testCase)
        }
        return cases
    }

    /// Applies one setting token (see the header of `scripts/pkits-cases.tsv`).
    private mutating func apply(_ setting: String, line: Int) throws(FormatError) {
        switch setting {
        case "explicit": initialExplicitPolicy = true
        case "inhibit-mapping": initialPolicyMappingInhibit = true
        case "inhibit-any": initialAnyPolicyInhibit = true
        case "undetermined": statusUndetermined = true
        default:
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let policies = PKITSCase.policies(parts[1]) else {
                throw FormatError(line: line, message: "unknown setting \(setting)")
            }
            switch parts[0] {
            case "initial": initialPolicySet = policies
            case "ucps": expectedPolicies = policies
            default: throw FormatError(line: line, message: "unknown setting \(setting)")
            }
        }
    }

    /// `P1,P2` → NIST test policies 1 and 2; `any` → anyPolicy; `none` → the empty set.
    private static func policies(_ list: String) -> Set<ASN1ObjectIdentifier>? {
        if list == "none" { return [] }
        var result: Set<ASN1ObjectIdentifier> = []
        for item in list.split(separator: ",") {
            if item == "any" {
                result.insert(OID.anyPolicy)
            } else if item.hasPrefix("P"), let number = Int(item.dropFirst()), (1...9).contains(number) {
                result.insert(testPolicy(number))
            } else {
                return nil
            }
        }
        return result
    }
}
