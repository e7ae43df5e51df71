import Foundation
import TrustX509

/// Where a `<certificates src="…">` entry takes its anchors from.
enum AndroidCertificatesSource: Hashable, Sendable {
    /// `system`: the platform's trust store.
    case system
    /// `user`: CAs the device's user installed. Linux has no such store, so it contributes no
    /// anchor: exactly a device on which the user added none.
    case user
    /// `@raw/name`: the certificates of the app resource `res/raw/name.*` (PEM or DER).
    case raw(String)

    /// Parses a `src` value: `system`, `user` or `@raw/name`, where a resource name is lower-case
    /// letters, digits and underscores (what Android's resource compiler allows for file
    /// resources), so that a reference can never leave the `res/raw` directory.
    init?(_ text: String) {
        switch text {
        case "system": self = .system
        case "user": self = .user
        default:
            let prefix = "@raw/"
            guard text.hasPrefix(prefix) else { return nil }
            let name = text.dropFirst(prefix.count)
            guard !name.isEmpty, name.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }) else {
                return nil
            }
            self = .raw(String(name))
        }
    }

    /// The `src` text.
    var text: String {
        switch self {
        case .system: return "system"
        case .user: return "user"
        case let .raw(name): return "@raw/" + name
        }
    }

    /// Reads the certificates of a `@raw/name` resource: the one file in `res/raw` (next to the
    /// `res/xml` directory `baseDirectory`) whose name is `name` or `name.` followed by any extension.
    static func loadRawResource(_ name: String, baseDirectory: URL?) throws(AndroidRawResourceError) -> [Certificate] {
        guard let baseDirectory else { throw .noBaseDirectory }
        let rawDirectory = baseDirectory.standardizedFileURL.deletingLastPathComponent().appendingPathComponent("raw", isDirectory: true)
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: rawDirectory.path) } catch {
            throw .missing(directory: rawDirectory.path)
        }
        let matches = names.filter { $0 == name || $0.hasPrefix(name + ".") }.sorted()
        guard let match = matches.first else { throw .missing(directory: rawDirectory.path) }
        guard matches.count == 1 else { throw .ambiguous(matches) }
        let path = rawDirectory.appendingPathComponent(match).path
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path) }
        do { return try Certificate.loadAll(from: Array(data)) } catch { throw .malformed(path: path, error) }
    }
}

/// Why a `@raw/name` resource yields no certificates.
enum AndroidRawResourceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The configuration was read without the `res/xml` directory it lives in.
    case noBaseDirectory
    /// No file of that name in `res/raw`.
    case missing(directory: String)
    /// Several files of that name with different extensions (Android's resource compiler refuses them too).
    case ambiguous([String])
    /// The file cannot be read.
    case unreadable(path: String)
    /// The file is not PEM or DER certificates.
    case malformed(path: String, CertificateLoadingError)

    /// What is wrong.
    var description: String {
        switch self {
        case .noBaseDirectory: return "the configuration was loaded without its res/xml directory, so @raw resources cannot be found"
        case let .missing(directory): return "no such file in \(directory)"
        case let .ambiguous(names): return "several files match: \(names.joined(separator: ", "))"
        case let .unreadable(path): return "cannot read \(path)"
        case let .malformed(path, error): return "\(path): \(error)"
        }
    }
}
