import Foundation

/// An `openssl s_server` on 127.0.0.1 with an ephemeral port: a TLS peer we did not write, for
/// loopback tests (TrustNIOTests, TrustCtlTests). Stopped by ``stop()``.
public final class OpenSSLServer {
    /// Why a server could not be started.
    public enum StartError: Error, CustomStringConvertible {
        /// No openssl binary is installed.
        case opensslMissing
        /// s_server did not report its listening port within the deadline; `output` is what it printed.
        case noListeningPort(output: String)

        public var description: String {
            switch self {
            case .opensslMissing: return "openssl is not installed"
            case let .noListeningPort(output): return "openssl s_server did not start listening: \(output)"
            }
        }
    }

    /// The port s_server listens on.
    public let port: Int
    private let process: Process
    private let chainFile: URL

    /// Starts `openssl s_server` presenting `certificate` (PEM, with its PEM `key`) followed by
    /// the PEM files of `chain`.
    public init(certificate: String, key: String, chain: [String]) throws {
        guard let openssl = OpenSSLCommand.executable else {
            throw StartError.opensslMissing
        }
        chainFile = FileManager.default.temporaryDirectory.appendingPathComponent("s_server-chain-\(UUID().uuidString).pem")
        try Data(try chain.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined().utf8).write(to: chainFile)
        process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments =
            ["s_server", "-accept", "127.0.0.1:0", "-cert", certificate, "-key", key]
            + (chain.isEmpty ? [] : ["-cert_chain", chainFile.path])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        // s_server quits when its standard input ends: keep a pipe open for its lifetime.
        process.standardInput = Pipe()
        try process.run()
        // s_server prints "ACCEPT 127.0.0.1:PORT" once it listens on the port the kernel chose.
        let deadline = Date().addingTimeInterval(10)
        var text = ""
        var found: Int?
        let handle = output.fileHandleForReading
        while found == nil, Date() < deadline, process.isRunning {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT ") }),
                let port = line.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
            {
                found = port
            }
        }
        guard let found else {
            process.terminate()
            throw StartError.noListeningPort(output: text)
        }
        port = found
        // s_server reports every connection on its standard output: keep draining the pipe, or
        // after some dozens of connections its buffer is full and s_server blocks mid-handshake.
        handle.readabilityHandler = { handle in _ = handle.availableData }
    }

    /// Stops the server and removes its chain file.
    public func stop() {
        (process.standardOutput as? Pipe)?.fileHandleForReading.readabilityHandler = nil
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: chainFile)
    }
}
