import Foundation
import TrustX509

/// `TestData/othername-constraints/` (issue 43), written by
/// `scripts/generate-othername-constraint-certificates`: CAs whose nameConstraints otherName base
/// lacks its `[0] EXPLICIT` wrapper, and leaves under them (catalogued in the folder's README).
/// Valid at ``TestCertificates/verifyDate``.
public enum OtherNameConstraintFixtures {
    /// `<root>/TestData/othername-constraints`.
    public static let directory = TestCertificates.repositoryRoot.appendingPathComponent("TestData/othername-constraints", isDirectory: true)

    /// The path of `name` in the folder.
    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The certificate in `name`.
    /// - Throws: ``TestCertificateFileError`` for a file that cannot be read or holds no certificate.
    public static func certificate(_ name: String) throws -> Certificate {
        guard let data = FileManager.default.contents(atPath: path(name)) else { throw TestCertificateFileError.unreadable(path(name)) }
        guard let first = try Certificate.loadAll(from: [UInt8](data)).first else { throw TestCertificateFileError.noCertificate(name) }
        return first
    }
}
