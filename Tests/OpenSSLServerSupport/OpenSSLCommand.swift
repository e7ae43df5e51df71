import Foundation

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
