import ArgumentParser
import Foundation
import SwiftTrust

/// `trustctl store [--at DATE] [--root PREFIX] [--json]`.
struct Store: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Show where this machine's trust anchors come from: sources, system and administrator roots, expiry, duplicates, unreadable blocks.",
        discussion: """
            Runs the discovery every evaluation with the system store runs (SSL_CERT_FILE and SSL_CERT_DIR from the \
            environment, else the distribution bundles and directories probed in order) and reports each location \
            consulted and whether it was used; each anchor with where it was read, whether evaluations treat it as a \
            system root or an administrator's (found in /usr/local/share/ca-certificates, /etc/pki/ca-trust/source/anchors \
            or /etc/pki/trust/anchors, and not shipped in /usr/share/ca-certificates), and whether it is expired or \
            expires within 90 days; anchors read more than once, and distinct anchors with one subject and key; every \
            block or file that is not a readable certificate; certificates in administrators' directories that are not \
            anchors. --json gives the same for tools (shape in docs/trust-store.md).
            Example: trustctl store
            says, e.g., that the anchors are the 146 certificates of /etc/ssl/certs/ca-certificates.crt, 2 of them \
            administrator roots, 1 expiring within 90 days; SSL_CERT_FILE=/etc/ssl/corp.pem trustctl store shows what \
            that setting makes evaluations trust.
            Exit status: 0 anchors found, 1 no anchor found (evaluations with the system store trust nothing), 2 usage \
            errors and an SSL_CERT_FILE / SSL_CERT_DIR that is set but unusable (evaluations fail the same way).
            """
    )

    @Option(help: "Judge expiry at this instant instead of now: \(ISO8601.forms).")
    var at: String?

    @Option(
        help: ArgumentHelp(
            "Read the well-known locations (bundles, certificate directories, administrators' and the distribution's directories) under PREFIX (a mounted image, a test's layout) instead of /.",
            discussion: "SSL_CERT_FILE and SSL_CERT_DIR are still read as set. Evaluations always read the locations under /.",
            valueName: "PREFIX"))
    var root: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        if let at { _ = try ISO8601.argument(at, option: "--at") }
        if let root, root.isEmpty { throw ValidationError("--root must name a directory") }
    }

    func run() throws {
        let date = at.flatMap(ISO8601.parse) ?? Date()
        guard let now = DERTime(timeIntervalSince1970: date.timeIntervalSince1970) else {
            throw ValidationError("--at must be between the years 0 and \(DERTime.maximumYear)")
        }
        let environment = ProcessInfo.processInfo.environment
        let locations = root.map { SystemTrustStoreLocations.standard.under(root: $0) } ?? .standard
        let report = StoreReport(
            SystemTrustStore.discover(environment: environment, locations: locations),
            environment: environment, root: root, now: now)
        if json {
            try Output.printJSON(report)
        } else {
            Output.print(lines: report.lines)
        }
        if let error = report.error {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        if report.anchors.isEmpty { throw ExitCode(1) }
    }
}
