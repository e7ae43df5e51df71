import Foundation
import TrustDER
import TrustX509

/// Keeps the results of the calls a fuzz target makes observable, so that the optimiser cannot drop
/// a call whose only effect is the value it computes (the code paths are the point, not the values).
enum Sink {
    // Written only from the fuzzing thread: libFuzzer calls LLVMFuzzerTestOneInput on one thread.
    nonisolated(unsafe) private static var hasher = Hasher()

    /// Folds `value` into the running hash.
    static func keep(_ value: some Hashable) { hasher.combine(value) }

    /// Folds the text `value` prints as, reaching its `description` (and what that reads).
    static func describe(_ value: Any) { hasher.combine(String(describing: value)) }
}

/// The repository's files, found from this source file's place (`<root>/Fuzz/Support/`) as the
/// test targets find theirs, so the targets run from any working directory.
enum RepositoryFiles {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The bytes of `relative` under `TestCertificates/`; a missing file stops the run (a setup
    /// error, not a finding).
    static func testCertificateBytes(_ relative: String) -> [UInt8] {
        let path = root.appendingPathComponent("TestCertificates").appendingPathComponent(relative).path
        guard let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("fuzz: cannot read \(path)\n".utf8))
            exit(2)
        }
        return [UInt8](data)
    }

    /// Every certificate in `relative` under `TestCertificates/`.
    static func testCertificates(_ relative: String) -> [Certificate] {
        do {
            return try Certificate.loadAll(from: testCertificateBytes(relative))
        } catch {
            FileHandle.standardError.write(Data("fuzz: cannot load \(relative): \(error)\n".utf8))
            exit(2)
        }
    }
}

/// Splits fuzz input into the DER elements it holds one after the other (a chain, a CRL, an OCSP
/// response...), stopping at the first byte that does not start a well-formed element.
enum ConcatenatedDER {
    static func elements(_ bytes: ArraySlice<UInt8>) -> [[UInt8]] {
        var reader = DERReader(bytes)
        var elements: [[UInt8]] = []
        while !reader.isAtEnd, let element = try? reader.next() {
            elements.append(Array(element.encoded))
        }
        return elements
    }
}

/// Two strings from one input: the text before the first NUL byte and the text after it (empty
/// when there is none), decoded as UTF-8 with invalid sequences replaced, as a peer's names are.
struct StringPair {
    let first: String
    let second: String
    let firstBytes: [UInt8]
    let secondBytes: [UInt8]

    init(_ bytes: [UInt8]) {
        let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
        firstBytes = Array(bytes[..<split])
        secondBytes = split < bytes.endIndex ? Array(bytes[(split + 1)...]) : []
        first = String(decoding: firstBytes, as: UTF8.self)
        second = String(decoding: secondBytes, as: UTF8.self)
    }
}
