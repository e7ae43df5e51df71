import Foundation
import TrustPinning
import TrustX509

/// What the pinning-configuration targets (`pins-json`, `plist-xml`, `plist-binary`,
/// `android-xml`, `trustkit-json`) do with one input, the way `trustctl pins check` and
/// `trustctl pins convert` use a file: recognise its format, load it, use what loaded, and write
/// it in every format that can express it.
enum PinningConfigurationFuzzing {
    /// Where the `pins-json` target resolves relative anchor paths (`"ecdsa/root.pem"`).
    static let testCertificatesDirectory = RepositoryFiles.root.appendingPathComponent("TestCertificates", isDirectory: true)

    /// The `res/xml` directory the `android-xml` target loads from: `@raw/company_ca` and
    /// `@raw/proxy_ca` resolve to `Fuzz/Support/android-res/raw/` (links into TestCertificates/).
    static let androidResourceDirectory = RepositoryFiles.root
        .appendingPathComponent("Fuzz/Support/android-res/xml", isDirectory: true)

    /// The ECDSA chain of TestCertificates/, leaf first, that loaded pins are checked against.
    private static let chain =
        RepositoryFiles.testCertificates("ecdsa/chain.pem")
        + RepositoryFiles.testCertificates("ecdsa/root.pem")
    /// The pinned verify date of the test certificates: 2026-06-01T00:00:00Z.
    private static let verifyDate = Date(timeIntervalSince1970: 1_780_272_000)

    /// Recognises `bytes`' format, loads them as each of `formats`, and for each load that
    /// succeeds uses the configuration and checks that it round-trips through every writer.
    static func run(_ bytes: [UInt8], as formats: [PinningConfigurationFormat], baseDirectory: URL?) {
        let data = Data(bytes)
        Sink.keep(PinningConfiguration.detectFormat(of: data))
        for format in formats {
            let configuration: PinningConfiguration
            do {
                configuration = try PinningConfiguration.load(data: data, file: "fuzz", format: format, baseDirectory: baseDirectory)
            } catch {
                // The message, with its line and key path, is what a user reads.
                Sink.describe(error)
                Sink.keep(error.line)
                Sink.keep(error.keyPath)
                continue
            }
            use(configuration)
            roundTrip(configuration, loadedAs: format)
        }
    }

    /// What a manager and `pins check` do with a loaded configuration.
    private static func use(_ configuration: PinningConfiguration) {
        Sink.describe(configuration)
        for policy in configuration.domains {
            // A configured domain's own policy is the most specific one for it.
            guard configuration.policy(forHost: policy.domain)?.domain == policy.domain else {
                fatalError("policy(forHost: \"\(policy.domain)\") is not the domain's own policy in \(configuration)")
            }
            Sink.keep(policy.allPins)
            Sink.keep(policy.pinsApply(at: verifyDate))
            let check = PinSetCheck(policy: policy, chain: chain, at: verifyDate)
            Sink.keep(check.outcome)
            Sink.keep(check.unmatchedPins)
        }
        do {
            Sink.describe(try ServerTrustManager(configuration: configuration))
        } catch {
            Sink.describe(error)
        }
    }

    /// Writes `configuration` in every format; what a writer produces must be recognised as that
    /// format and load back to the same policies (a writer refuses what it cannot express, it
    /// never writes a file that loads differently). Policies are compared as a set: the property
    /// list writers order domains by key.
    private static func roundTrip(_ configuration: PinningConfiguration, loadedAs source: PinningConfigurationFormat) {
        for format in PinningConfigurationFormat.allCases {
            let written: Data
            do {
                written = try configuration.encoded(as: format)
            } catch {
                Sink.describe(error)
                continue
            }
            let text = String(decoding: written, as: UTF8.self)
            guard PinningConfiguration.detectFormat(of: written) == format else {
                fatalError("\(source) → \(format): the written file is not recognised as \(format):\n\(text)")
            }
            let reread: PinningConfiguration
            do {
                reread = try PinningConfiguration.load(data: written, file: "written", format: format)
            } catch {
                fatalError("\(source) → \(format): the written file does not load: \(error)\n\(text)")
            }
            guard Set(reread.domains) == Set(configuration.domains) else {
                fatalError("\(source) → \(format): the written file loads differently:\n\(configuration)\n\(reread)\n\(text)")
            }
        }
    }
}
