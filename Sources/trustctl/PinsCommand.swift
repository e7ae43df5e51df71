import ArgumentParser
import Foundation
import SwiftTrust

/// `trustctl pins`: work with pinning configurations (ATS, Android, TrustKit, SwiftTrust JSON).
struct Pins: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check pinning configurations against live servers, and convert them between formats.",
        discussion: """
            Example: trustctl pins check network_security_config.xml api.example.com
            connects to api.example.com:443 and says which served certificate matches which configured pin.
            """,
        subcommands: [PinsCheck.self, PinsConvert.self]
    )
}

/// Loads a configuration file for a `pins` subcommand and prints the loader's notes (a pin in
/// non-canonical base64, with its canonical form) on standard error; a file that cannot be loaded
/// exits with status 2 after printing the error (file, line or key path, rule).
func loadPinningConfiguration(_ path: String, format: PinningConfigurationFormat?) throws -> PinningConfiguration {
    let configuration: PinningConfiguration
    do {
        configuration = try PinningConfiguration.load(contentsOf: URL(fileURLWithPath: path), format: format)
    } catch {
        printError("error: \(error)")
        throw ExitCode(2)
    }
    for note in configuration.notes { printError("note: \(note)") }
    return configuration
}

/// `trustctl pins convert CONFIG --to FORMAT`.
struct PinsConvert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Translate a pinning configuration into another format.",
        discussion: """
            Writes CONFIG (format recognised from its content unless --format) in the --to format, to standard \
            output or --output. A setting the target format cannot express is refused with the domain and the \
            reason, never silently weakened. The formats:
            \(PinningConfigurationFormat.helpNotes)
            Example: trustctl pins convert network_security_config.xml --to ats --output Pins.plist
            Exit status: 0 written, 1 the configuration cannot be expressed in the target format, 2 usage errors \
            and unreadable or malformed configurations.
            """
    )

    @Argument(help: "The configuration file (\(PinningConfigurationFormat.helpDisplayNames)).")
    var config: String

    @Option(help: "The input format (\(PinningConfigurationFormat.helpNames)); recognised from the content when omitted.")
    var format: PinningConfigurationFormat?

    @Option(help: "The output format: \(PinningConfigurationFormat.helpNames).")
    var to: PinningConfigurationFormat

    @Option(help: "Write to FILE instead of standard output.")
    var output: String?

    func run() throws {
        let configuration = try loadPinningConfiguration(config, format: format)
        let data: Data
        do { data = try configuration.encoded(as: to) } catch {
            printError("error: \(config): \(error)")
            throw ExitCode(1)
        }
        guard let output else {
            FileHandle.standardOutput.write(data)
            return
        }
        do { try data.write(to: URL(fileURLWithPath: output)) } catch {
            printError("error: \(output): cannot write: \(error.localizedDescription)")
            throw ExitCode(2)
        }
    }
}
extension SubdomainCoverage: ExpressibleByArgument {}
