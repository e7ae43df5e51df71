import TrustCore
import TrustNames

/// Text rendering of ``ChainDiagnostics`` for terminals and logs.
extension ChainDiagnostics {
    /// How to render text.
    public enum TextStyle: Sendable {
        /// No colour, ASCII symbols: for files, pipes and `NO_COLOR`.
        case plain
        /// ANSI colours and symbols: for terminals.
        case color
    }

    /// The report as text: presented certificates, the built chain as a tree from the anchor down,
    /// every explored path, findings (errors first), and the verdict.
    ///
    /// Safe to write to a terminal as it is: every value taken from the report (subjects, SANs,
    /// reasons…) is escaped with `TerminalText.escaped(_:)` before the `.color` codes are added.
    public func text(style: TextStyle) -> String {
        var renderer = TextRenderer(color: style == .color)
        renderer.presented(presented)
        renderer.tree(self)
        renderer.paths(paths)
        renderer.findings(findings)
        renderer.verdict(self)
        return renderer.lines.map(\.text).joined(separator: "\n")
    }
}

/// One line of the text report. Interpolated values are escaped (they come from certificates);
/// literals and interpolated lines (the renderer's own colour codes) are kept as they are.
private struct Line: ExpressibleByStringInterpolation {
    struct StringInterpolation: StringInterpolationProtocol {
        var text = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity)
        }

        mutating func appendLiteral(_ literal: String) { text += literal }

        mutating func appendInterpolation(_ value: some CustomStringConvertible) { text += TerminalText.escaped(value.description) }

        mutating func appendInterpolation(_ line: Line) { text += line.text }
    }

    let text: String

    init(stringLiteral value: String) { text = value }

    init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }

    /// A line whose text is already safe.
    private init(safe text: String) { self.text = text }

    /// `text`, escaped, between the SGR codes `code` and reset.
    static func painted(_ text: String, _ code: String) -> Line {
        Line(safe: "\u{1B}[\(code)m" + TerminalText.escaped(text) + "\u{1B}[0m")
    }

    static func + (lhs: Line, rhs: Line) -> Line { Line(safe: lhs.text + rhs.text) }
}

/// Builds the lines of ``ChainDiagnostics/text(style:)``.
private struct TextRenderer {
    let color: Bool
    var lines: [Line] = []

    init(color: Bool) {
        self.color = color
    }

    func paint(_ text: String, _ code: String) -> Line { color ? Line.painted(text, code) : "\(text)" }
    var ok: Line { color ? paint("✔", "32") : "[ok]" }
    var bad: Line { color ? paint("✘", "31") : "[x]" }
    var warn: Line { color ? paint("!", "33") : "[!]" }
    var info: Line { color ? paint("i", "36") : "[i]" }
    func heading(_ text: String) -> Line { paint(text, "1") }

    mutating func presented(_ presented: [ChainDiagnostics.PresentedCertificate]) {
        lines.append(heading("Presented certificates") + " (\(presented.count), in the order received)")
        for certificate in presented {
            let notes = certificate.notes.isEmpty ? "" : "  — " + certificate.notes.joined(separator: "; ")
            lines.append("  #\(certificate.index) \(certificate.subject)\(notes)")
        }
        lines.append("")
    }

    mutating func tree(_ report: ChainDiagnostics) {
        lines.append(heading("Built chain") + (report.endsAtAnchor ? " (trust anchor first)" : " (does not reach a trust anchor)"))
        var depth = 0
        if let end = report.chainEnd {
            lines.append("  └─ \(bad) " + paint(end, "31;1"))
            depth = 1
        }
        for node in report.chain.reversed() {
            let indent = String(repeating: "   ", count: depth)
            depth += 1
            let days: Line
            if node.daysRemaining < 0 {
                days = "\(bad) " + paint("EXPIRED \(-node.daysRemaining) days ago", "31")
            } else if Int64(node.daysRemaining) < ChainFindings.expiryWarningDays {
                days = "\(warn) " + paint("\(node.daysRemaining) days left", "33")
            } else {
                days = "\(node.daysRemaining) days left"
            }
            let role = node.role == "untrusted root" ? paint(node.role, "31") : "\(node.role)"
            lines.append("  \(indent)└─ \(paint(node.subject, "1")) [\(role), \(node.origin)]")
            let pad = "  \(indent)   "
            lines.append("\(pad)issuer:    \(node.issuer)")
            lines.append("\(pad)serial:    \(node.serialNumber)")
            lines.append("\(pad)validity:  \(node.notBefore) → \(node.notAfter) (\(days))")
            lines.append("\(pad)key:       \(node.publicKey), signed with \(node.signatureAlgorithm)")
            if let sans = node.subjectAlternativeNames {
                lines.append("\(pad)SANs:      \(sans.isEmpty ? "(none)" : sans.joined(separator: ", "))")
            }
            lines.append("\(pad)SPKI pin:  \(node.spkiPin)")
            lines.append("\(pad)SHA-256:   \(node.sha256Fingerprint)")
            for sct in node.signedCertificateTimestamps ?? [] {
                let what = [sct.log ?? sct.logID.map { "log \($0)" }, sct.timestamp.map { "at \($0)" }, sct.status]
                lines.append("\(pad)SCT:       \(what.compactMap { $0 }.joined(separator: ", "))")
            }
        }
        lines.append("")
    }

    mutating func paths(_ paths: [ChainDiagnostics.Path]) {
        lines.append(heading("Paths explored") + " (\(paths.count), in the order tried; leaf first, each line issued by the next)")
        for (number, path) in paths.enumerated() {
            let mark = path.outcome == "valid" ? ok : bad
            let used = path.isBuiltChain ? " — the built chain" : ""
            lines.append("  \(number + 1). \(mark) \(paint(path.outcome, "1")): \(path.explanation)\(used)")
            let width = path.certificates.map(\.subject.count).max() ?? 0
            for (position, certificate) in path.certificates.enumerated() {
                let rejected = path.outcome == "issuer rejected" && position == path.certificates.count - 1 ? ", rejected" : ""
                let subject = certificate.subject.padding(toLength: width, withPad: " ", startingAt: 0)
                let fingerprint = certificate.sha256Fingerprint.prefix(11)
                lines.append("       \(subject)  [\(certificate.origin), SHA-256 \(fingerprint)…\(rejected)]")
            }
            for reason in path.reasons { lines.append("       \(bad) abandoned: \(reason)") }
        }
        lines.append("")
    }

    mutating func findings(_ findings: [ChainDiagnostics.Finding]) {
        let counts = ["error", "warning", "info"].compactMap { severity -> String? in
            let count = findings.filter { $0.severity == severity }.count
            guard count > 0 else { return nil }
            let noun = severity == "info" ? "note" : severity
            return "\(count) \(noun)\(count == 1 ? "" : "s")"
        }
        lines.append(heading("Findings") + (findings.isEmpty ? ": none" : " (\(counts.joined(separator: ", ")))"))
        for finding in findings {
            let mark = finding.severity == "error" ? bad : (finding.severity == "warning" ? warn : info)
            lines.append("  \(mark) \(finding.message)")
        }
        lines.append("")
    }

    mutating func verdict(_ report: ChainDiagnostics) {
        let subject = report.host.map { " for \($0)" } ?? ""
        if report.trusted {
            lines.append("\(ok) " + paint("trusted\(subject)", "32;1") + " at \(report.verifyDate)")
        } else {
            lines.append("\(bad) " + paint("not trusted\(subject)", "31;1") + " (\(report.result)) at \(report.verifyDate)")
            for failure in report.failures { lines.append("  - \(failure)") }
        }
        for failure in report.fetchFailures ?? [] { lines.append("  \(warn) \(failure)") }
        if let transparency = report.certificateTransparency { lines.append("  Certificate Transparency: \(transparency)") }
    }
}
