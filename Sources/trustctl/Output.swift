import Foundation
import SwiftTrust

/// Everything trustctl writes to standard output and standard error goes through here.
///
/// Certificates (and suites, file names, error messages quoting them) carry text an attacker
/// chooses: each line is passed through ``TerminalText/escaped(_:)``, so no control character or
/// bidi override reaches the terminal raw. Text is handed over as separate lines, never as one
/// joined string, so a newline inside a value is escaped instead of starting a line of its own.
enum Output {
    /// Writes `lines` to standard output, each escaped.
    static func print(lines: [String]) {
        write(lines, to: .standardOutput)
    }

    /// Writes one line to standard output, escaped.
    static func print(_ line: String) {
        write([line], to: .standardOutput)
    }

    /// Writes `value` as pretty-printed JSON with sorted keys to standard output. JSONEncoder
    /// escapes C0 controls but writes DEL, C1 controls and bidi overrides raw: escaping each line
    /// writes them as `\uXXXX` too, which is the same JSON value.
    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        // Splitting on newlines is safe: inside JSON strings JSONEncoder has escaped every newline.
        print(lines: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }

    /// Writes text that its renderer already made terminal-safe (``ChainDiagnostics/text(style:)``
    /// escapes every value itself so that its own colour codes can pass).
    static func printRendered(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes one line to standard error, escaped (a newline in it is written as `\u000a`).
    static func error(_ line: String) {
        write([line], to: .standardError)
    }

    /// Writes `lines` to standard error, each escaped.
    static func error(lines: [String]) {
        write(lines, to: .standardError)
    }

    private static func write(_ lines: [String], to handle: FileHandle) {
        let text = lines.map { TerminalText.escaped($0) + "\n" }.joined()
        handle.write(Data(text.utf8))
    }
}
