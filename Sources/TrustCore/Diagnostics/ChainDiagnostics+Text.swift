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
    /// every explored path, findings, and the verdict.
    public func text(style: TextStyle) -> String {
        let color = style == .color
        func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        let ok = color ? paint("✔", "32") : "[ok]"
        let bad = color ? paint("✘", "31") : "[x]"
        let warn = color ? paint("!", "33") : "[!]"
        var lines: [String] = []

        lines.append(paint("Presented certificates", "1") + " (\(presented.count))")
        for certificate in presented {
            let notes = certificate.notes.isEmpty ? "" : "  — " + certificate.notes.joined(separator: "; ")
            lines.append("  #\(certificate.index) \(certificate.subject)\(notes)")
        }
        lines.append("")

        lines.append(paint("Built chain", "1") + (endsAtAnchor ? " (anchor first)" : " (does not reach a trust anchor)"))
        for (depth, node) in chain.reversed().enumerated() {
            let indent = String(repeating: "   ", count: depth)
            let days = node.daysRemaining >= 0 ? "\(node.daysRemaining) days left" : "expired \(-node.daysRemaining) days ago"
            lines.append("  \(indent)└─ \(paint(node.subject, "1")) [\(node.role), \(node.origin)]")
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
        }
        lines.append("")

        lines.append(paint("Paths explored", "1") + " (\(paths.count))")
        for (number, path) in paths.enumerated() {
            let mark = path.outcome == "valid" ? ok : bad
            lines.append("  \(number + 1). \(mark) \(path.outcome): " + path.subjects.joined(separator: " → "))
            for reason in path.reasons { lines.append("       - \(reason)") }
        }
        lines.append("")

        lines.append(paint("Findings", "1") + (findings.isEmpty ? ": none" : ""))
        for finding in findings {
            let mark = finding.severity == "error" ? bad : (finding.severity == "warning" ? warn : "-")
            let target = finding.certificateIndex.map { "certificate \($0): " } ?? ""
            lines.append("  \(mark) \(target)\(finding.message)")
        }
        lines.append("")

        let subject = host.map { " for \($0)" } ?? ""
        if trusted {
            lines.append("\(ok) " + paint("trusted\(subject)", "32;1") + " at \(verifyDate)")
        } else {
            lines.append("\(bad) " + paint("not trusted\(subject)", "31;1") + " (\(result)) at \(verifyDate)")
            for failure in failures { lines.append("  - \(failure)") }
        }
        return lines.joined(separator: "\n")
    }
}
