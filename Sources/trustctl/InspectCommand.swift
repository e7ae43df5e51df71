import ArgumentParser
import Foundation
import SwiftTrust

/// `trustctl inspect FILE... [--json]`.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print every field of PEM or DER certificates (bundles too).",
        discussion: "Exit status: 0 when every input parses, 1 when any is malformed, 2 on usage errors or unreadable files."
    )

    @Argument(help: "Certificate files (PEM, DER or concatenated PEM); '-' reads standard input.")
    var files: [String]

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        var reports: [CertificateReport] = []
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
                for (offset, certificate) in certificates.enumerated() {
                    reports.append(CertificateReport(certificate, file: file, index: offset + 1))
                }
            } catch {
                malformed = true
                let position = error.index > 0 ? "certificate \(error.index): " : ""
                printError("error: \(file): \(position)\(error.error)")
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(reports)
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(reports.map(\.text).joined(separator: "\n\n"))
        }
        if unreadable { throw ExitCode(2) }
        if malformed { throw ExitCode(1) }
    }
}
