import Foundation

/// Runs a program for a test (openssl, trustctl, a shell script) to completion.
public enum TestProcess {
    /// Runs `executable` with `arguments` (and `environment` added to this process's) to completion,
    /// with nothing on its standard input; returns its exit status and what it printed on standard
    /// output and standard error together.
    public static func run(
        _ executable: String, _ arguments: [String],
        environment: [String: String] = [:]
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
