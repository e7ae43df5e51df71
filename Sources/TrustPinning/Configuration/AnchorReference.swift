import Foundation
import TrustX509

/// A trust-anchor reference in a configuration: an inline PEM block, or a file (PEM or DER, any
/// number of certificates) relative to the configuration's directory.
enum AnchorReference {
    /// Why a reference gave no certificates.
    struct Failure: Error {
        let reference: String
        let reason: String
    }

    static func load(_ reference: String, relativeTo baseDirectory: URL?) throws(Failure) -> [Certificate] {
        if reference.hasPrefix("-----BEGIN") {
            do { return try Certificate.loadAll(pem: reference) } catch {
                throw Failure(reference: "inline PEM", reason: error.description)
            }
        }
        let url: URL
        if reference.hasPrefix("/") {
            url = URL(fileURLWithPath: reference)
        } else if let baseDirectory {
            url = baseDirectory.appendingPathComponent(reference)
        } else {
            throw Failure(reference: reference, reason: "a relative path needs the configuration's directory (load from a file)")
        }
        return try loadFile(url, named: reference)
    }

    /// The most bytes an anchor file may hold: four times a configuration file, room for a whole
    /// distribution CA bundle (about 220 KB). Like every loader, reading stops there, so a device or a
    /// huge file named as an anchor is refused, never read whole (docs/robustness.md).
    static let maximumFileSize = 4 * PinningConfiguration.maximumFileSize

    /// The certificates of a file (PEM or DER); an empty, unreadable or oversized file is a failure.
    static func loadFile(_ url: URL, named name: String) throws(Failure) -> [Certificate] {
        let bytes: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            bytes = Array(try handle.read(upToCount: maximumFileSize + 1) ?? Data())
        } catch {
            throw Failure(reference: name, reason: "cannot read \(url.path)")
        }
        guard bytes.count <= maximumFileSize else {
            throw Failure(reference: name, reason: "\(url.path) is larger than \(maximumFileSize) bytes")
        }
        let certificates: [Certificate]
        do { certificates = try Certificate.loadAll(from: bytes) } catch {
            throw Failure(reference: name, reason: error.description)
        }
        guard !certificates.isEmpty else { throw Failure(reference: name, reason: "contains no certificate") }
        return certificates
    }
}
