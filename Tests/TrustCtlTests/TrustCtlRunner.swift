import Foundation
import TrustTestSupport
import XCTest

/// What one run of the trustctl binary produced.
struct TrustCtlResult {
    let status: Int32
    let stdout: [UInt8]
    let stderr: [UInt8]
    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

extension XCTestCase {
    /// The trustctl built next to this test bundle (`swift build --build-tests` builds both).
    var trustctlURL: URL {
        get throws {
            let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            let candidates = [bundle.deletingLastPathComponent(), Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
                .map { $0.appendingPathComponent("trustctl") }
            guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
                XCTFail("trustctl is not built next to the tests (\(candidates.map(\.path))); run swift build --build-tests")
                throw CocoaError(.fileNoSuchFile)
            }
            return binary
        }
    }

    /// Runs trustctl with `arguments`, no colour and `environment` added, bounded by a timeout.
    func trustctl(_ arguments: [String], environment: [String: String] = [:]) throws -> TrustCtlResult {
        let process = Process()
        process.executableURL = try trustctlURL
        process.arguments = arguments
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        process.environment = variables
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Read both pipes to the end (a full pipe would block the child), then wait.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorBytes = Data()
        DispatchQueue.global().async(group: group) { errorBytes = stderr.fileHandleForReading.readDataToEndOfFile() }
        let outputBytes = stdout.fileHandleForReading.readDataToEndOfFile()
        guard group.wait(timeout: .now() + 60) == .success else {
            process.terminate()
            throw CocoaError(.executableLoad)
        }
        process.waitUntilExit()
        return TrustCtlResult(status: process.terminationStatus, stdout: Array(outputBytes), stderr: Array(errorBytes))
    }
}

/// `TestCertificates/` and the conventions the command tests share.
enum TestCertificatesDirectory {
    /// `<root>/TestCertificates`.
    static let url = TestCertificates.directory
    /// The path of a file under TestCertificates/.
    static func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }
    /// 2026-06-01T00:00:00Z: every "valid" test certificate is valid then.
    static let verifyDate = "2026-06-01T00:00:00Z"
    /// The DNS name of the test leaves.
    static let host = "www.swifttrust.test"
}
