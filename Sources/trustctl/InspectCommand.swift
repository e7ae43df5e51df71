import ArgumentParser
import Foundation
import SwiftTrust

/// `trustctl inspect FILE... [--verbose] [--json]`.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print PEM or DER certificates (bundles too): one line per certificate of a bundle, every field of a single one.",
        discussion: """
        A file holding several certificates is listed one line per certificate (index, CA or leaf, subject, issuer, \
        notAfter, key, SHA-256 prefix); --verbose prints every field of each. A file holding one certificate is always \
        printed in full. '-' reads standard input (PEM, DER or concatenated PEM).
        Exit status: 0 when every input parses, 1 when any is malformed, 2 on usage errors or unreadable files.
        """
    )

    @Argument(help: "Certificate files (PEM, DER or concatenated PEM); '-' reads standard input.")
    var files: [String]

    @Flag(name: .shortAndLong, help: "Print every field of every certificate, also in bundles.")
    var verbose = false

    @Flag(help: "Print JSON instead of text (every field of every certificate).")
    var json = false

    func run() throws {
        var groups: [(file: String, reports: [CertificateReport])] = []
        var malformed = false
        var unreadable = false
        for file in files {
            let bytes: [UInt8]
            do { bytes = try readInput(file) } catch {
                unreadable = true
                continue
            }
            do {
                let certificates = try Certificate.loadAll(from: bytes)
                groups.append((file, certificates.enumerated().map { offset, certificate in
                    CertificateReport(certificate, file: file, index: offset + 1)
                }))
            } catch {
                malformed = true
                let position = error.index > 0 ? "certificate \(error.index): " : ""
                printError("error: \(file): \(position)\(error.error)")
            }
        }
        if json {
            try Output.printJSON(groups.flatMap(\.reports))
        } else {
            // Blocks of lines separated by an empty line: a bundle's listing, or one certificate's fields.
            let blocks: [[String]] = groups.flatMap { group -> [[String]] in
                if group.reports.count > 1 && !verbose {
                    let name = group.file == "-" ? "standard input" : group.file
                    return [["\(name) (\(group.reports.count) certificates; --verbose for every field)"] + group.reports.map(\.summaryLine)]
                }
                return group.reports.map(\.lines)
            }
            if !blocks.isEmpty { Output.print(lines: Array(blocks.joined(separator: [""]))) }
        }
        if unreadable { throw ExitCode(2) }
        if malformed { throw ExitCode(1) }
    }
}
