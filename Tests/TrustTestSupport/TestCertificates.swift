import Foundation
import TrustX509

/// The repository's committed test corpus, `TestCertificates/` (catalogued in its README), for every
/// test target: where it is, reading its files, and the facts its certificates are made for (the
/// pinned verify date, the leaves' host names). A target adds its own scenarios as extensions.
public enum TestCertificates {
    /// The repository root: this file is `<root>/Tests/TrustTestSupport/TestCertificates.swift`.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // TestCertificates.swift
        .deletingLastPathComponent() // TrustTestSupport
        .deletingLastPathComponent() // Tests

    /// `<root>/TestCertificates`.
    public static let directory: URL = repositoryRoot.appendingPathComponent("TestCertificates", isDirectory: true)

    /// The pinned verify date of the test certificates, 2026-06-01T00:00:00Z, in seconds since 1970:
    /// every "valid" test certificate is valid then.
    public static let verifyTime: Int = 1_780_272_000
    /// ``verifyTime`` as a `Date`.
    public static let verifyDate = Date(timeIntervalSince1970: TimeInterval(verifyTime))

    /// The DNS name of the test leaves.
    public static let host = "www.swifttrust.test"
    /// A host the main leaf is not valid for.
    public static let otherHost = "api.swifttrust.test"

    /// The URL of `relative` under `TestCertificates/`.
    public static func url(_ relative: String) -> URL { directory.appendingPathComponent(relative) }

    /// The path of `relative` under `TestCertificates/`.
    public static func path(_ relative: String) -> String { url(relative).path }

    /// The private key of `TestCertificates/<dir>/<name>.pem`: `keys/<dir>/<name>.key.pem`.
    public static func keyPath(of certificate: String) -> String {
        path("keys/" + certificate.replacingOccurrences(of: ".pem", with: ".key.pem"))
    }

    /// The bytes of `relative`.
    /// - Throws: ``TestCertificateFileError/unreadable(_:)`` (the test fails naming the file).
    public static func bytes(_ relative: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(relative)) else {
            throw TestCertificateFileError.unreadable(path(relative))
        }
        return [UInt8](data)
    }

    /// Every certificate in `relative` (a PEM bundle or a DER file).
    public static func certificates(_ relative: String) throws -> [Certificate] {
        try Certificate.loadAll(from: bytes(relative))
    }

    /// The first certificate in `relative`.
    /// - Throws: ``TestCertificateFileError/noCertificate(_:)`` for a file holding none.
    public static func certificate(_ relative: String) throws -> Certificate {
        guard let first = try certificates(relative).first else { throw TestCertificateFileError.noCertificate(relative) }
        return first
    }

    /// Paths (relative to `TestCertificates/`, sorted) of every certificate `.pem`/`.der` file:
    /// not keys (any `keys/` folder), not `malformed/`, not CRLs (`*.crl.pem`).
    public static func certificateFiles() throws -> [String] {
        try files(under: directory).filter { path in
            (path.hasSuffix(".pem") || path.hasSuffix(".der"))
                && !path.hasPrefix("keys/") && !path.contains("/keys/") && !path.hasPrefix("malformed/")
                && !path.hasSuffix(".crl.pem")
        }
    }

    /// Paths (relative to `base`, by default `TestCertificates/`; sorted) of every regular file under
    /// `directory`.
    public static func files(under directory: URL, relativeTo base: URL = Self.directory) throws -> [String] {
        let base = base.standardizedFileURL.path
        guard
            let enumerator = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [])
        else { throw CocoaError(.fileReadNoSuchFile) }
        var result: [String] = []
        for case let url as URL in enumerator {
            let values = try url.resourceValues(forKeys: [.isRegularFileKey])
            guard values.isRegularFile == true else { continue }
            var path = url.standardizedFileURL.path
            if path.hasPrefix(base + "/") { path.removeFirst(base.count + 1) }
            result.append(path)
        }
        return result.sorted()
    }
}

/// Why a committed test file could not be used; thrown into the test, which fails naming the file.
public enum TestCertificateFileError: Error, CustomStringConvertible {
    /// The file is missing or unreadable (its path).
    case unreadable(String)
    /// The file holds no certificate (its path under `TestCertificates/`).
    case noCertificate(String)

    public var description: String {
        switch self {
        case let .unreadable(path): return "cannot read \(path)"
        case let .noCertificate(relative): return "\(relative) holds no certificate"
        }
    }
}

/// The test sources themselves, for the tests that keep a list of other tests honest (each named test
/// exists): found by file name anywhere under `Tests/`, so that moving a file between folders does
/// not break the list.
public enum TestSources {
    /// The URL of the test source file `name` (such as `ProfileTests.swift`) under `Tests/`.
    /// - Throws: ``TestCertificateFileError/unreadable(_:)`` when no file, or more than one, has that name.
    public static func url(named name: String) throws -> URL {
        let tests = TestCertificates.repositoryRoot.appendingPathComponent("Tests", isDirectory: true)
        let matches = try TestCertificates.files(under: tests, relativeTo: tests).filter {
            $0 == name || $0.hasSuffix("/" + name)
        }
        guard matches.count == 1, let match = matches.first else { throw TestCertificateFileError.unreadable("Tests/**/\(name)") }
        return tests.appendingPathComponent(match)
    }
}
