import ArgumentParser
import Foundation
import SwiftTrust

/// `trustctl inspect FILE... [--verbose] [--json]`.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print PEM or DER certificates (bundles too): one line per certificate of a bundle, every field of a single one.",
        discussion: """
            A file holding several certificates is listed one line per certificate (index from 0, CA or leaf, subject, \
            issuer, notAfter, key, SHA-256 prefix); --verbose prints every field of each. A file holding one certificate is \
            always printed in full. '-' reads standard input (PEM, DER or concatenated PEM). PEM blocks that hold no \
            certificate (e.g. the private key of a combined certificate-and-key file) are skipped with a note on standard \
            error. Semantic defects of a well-formed certificate (e.g. inner and outer signature algorithms that differ) \
            are shown as findings; validation rejects such a certificate.
            Example: trustctl inspect fullchain.pem
            lists the leaf and each intermediate on one line (CA or leaf, subject, issuer, expiry); add --verbose \
            for every field of each.
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
                let loaded = try Certificate.load(from: bytes)
                for block in loaded.skippedBlocks {
                    printError("note: \(file): skipped PEM block \(block) (not a certificate)")
                }
                groups.append(
                    (
                        file,
                        loaded.certificates.enumerated().map { offset, certificate in
                            CertificateReport(certificate, file: file, index: offset)
                        }
                    ))
            } catch {
                malformed = true
                printError("error: \(file): \(error)")
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
