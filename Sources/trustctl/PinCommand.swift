import ArgumentParser
import Foundation
import SwiftTrust
import TrustPinning

/// `trustctl pin FILE... [--json]`: the values to pin, per certificate.
struct Pin: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the SPKI pin (sha256/BASE64) and SHA-256 fingerprint of certificates.",
        discussion: """
            A FILE may be a directory: the files of it (not recursively) that an app's bundle scan would pin are \
            read, by --convention: afnetworking (default; AFNetworking's certificatesInBundle: *.cer, DER only) or \
            alamofire (Alamofire's Bundle.af.certificates: .cer .CER .crt .CRT .der .DER, DER only); \
            --include-pem adds *.pem files and PEM content. Every other entry is reported as skipped; a file the \
            convention names but cannot read as a certificate (PEM under a DER-only convention, a key) counts as malformed.
            With --emit-config FORMAT and --domain, prints instead a ready pinning-configuration block (\
            \(PinningConfigurationFormat.helpNames)) pinning the keys of the certificates given, plus any --backup-pin \
            (add a backup key's pin: TrustKit requires two pins). The formats:
            \(PinningConfigurationFormat.helpNotes)
            Example: trustctl pin intermediate.pem --emit-config android --domain example.com --subdomains anyDepth --backup-pin sha256/...
            Exit status: 0 when every input parses, 1 when any is malformed or the block cannot be expressed in \
            the format, 2 on usage errors or unreadable files.
            """
    )

    /// One certificate's pins.
    struct Entry: Encodable {
        let file: String
        let index: Int
        let subject: String
        let spkiPin: String
        let sha256Fingerprint: String
        /// The certificate itself (not printed).
        let certificate: Certificate

        private enum CodingKeys: String, CodingKey { case file, index, subject, spkiPin, sha256Fingerprint }

        /// The pin fields of `inspect`'s report of the certificate.
        init(_ certificate: Certificate, file: String, index: Int) {
            let report = CertificateReport(certificate, file: file, index: index)
            (self.file, self.index, subject) = (report.file, report.index, report.subject)
            (spkiPin, sha256Fingerprint) = (report.spkiPin, report.sha256Fingerprint)
            self.certificate = certificate
        }

        var lines: [String] {
            ["\(subject)", "  file:     \(file) (certificate \(index))", "  SPKI pin: \(spkiPin)", "  SHA-256:  \(sha256Fingerprint)"]
        }
    }

    @Argument(help: "Certificate files (PEM, DER or concatenated PEM) or directories; '-' reads standard input.")
    var files: [String]

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Option(help: "Which files of a directory are pins: afnetworking (*.cer, DER) or alamofire (.cer .CER .crt .CRT .der .DER, DER).")
    var convention: BundleConvention = .afnetworking

    @Flag(help: "Also read *.pem files and PEM content in a directory.")
    var includePem = false

    @Option(help: "Print a pinning configuration block in this format (\(PinningConfigurationFormat.helpNames)) instead of the pins.")
    var emitConfig: PinningConfigurationFormat?

    @Option(help: "The domain of the --emit-config block.")
    var domain: String?

    @Option(help: "Which subdomains the --emit-config block covers: none, oneLevel (ATS) or anyDepth (Android, TrustKit).")
    var subdomains: SubdomainCoverage = .none

    @Option(name: .customLong("backup-pin"), help: "A backup key's pin (sha256/BASE64) to add to the --emit-config block (repeatable).")
    var backupPins: [String] = []

    /// The conventions of ``CertificateBundle/Convention`` by name.
    enum BundleConvention: String, ExpressibleByArgument, CaseIterable {
        case afnetworking
        case alamofire

        func convention(includingPEM: Bool) -> CertificateBundle.Convention {
            let convention: CertificateBundle.Convention = self == .afnetworking ? .afNetworking : .alamofire
            return includingPEM ? convention.includingPEM : convention
        }
    }

    func validate() throws {
        if emitConfig != nil, domain == nil { throw ValidationError("--emit-config needs --domain") }
        if emitConfig == nil, domain != nil || !backupPins.isEmpty || subdomains != .none {
            throw ValidationError("--domain, --subdomains and --backup-pin apply to --emit-config")
        }
        if emitConfig != nil, json { throw ValidationError("--json and --emit-config are mutually exclusive") }
    }

    func run() throws {
        var entries: [Entry] = []
        var malformed = false
        var unreadable = false
        for file in files {
            var isDirectory: ObjCBool = false
            if file != "-", FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
                do {
                    let bundle = try CertificateBundle(directory: file, convention: convention.convention(includingPEM: includePem))
                    entries += bundle.certificates.enumerated().map { Entry($1, file: file, index: $0) }
                    for skipped in bundle.skipped {
                        printError("skipped: \(skipped)")
                        switch skipped.reason {
                        case .malformed, .pemNotRead: malformed = true
                        case .unreadable, .tooLarge, .fileCountLimitReached, .totalSizeLimitReached: unreadable = true
                        case .unsupportedExtension, .directory, .notARegularFile: break
                        }
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
        if let emitConfig, let domain, !malformed, !unreadable {
            try printConfigurationBlock(entries.map(\.certificate), format: emitConfig, domain: domain)
        } else if json {
            try Output.printJSON(entries)
        } else if !entries.isEmpty {
            Output.print(lines: Array(entries.map(\.lines).joined(separator: [""])))
        }
        if unreadable { throw ExitCode(2) }
        if malformed { throw ExitCode(1) }
    }

    /// Prints a one-domain configuration pinning `certificates`' keys and the backup pins.
    private func printConfigurationBlock(_ certificates: [Certificate], format: PinningConfigurationFormat, domain: String) throws {
        let scope: PinScope
        do { scope = try format.codec.pinScope(forEmitting: certificates) } catch {
            printError("error: \(error.reason)")
            throw ExitCode(1)
        }
        let configuration: PinningConfiguration
        do {
            let pins =
                certificates.map { SPKIPin(certificate: $0) } + (try backupPins.map { text throws(PinningConfigurationError) in try SPKIPin(text) })
            let policy = try DomainPinningPolicy(domain: domain, subdomains: subdomains, requirements: [try PinRequirement(scope: scope, pins: pins)])
            configuration = try PinningConfiguration(domains: [policy])
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        do {
            FileHandle.standardOutput.write(try configuration.encoded(as: format))
        } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
    }
}
