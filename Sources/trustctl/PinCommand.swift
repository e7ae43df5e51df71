import ArgumentParser
import Foundation
import SwiftTrust

/// `trustctl pin FILE... [--json]`: the values to pin, per certificate.
struct Pin: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the SPKI pin (sha256/BASE64) and SHA-256 fingerprint of certificates.",
        discussion: """
        A FILE may be a directory: its .cer .CER .crt .CRT .der .DER and .pem files are read (not
        recursively), as the pinned-certificate bundle scans do, and every other entry is reported as skipped.
        Exit status: 0 when every input parses, 1 when any is malformed, 2 on usage errors or unreadable files.
        """
    )

    /// One certificate's pins.
    struct Entry: Encodable {
        let file: String
        let index: Int
        let subject: String
        let spkiPin: String
        let sha256Fingerprint: String

        /// The pin fields of `inspect`'s report of the certificate.
        init(_ certificate: Certificate, file: String, index: Int) {
            let report = CertificateReport(certificate, file: file, index: index)
            (self.file, self.index, subject) = (report.file, report.index, report.subject)
            (spkiPin, sha256Fingerprint) = (report.spkiPin, report.sha256Fingerprint)
        }

        var lines: [String] {
            ["\(subject)", "  file:     \(file) (certificate \(index))", "  SPKI pin: \(spkiPin)", "  SHA-256:  \(sha256Fingerprint)"]
        }
    }

    @Argument(help: "Certificate files (PEM, DER or concatenated PEM) or directories; '-' reads standard input.")
    var files: [String]

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        var entries: [Entry] = []
        var malformed = false
        var unreadable = false
        for file in files {
            var isDirectory: ObjCBool = false
            if file != "-", FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
                do {
                    let bundle = try CertificateBundle(directory: file)
                    entries += bundle.certificates.enumerated().map { Entry($1, file: file, index: $0) }
                    for skipped in bundle.skipped {
                        printError("skipped: \(skipped)")
                        if case .malformed = skipped.reason { malformed = true }
                        if case .unreadable = skipped.reason { unreadable = true }
                    }
                } catch {
                    printError("error: \(error)")
                    unreadable = true
                }
                continue
            }
            let bytes: [UInt8]
            do { bytes = try readInput(file) } catch {
                unreadable = true
                continue
            }
            do {
                entries += try Certificate.loadAll(from: bytes).enumerated().map { Entry($1, file: file, index: $0) }
            } catch {
                malformed = true
                printError("error: \(file): \(error)")
            }
        }
        if json {
            try Output.printJSON(entries)
        } else if !entries.isEmpty {
            Output.print(lines: Array(entries.map(\.lines).joined(separator: [""])))
        }
        if unreadable { throw ExitCode(2) }
        if malformed { throw ExitCode(1) }
    }
}
