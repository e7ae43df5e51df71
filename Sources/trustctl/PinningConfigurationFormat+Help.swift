import ArgumentParser
import SwiftTrust
import TrustPinning

/// `--format`, `--to` and `--emit-config` take a format's name; the registry lists them.
extension PinningConfigurationFormat: ExpressibleByArgument {}

/// The help texts' lists of formats, from the registry, so a new format appears in every command.
extension PinningConfigurationFormat {
    /// The names `--format` accepts: `trustkit, ats, android or json`.
    static var helpNames: String {
        let names = allCases.map(\.rawValue)
        guard let last = names.last else { return "" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
    }

    /// The formats a configuration file may be in: `TrustKit, ATS (NSPinnedDomains), …`.
    static var helpDisplayNames: String { allCases.map(\.displayName).joined(separator: ", ") }

    /// One line per format: its name, its files' extensions, and the codec's notes.
    static var helpNotes: String {
        allCases.map { format in
            "  \(format.rawValue) (\(format.codec.fileExtensions.map { "." + $0 }.joined(separator: " "))): \(format.codec.notes)"
        }.joined(separator: "\n")
    }
}
