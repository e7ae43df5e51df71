import TrustNames
import TrustX509

/// The subjectAltName extension (RFC 5280 §4.2.1.6, CABF 7.1.2.7.12): its criticality, the syntax of
/// its entries, and its presence in a subscriber certificate.
enum SubjectAltNameRules: ProfileRuleFamily {
    static let specifications: [ProfileRuleSpecification] = [
        ProfileRuleSpecification(
            .subjectAltNameCriticality, profiles: [.rfc5280Strict, .webPKI],
            source: "RFC 5280 §4.2.1.6; CABF 7.1.2.7.12",
            summary: "subjectAltName is critical exactly when the subject is empty, and present then.",
            scope: .certificate),
        ProfileRuleSpecification(
            .subjectAltNameSyntax, profiles: [.rfc5280Strict, .webPKI],
            source: "RFC 5280 §4.2.1.6",
            summary:
                "subjectAltName entries are well-formed: dNSName preferred-name syntax (not an IP address), iPAddress of 4 or 16 octets, rfc822Name a mailbox.",
            scope: .certificate),
        ProfileRuleSpecification(
            .leafSubjectAltNameRequired, profiles: [.webPKI],
            source: "CABF 7.1.2.7.12",
            summary: "A subscriber certificate has a subjectAltName.",
            scope: .certificate),
    ]

    static func checkCertificate(_ subject: ProfileRuleSubject, into report: inout ProfileViolationReport) {
        let subjectIsEmpty = subject.subjectIsEmpty
        if let sanIsCritical = subject.critical(.subjectAltName) {
            if subjectIsEmpty && !sanIsCritical {
                report.check(.subjectAltNameCriticality, .subjectAltNameNotCriticalWithEmptySubject)
            }
            if !subjectIsEmpty && sanIsCritical && subject.isLeaf {
                report.check(.subjectAltNameCriticality, .subjectAltNameCriticalWithSubject)
            }
        } else if subjectIsEmpty {
            report.check(.subjectAltNameCriticality, .emptySubjectWithoutSubjectAltName)
        }
        let subjectAlternativeNames = subject.extensions.subjectAlternativeNames
        if subject.rules.contains(.subjectAltNameSyntax) {
            for name in subjectAlternativeNames ?? [] {
                if let problem = syntaxProblem(name) { report.check(.subjectAltNameSyntax, problem) }
            }
        }
        // CABF 7.1.2.7.12: subscriber certificates carry a SAN (waived when the caller explicitly
        // opted into legacy common-name matching, which exists for SAN-less certificates).
        if subject.isLeaf && subjectAlternativeNames == nil && !subject.flags.allowsCommonNameFallback {
            report.check(.leafSubjectAltNameRequired, .leafSubjectAltNameMissing)
        }
    }

    /// RFC 5280 §4.2.1.6: dNSName entries are preferred-name-syntax host names (a leading `*` label
    /// allowed), iPAddress entries are 4 or 16 octets, rfc822Name entries are mailboxes.
    static func syntaxProblem(_ name: GeneralName) -> ProfileViolationDetail? {
        switch name {
        case let .dnsName(value):
            let utf8 = value.utf8
            let isWildcard =
                utf8.count >= 2 && utf8.first == UInt8(ascii: "*")
                && utf8[utf8.index(after: utf8.startIndex)] == UInt8(ascii: ".")
            let host = isWildcard ? utf8.dropFirst(2) : utf8[...]
            // A valid ASCII host name is LDH labels and dots only, so it is never "*".
            guard IDNA.scanASCIIHostname(host) != nil else {
                return .invalidDNSName(value)
            }
            // An all-numeric last label is an IP address written as a DNS name.
            if lastLabelIsNumeric(host) { return .ipAddressAsDNSName(value) }
            return nil
        case let .ipAddress(bytes):
            return bytes.count == 4 || bytes.count == 16 ? nil : .invalidIPAddressLength(octets: bytes.count)
        case let .rfc822Name(value):
            guard EmailAddress(value) != nil else {
                return .invalidMailbox(value)
            }
            return nil
        default:
            return nil
        }
    }

    /// Whether the last non-empty label of a valid ASCII host name (one trailing dot allowed) is all
    /// decimal digits (for LDH text, the same as `Character.isNumber` on each character).
    static func lastLabelIsNumeric(_ host: Substring.UTF8View) -> Bool {
        var end = host.endIndex
        if end > host.startIndex, host[host.index(before: end)] == UInt8(ascii: ".") { end = host.index(before: end) }
        var position = end
        while position > host.startIndex {
            let previous = host.index(before: position)
            let byte = host[previous]
            if byte == UInt8(ascii: ".") { break }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return false }
            position = previous
        }
        return true
    }
}
