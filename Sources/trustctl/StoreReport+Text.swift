/// The text form of `trustctl store`: one line per location, per anchor, per duplicate and per
/// unreadable block (the error, if any, goes to standard error). ``Output`` escapes every line.
extension StoreReport {
    var lines: [String] {
        var lines = ["Trust store: \(source ?? "no anchors found")  (validity judged at \(at))"]
        if let root { lines.append("Well-known locations read under \(root)") }
        lines.append("SSL_CERT_FILE: \(environment.SSL_CERT_FILE ?? "(not set)")  SSL_CERT_DIR: \(environment.SSL_CERT_DIR ?? "(not set)")")
        lines.append("")
        lines.append("Locations, in the order consulted:")
        let width = locations.map(\.kind.count).max() ?? 0
        for location in locations {
            lines.append("  " + location.kind.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(location.path)  \(location.outcome)")
        }
        lines.append("")
        lines.append(
            "Anchors: \(counts.anchors) (\(counts.system) system, \(counts.administrator) administrator); "
                + "\(counts.expired) expired, \(counts.expiring) expiring within \(expiringWithinDays) days"
                + (counts.notYetValid > 0 ? ", \(counts.notYetValid) not yet valid" : ""))
        for anchor in anchors {
            lines.append(
                "  [\(anchor.index)] \(anchor.trust.rawValue)  \(anchor.subject)  notAfter \(anchor.notAfter) (\(anchor.validityText))"
                    + "  SHA-256 \(anchor.sha256Fingerprint.prefix(23))…")
            lines.append("      from " + anchor.copies.map(\.text).joined(separator: ", "))
            if !anchor.installedAt.isEmpty { lines.append("      installed at " + anchor.installedAt.map(\.text).joined(separator: ", ")) }
        }
        let linked = duplicates.filter { $0.kind == .linked }
        let listed = duplicates.filter { $0.kind != .linked }
        lines.append("")
        lines.append(
            "Duplicates: \(listed.count)"
                + (linked.isEmpty
                    ? "" : " (not counting \(linked.count) read again through links to one file, as OpenSSL hash links are; --json lists them)"))
        for duplicate in listed {
            let what = duplicate.kind == .identical ? "identical certificate" : "same subject and key, different certificates"
            lines.append("  \(what): \(duplicate.subject) (anchors \(duplicate.anchors.map(String.init).joined(separator: ", ")))")
            lines.append("      copies: " + duplicate.copies.map(\.text).joined(separator: ", "))
        }
        lines.append("")
        lines.append("Unreadable blocks and files: \(skipped.count)")
        for block in skipped {
            lines.append("  \(block.location)  \(block.path)\(block.line.map { ", line \($0)" } ?? ""): \(block.reason)")
        }
        if !installedNotAnchors.isEmpty {
            lines.append("")
            lines.append(
                "In administrators' directories but not anchors (update-ca-certificates / update-ca-trust not run?): \(installedNotAnchors.count)")
            for certificate in installedNotAnchors {
                lines.append("  \(certificate.subject)  \(certificate.copy.text)  SHA-256 \(certificate.sha256Fingerprint.prefix(23))…")
            }
        }
        return lines
    }
}

extension StoreReport.Location {
    /// `used: 3 certificates (2 anchors), 1 unreadable`, `not consulted`, `unreadable: does not exist`, ...
    var outcome: String {
        let counted =
            "\(certificates) certificate\(certificates == 1 ? "" : "s") (\(anchors) anchor\(anchors == 1 ? "" : "s"))"
            + (skipped > 0 ? ", \(skipped) unreadable" : "")
        switch status {
        case .used: return (kind == "administrator" || kind == "distribution" ? "read: " : "used: ") + counted
        case .empty: return "no certificate" + (skipped > 0 ? " (\(skipped) unreadable)" : "")
        case .unreadable: return "unreadable: \(problem ?? "cannot be read")"
        case .notConsulted: return "not consulted"
        }
    }
}

extension StoreReport.Anchor {
    /// `valid, 3650 days left`, `EXPIRED 12 days ago`, ...
    var validityText: String {
        switch validity {
        case .expired: return "EXPIRED \(-daysLeft) days ago"
        case .expiring: return "EXPIRING in \(daysLeft) days"
        case .notYetValid: return "NOT YET VALID (notBefore \(notBefore))"
        case .valid: return "\(daysLeft) days left"
        }
    }
}
