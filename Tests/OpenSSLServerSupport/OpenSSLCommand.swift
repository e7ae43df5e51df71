import Foundation
import TrustTestSupport

/// Runs the openssl CLI for tests that make certificates on the fly (a CA we did not write).
public enum OpenSSLCommand {
    /// Why openssl could not do what was asked.
    public enum Failure: Error, CustomStringConvertible {
        /// No openssl binary is installed.
        case opensslMissing
        /// openssl exited with `status`; `arguments` are what it was given.
        case failed(status: Int32, arguments: [String])

        public var description: String {
            switch self {
            case .opensslMissing: return "openssl is not installed"
            case let .failed(status, arguments): return "openssl \(arguments.joined(separator: " ")) exited with \(status)"
            }
        }
    }

    /// The installed openssl binary, if any.
    public static var executable: String? {
        ["/usr/bin/openssl", "/usr/local/bin/openssl"].first(where: FileManager.default.isExecutableFile)
    }

    /// Runs `openssl arguments…` (a client such as `s_client`) with `input` on its standard input,
    /// for at most `seconds` (then it is terminated), and returns what it printed on standard output
    /// and standard error together.
    public static func output(of arguments: [String], input: String = "", seconds: Double = 10) throws -> String {
        guard let executable else { throw Failure.opensslMissing }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), standardInput = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = standardInput
        try process.run()
        standardInput.fileHandleForWriting.write(Data(input.utf8))
        try? standardInput.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Runs `openssl arguments…` to completion and returns its exit status and what it printed on
    /// standard output and standard error together (for callers that report openssl's refusal).
    public static func completed(_ arguments: [String]) throws -> (status: Int32, output: String) {
        guard let executable else { throw Failure.opensslMissing }
        return try TestProcess.run(executable, arguments)
    }

    /// Runs `openssl arguments…` to completion, discarding its output.
    public static func run(_ arguments: [String]) throws {
        guard let executable else { throw Failure.opensslMissing }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure.failed(status: process.terminationStatus, arguments: arguments) }
    }
}
