import ArgumentParser
import Foundation
import SwiftTrust

/// `trustctl`: inspect certificates and (in later commands) verify chains.
@main
struct TrustCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trustctl",
        abstract: "Inspect X.509 certificates and evaluate trust.",
        version: TrustCtl.version,
        subcommands: [
            Inspect.self, Verify.self, Chain.self, Probe.self, Serve.self, Limbo.self, Pin.self, Pins.self, Profiles.self, PKITS.self, Store.self,
        ]
    )

    /// What `--version` prints: the package version and the libcrypto actually loaded (linked
    /// dynamically, it can differ from the one built against), the two things a bug report needs.
    static let version = "trustctl (SwiftTrust) \(SwiftTrustVersion.current)\nlibcrypto: \(Libcrypto.version)"

    /// Exit codes: 0 success, 1 a negative answer or malformed input, 2 usage errors or unreadable files.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            let code = exitCode(for: error)
            // Help and usage text is several lines of ArgumentParser's own; each is escaped all the same.
            let lines = fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if code == .success {
                Output.print(lines: lines)
                Foundation.exit(0)
            }
            Output.error(lines: lines)
            Foundation.exit(2)
        }
    }
}

/// Writes a line to standard error (escaped: see ``Output``).
func printError(_ message: String) {
    Output.error(message)
}

/// Reads a file's bytes, or standard input for `-`; throws exit code 2 when unreadable.
func readInput(_ path: String) throws -> [UInt8] {
    if path == "-" {
        return Array(FileHandle.standardInput.readDataToEndOfFile())
    }
    guard let data = FileManager.default.contents(atPath: path) else {
        printError("error: \(path): cannot read file")
        throw ExitCode(2)
    }
    return Array(data)
}
