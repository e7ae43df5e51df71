import Foundation
import TrustCore
import TrustX509
import XCTest

/// The repository's `TestCertificates/` and helpers to evaluate scenarios from it.
enum Fixtures {
    /// `<root>/Tests/TrustCoreTests/TrustCoreTestSupport.swift` → `<root>`.
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    static let certificatesDirectory = repositoryRoot.appendingPathComponent("TestCertificates", isDirectory: true)

    /// The pinned verify date of the test certificates: 2026-06-01T00:00:00Z.
    static let verifyTime: Int = 1_780_272_000
    static let verifyDate = Date(timeIntervalSince1970: TimeInterval(verifyTime))

    static let host = "www.swifttrust.test"

    static func path(_ relative: String) -> String { certificatesDirectory.appendingPathComponent(relative).path }

    static func bytes(_ relative: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(relative)) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path(relative)])
        }
        return [UInt8](data)
    }

    /// Every certificate in `relative` (a PEM bundle or DER file under TestCertificates/).
    static func certificates(_ relative: String) throws -> [Certificate] {
        try Certificate.loadAll(from: bytes(relative))
    }

    /// The only (first) certificate in `relative`.
    static func certificate(_ relative: String) throws -> Certificate {
        guard let first = try certificates(relative).first else { throw CocoaError(.fileReadCorruptFile) }
        return first
    }

    /// A ServerTrust for `presented` (leaf first) anchored at `anchors` only, at the pinned date.
    static func trust(
        _ presented: [String], anchors: [String] = ["ecdsa/root.pem"],
        policies: [TrustPolicy] = [.ssl(server: true, hostname: Fixtures.host)]
    ) throws -> ServerTrust {
        let certificates = try presented.flatMap { try Fixtures.certificates($0) }
        let trust = ServerTrust(certificates: certificates, policies: policies)
        trust.setAnchorCertificates(try anchors.flatMap { try Fixtures.certificates($0) })
        trust.verifyDate = verifyDate
        return trust
    }
}
