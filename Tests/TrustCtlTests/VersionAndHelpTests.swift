import Foundation
import OpenSSLServerSupport
import XCTest

/// `trustctl --version` names the package and the libcrypto it runs with; every sub-command's
/// `--help` carries a worked example.
final class VersionAndHelpTests: XCTestCase {
    func testVersionNamesThePackageVersionAndTheLibcryptoLoaded() throws {
        let result = try trustctl(["--version"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, result.stdoutText)
        let package = try XCTUnwrap(lines.first)
        XCTAssertNotNil(package.wholeMatch(of: /trustctl \(SwiftTrust\) [0-9]+\.[0-9]+\.[0-9]+/), package)
        let libcrypto = try XCTUnwrap(lines.last)
        XCTAssertTrue(libcrypto.hasPrefix("libcrypto: OpenSSL "), libcrypto)

        // The openssl CLI loads the same system libcrypto: `openssl version` names it after "Library:"
        // when it differs from the one the CLI was built with, else first.
        guard let openssl = OpenSSLCommand.executable else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = ["version"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let library =
            text.firstMatch(of: /\(Library: ([^)]*)\)/).map { String($0.1) }
            ?? text.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(libcrypto, "libcrypto: \(library)")
    }

    func testEverySubcommandsHelpHasAWorkedExample() throws {
        var commands: [[String]] = []
        var pending: [[String]] = [[]]
        while let command = pending.popLast() {
            let result = try trustctl(command + ["--help"])
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderrText)")
            let subcommands = Self.subcommands(inHelp: result.stdoutText)
            pending += subcommands.map { command + [$0] }
            if !command.isEmpty {
                commands.append(command)
                XCTAssertTrue(
                    result.stdoutText.contains("Example: trustctl \(command.joined(separator: " "))"),
                    "trustctl \(command.joined(separator: " ")) --help has no worked example:\n\(result.stdoutText)")
            }
        }
        // The walk found the commands (and the nested `pins` ones), not an empty list.
        XCTAssertTrue(commands.contains(["verify"]) && commands.contains(["pins", "check"]), "\(commands)")
    }

    /// The names listed under SUBCOMMANDS: in ArgumentParser's help text (`help` excluded).
    private static func subcommands(inHelp text: String) -> [String] {
        guard let section = text.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first else { return [] }
        return section.split(separator: "\n").compactMap { line in
            guard let name = line.wholeMatch(of: #/  ([a-z][a-z0-9-]*)(?: .*)?/#)?.1 else { return nil }
            return name == "help" ? nil : String(name)
        }
    }
}
