import Foundation
import Synchronization
import TrustSession
import TrustX509
import TrustTestSupport
import XCTest

/// `ReloadingTrustAnchors` on files and directories the tests lay out: the first load's typed
/// errors, reloads on a change, the last good set kept on a bad one, Kubernetes-style symlink swaps,
/// and the polling loop.
final class ReloadingTrustAnchorsTests: XCTestCase {
    private static let certificates = TestCertificates.directory

    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifttrust-anchors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func bytes(_ relative: String) throws -> Data {
        try Data(contentsOf: Self.certificates.appendingPathComponent(relative))
    }

    private func certificate(_ relative: String) throws -> Certificate {
        try XCTUnwrap(Certificate.loadAll(from: Array(bytes(relative))).first)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes `data` to `name` atomically: a temporary file in the same directory, renamed over it.
    private func writeAtomically(_ data: Data, to name: String) throws {
        try data.write(to: directory.appendingPathComponent(name), options: .atomic)
    }

    private func leaf() throws -> Certificate { try certificate("ecdsa/leaf.pem") }

    // MARK: First load

    func testFirstLoadReadsTheFile() throws {
        try writeAtomically(try bytes("ecdsa/root.pem"), to: "ca.pem")
        let anchors = try ReloadingTrustAnchors(paths: [path("ca.pem")])
        XCTAssertEqual(anchors.anchors(forLeaf: try leaf()), [try certificate("ecdsa/root.pem")])
        XCTAssertEqual(anchors.current.generation, 1)
        XCTAssertEqual(anchors.current.files, [path("ca.pem")])
    }

    func testFirstLoadFailuresNameTheFileAndTheRule() throws {
        XCTAssertThrowsError(try ReloadingTrustAnchors(paths: [])) { XCTAssertEqual($0 as? AnchorReloadError, .noPaths) }
        XCTAssertThrowsError(try ReloadingTrustAnchors(paths: [path("missing.pem")])) {
            XCTAssertEqual($0 as? AnchorReloadError, .unreadable(path: path("missing.pem"), problem: .doesNotExist))
        }
        try writeAtomically(Data(), to: "empty.pem")
        XCTAssertThrowsError(try ReloadingTrustAnchors(paths: [path("empty.pem")])) {
            XCTAssertEqual($0 as? AnchorReloadError, .noCertificates(path: path("empty.pem")))
        }
        try writeAtomically(Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8), to: "key.pem")
        XCTAssertThrowsError(try ReloadingTrustAnchors(paths: [path("key.pem")])) {
            XCTAssertEqual($0 as? AnchorReloadError, .noCertificates(path: path("key.pem")))
        }
        try writeAtomically(Data("not a certificate\n".utf8), to: "garbage.pem")
        XCTAssertThrowsError(try ReloadingTrustAnchors(paths: [path("garbage.pem")])) { error in
            guard case let .invalidCertificate(failedPath, _)? = error as? AnchorReloadError else { return XCTFail("\(error)") }
            XCTAssertEqual(failedPath, self.path("garbage.pem"))
            XCTAssertTrue("\(error)".contains("garbage.pem"))
        }
        // A good block followed by one that does not decode fails the file: not half a set.
        var mixed = try bytes("ecdsa/root.pem")
        mixed.append(Data("-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n".utf8))
        try writeAtomically(mixed, to: "mixed.pem")
        XCTAssertThrowsError(try ReloadingTrustAnchors(paths: [path("mixed.pem")])) { error in
            guard case .invalidCertificate? = error as? AnchorReloadError else { return XCTFail("\(error)") }
        }
        try writeAtomically(Data(repeating: 0x41, count: ReloadingTrustAnchors.maximumFileSize + 1), to: "large.pem")
        XCTAssertThrowsError(try ReloadingTrustAnchors(paths: [path("large.pem")])) {
            XCTAssertEqual(
                $0 as? AnchorReloadError,
                .fileTooLarge(
                    path: path("large.pem"), size: ReloadingTrustAnchors.maximumFileSize + 1,
                    limit: ReloadingTrustAnchors.maximumFileSize))
        }
        try FileManager.default.createDirectory(atPath: path("empty-directory"), withIntermediateDirectories: false)
        XCTAssertThrowsError(try ReloadingTrustAnchors(paths: [path("empty-directory")])) {
            XCTAssertEqual($0 as? AnchorReloadError, .noCertificates(path: path("empty-directory")))
        }
    }

    func testADirectoryBeyondItsEntryLimitIsRefused() throws {
        let crowded = path("crowded")
        try FileManager.default.createDirectory(atPath: crowded, withIntermediateDirectories: false)
        for index in 0...ReloadingTrustAnchors.maximumDirectoryEntries {
            XCTAssertTrue(FileManager.default.createFile(atPath: crowded + "/.\(index)", contents: nil))
        }
        XCTAssertThrowsError(try ReloadingTrustAnchors(paths: [crowded])) {
            XCTAssertEqual($0 as? AnchorReloadError, .tooManyFiles(path: crowded, limit: ReloadingTrustAnchors.maximumDirectoryEntries))
        }
    }

    // MARK: Reloads

    func testARenamedNewFileIsReloadedAndATouchIsNot() throws {
        try writeAtomically(try bytes("ecdsa/root.pem"), to: "ca.pem")
        let events = Mutex<[AnchorReloadEvent]>([])
        let anchors = try ReloadingTrustAnchors(paths: [path("ca.pem")]) { event in events.withLock { $0.append(event) } }
        XCTAssertEqual(anchors.reloadIfChanged(), .unchanged)

        try writeAtomically(try bytes("rsa/root.pem"), to: "ca.pem")
        XCTAssertEqual(anchors.reloadIfChanged(), .reloaded(count: 1))
        XCTAssertEqual(anchors.anchors(forLeaf: try leaf()), [try certificate("rsa/root.pem")])
        XCTAssertEqual(anchors.current.generation, 2)

        // The same bytes again (a new inode and times): read, compared, nothing swapped.
        try writeAtomically(try bytes("rsa/root.pem"), to: "ca.pem")
        XCTAssertEqual(anchors.reloadIfChanged(), .unchanged)
        XCTAssertEqual(anchors.current.generation, 2)
        XCTAssertEqual(events.withLock { $0 }, [.unchanged, .reloaded(count: 1), .unchanged])
    }

    func testABrokenFileKeepsTheLastGoodSetAndSaysSoOnce() throws {
        try writeAtomically(try bytes("ecdsa/root.pem"), to: "ca.pem")
        let anchors = try ReloadingTrustAnchors(paths: [path("ca.pem")])
        try writeAtomically(Data("garbage\n".utf8), to: "ca.pem")
        guard case let .failed(error, kept) = anchors.reloadIfChanged() else { return XCTFail("the broken file was accepted") }
        XCTAssertEqual(error.path, path("ca.pem"))
        XCTAssertEqual(kept, 1)
        XCTAssertEqual(anchors.anchors(forLeaf: try leaf()), [try certificate("ecdsa/root.pem")])
        XCTAssertEqual(anchors.current.generation, 1)
        XCTAssertEqual(anchors.reloadIfChanged(), .unchanged, "a failure is reported once per change")

        try writeAtomically(Data(), to: "ca.pem")
        XCTAssertEqual(anchors.reloadIfChanged(), .failed(.noCertificates(path: path("ca.pem")), keptCount: 1))
        try FileManager.default.removeItem(atPath: path("ca.pem"))
        XCTAssertEqual(anchors.reloadIfChanged(), .failed(.unreadable(path: path("ca.pem"), problem: .doesNotExist), keptCount: 1))

        // Restoring the bytes in use is reported as a reload: the operator sees the recovery.
        try writeAtomically(try bytes("ecdsa/root.pem"), to: "ca.pem")
        XCTAssertEqual(anchors.reloadIfChanged(), .reloaded(count: 1))
        XCTAssertEqual(anchors.anchors(forLeaf: try leaf()), [try certificate("ecdsa/root.pem")])
    }

    func testADirectoryReadsItsRegularFilesOnly() throws {
        let bundle = path("bundle")
        try FileManager.default.createDirectory(atPath: bundle + "/nested", withIntermediateDirectories: true)
        try bytes("ecdsa/root.pem").write(to: URL(fileURLWithPath: bundle + "/a.pem"))
        try bytes("rsa/root.pem").write(to: URL(fileURLWithPath: bundle + "/nested/b.pem"))
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: bundle + "/.a.pem.tmp"))
        let anchors = try ReloadingTrustAnchors(paths: [bundle])
        XCTAssertEqual(anchors.current.anchors, [try certificate("ecdsa/root.pem")], "not recursive, hidden names skipped")

        try bytes("rsa/root.pem").write(to: URL(fileURLWithPath: bundle + "/b.pem"))
        XCTAssertEqual(anchors.reloadIfChanged(), .reloaded(count: 2))
        XCTAssertEqual(anchors.current.files, [bundle + "/a.pem", bundle + "/b.pem"])
        // A duplicate is kept once.
        try bytes("rsa/root.pem").write(to: URL(fileURLWithPath: bundle + "/c.pem"))
        XCTAssertEqual(anchors.reloadIfChanged(), .reloaded(count: 2))
    }

    /// A Kubernetes secret volume: `ca.crt -> ..data/ca.crt`, `..data -> ..<timestamp>`; the kubelet
    /// writes a new timestamped directory and swaps `..data` atomically (a rename over it). The
    /// visible symlink itself never changes; the file it resolves to does.
    func testAKubernetesStyleSymlinkSwapIsSeen() throws {
        let volume = path("volume")
        let manager = FileManager.default
        try manager.createDirectory(atPath: volume + "/..2026_01_01_00_00_00.1", withIntermediateDirectories: true)
        try bytes("ecdsa/root.pem").write(to: URL(fileURLWithPath: volume + "/..2026_01_01_00_00_00.1/ca.crt"))
        try manager.createSymbolicLink(atPath: volume + "/..data", withDestinationPath: "..2026_01_01_00_00_00.1")
        try manager.createSymbolicLink(atPath: volume + "/ca.crt", withDestinationPath: "..data/ca.crt")
        let byFile = try ReloadingTrustAnchors(paths: [volume + "/ca.crt"])
        let byDirectory = try ReloadingTrustAnchors(paths: [volume])
        XCTAssertEqual(byDirectory.current.anchors, [try certificate("ecdsa/root.pem")], "..data and the timestamped directory are not read")

        try manager.createDirectory(atPath: volume + "/..2026_01_01_00_01_00.2", withIntermediateDirectories: true)
        let next = volume + "/..2026_01_01_00_01_00.2/ca.crt"
        try bytes("rsa/root.pem").write(to: URL(fileURLWithPath: next))
        // The same modification time as the old file: only the resolved inode (and size) tell.
        let old = try manager.attributesOfItem(atPath: volume + "/..2026_01_01_00_00_00.1/ca.crt")
        try manager.setAttributes([.modificationDate: try XCTUnwrap(old[.modificationDate])], ofItemAtPath: next)
        try manager.createSymbolicLink(atPath: volume + "/..data_tmp", withDestinationPath: "..2026_01_01_00_01_00.2")
        XCTAssertEqual(rename(volume + "/..data_tmp", volume + "/..data"), 0)
        try manager.removeItem(atPath: volume + "/..2026_01_01_00_00_00.1")

        for anchors in [byFile, byDirectory] {
            XCTAssertEqual(anchors.reloadIfChanged(), .reloaded(count: 1))
            XCTAssertEqual(anchors.current.anchors, [try certificate("rsa/root.pem")])
        }
    }

    func testRunPollsUntilCancelled() async throws {
        try writeAtomically(try bytes("ecdsa/root.pem"), to: "ca.pem")
        let reloads = AsyncStream<AnchorReloadEvent>.makeStream()
        let anchors = try ReloadingTrustAnchors(paths: [path("ca.pem")], pollInterval: .milliseconds(20)) { event in
            if case .reloaded = event { reloads.continuation.yield(event) }
        }
        let polling = Task { await anchors.run() }
        defer { polling.cancel() }
        try writeAtomically(try bytes("rsa/root.pem"), to: "ca.pem")
        let seen = try await withDeadline(seconds: 10) {
            var iterator = reloads.stream.makeAsyncIterator()
            return await iterator.next()
        }
        XCTAssertEqual(seen, .reloaded(count: 1))
        XCTAssertEqual(anchors.current.anchors, [try certificate("rsa/root.pem")])
        polling.cancel()
        _ = try await withDeadline(seconds: 10) { await polling.value }
    }

    func testAPollIntervalBelowTheMinimumIsRaised() throws {
        try writeAtomically(try bytes("ecdsa/root.pem"), to: "ca.pem")
        XCTAssertEqual(
            try ReloadingTrustAnchors(paths: [path("ca.pem")], pollInterval: .zero).pollInterval,
            ReloadingTrustAnchors.minimumPollInterval)
    }
}

/// Why a bounded wait gave up.
private struct DeadlineExceeded: Error {}

/// `body`'s result, or `DeadlineExceeded` after `seconds`.
private func withDeadline<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw DeadlineExceeded() }
        return value
    }
}
