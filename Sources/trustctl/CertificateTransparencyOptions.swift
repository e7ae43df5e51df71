import ArgumentParser
import Foundation
import SwiftTrust

/// `--ct-logs`, `--trusted-ct-logs` and `--sct`: the Certificate Transparency logs an evaluation
/// trusts and the SCTs the TLS handshake delivered (``TrustConfiguration/certificateTransparencyLogs``,
/// ``TrustConfiguration/signedCertificateTimestamps``). Without a list nothing about CT changes.
struct CertificateTransparencyOptions: ParsableArguments {
    @Option(
        name: .customLong("ct-logs"),
        help: ArgumentHelp(
            "A published CT log list (Apple's log_list JSON v4, or the property-list form): CT is evaluated, and required where trustd requires it while the list is fresh (its log_list_timestamp within 60 days of the verify time).",
            valueName: "file"))
    var publishedLogs: String?

    @Option(
        name: .customLong("trusted-ct-logs"),
        help: ArgumentHelp(
            "CT logs the caller trusts, as SecTrustSetTrustedLogs (JSON or property list): the list's age does not matter.",
            valueName: "file"))
    var trustedLogs: String?

    @Option(
        name: .customLong("sct"),
        help: ArgumentHelp(
            "A SignedCertificateTimestampList as the TLS signed_certificate_timestamp extension carries it (binary; repeatable), as SecTrustSetSignedCertificateTimestamps. Needs --ct-logs or --trusted-ct-logs.",
            valueName: "file"))
    var sctFiles: [String] = []

    func validate() throws {
        if publishedLogs != nil && trustedLogs != nil {
            throw ValidationError("--ct-logs and --trusted-ct-logs are two ways to give the one log list: give one of them")
        }
        if !sctFiles.isEmpty && publishedLogs == nil && trustedLogs == nil {
            throw ValidationError("--sct needs the logs that signed them: give --ct-logs or --trusted-ct-logs")
        }
    }

    /// The flags given that make the evaluation enforce CT (`--ct-logs`, `--trusted-ct-logs`), for
    /// refusals that name them.
    var givenFlags: [String] {
        [(publishedLogs != nil, "--ct-logs"), (trustedLogs != nil, "--trusted-ct-logs")].filter(\.0).map(\.1)
    }

    /// The logs and delivered SCTs the flags name, loaded (a file that does not read exits with
    /// status 2, naming the file and the rule).
    func load() throws -> CertificateTransparencyInputs {
        var inputs = CertificateTransparencyInputs()
        if let file = publishedLogs { inputs.logs = .published(try Self.loadLogList(file)) }
        if let file = trustedLogs { inputs.logs = .trustedByCaller(try Self.loadLogList(file)) }
        for file in sctFiles {
            do { inputs.deliveredTimestamps += try SCTList.tlsExtension(try readInput(file)).map(\.encoded) } catch let error as SCTParseError {
                printError("error: \(file): not a SignedCertificateTimestampList: \(error)")
                throw ExitCode(2)
            }
        }
        return inputs
    }

    /// A log list in Apple's JSON (a document starting with `{`) or property-list form.
    static func loadLogList(_ file: String) throws -> CTLogList {
        let data = Data(try readInput(file))
        let isJSON = data.first { !" \t\r\n".utf8.contains($0) } == UInt8(ascii: "{")
        do {
            return isJSON ? try CTLogList.loadJSON(data, file: file) : try CTLogList.loadPropertyList(data, file: file)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}

/// The Certificate Transparency inputs of a command, loaded.
struct CertificateTransparencyInputs: Sendable {
    var logs: CTLogSelection?
    var deliveredTimestamps: [[UInt8]] = []

    /// None (a command without the flags).
    static let none = CertificateTransparencyInputs()
}
