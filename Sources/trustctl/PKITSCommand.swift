import ArgumentParser
import Foundation
import SwiftTrust

/// `trustctl pkits`: the NIST PKITS path validation tests through ServerTrust under the RFC 5280 profile.
struct PKITS: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pkits",
        abstract: "Run the NIST PKITS path validation tests (4.1-4.16) through ServerTrust.",
        discussion: """
            Each case validates its end-entity certificate under the RFC 5280 profile (.profile(.rfc5280), no host,
            no purpose) with the Trust Anchor Root Certificate as the only anchor, every other PKITS CA
            certificate as an untrusted intermediate and every PKITS CRL supplied (as the PKITS LDAP
            directory would serve them), CRL checking required offline ([.crl, .requirePositiveResponse,
            .networkAccessDisabled]), at \(PKITSRunner.verifyDateText), with the case's policy settings.
            Ends with the line 'N passed, N failed'. Exit 1 when a case not listed in --known-failures is
            answered wrong, or a listed one is answered right (the list must stay current).
            Example: trustctl pkits PKITS_data --cases scripts/pkits-cases.tsv
            runs every listed case and ends with the count (scripts/pkits fetches PKITS_data from \
            cryptography-vectors and adds --known-failures docs/pkits-known-failures.json).
            """
    )

    @Argument(help: "The PKITS_data directory (with certs/ and crls/), e.g. from PyPI's cryptography-vectors.")
    var data: String

    @Option(help: "The case list (scripts/pkits-cases.tsv).")
    var cases: String

    @Option(help: "Known wrong answers: JSON list of {id, rule, reason}.")
    var knownFailures: String?

    @Option(help: "OpenSSL's answers to the same cases (lines 'id<TAB>valid|invalid', '# version'), for the report.")
    var opensslResults: String?

    @Option(help: "Write the report (Markdown) here.")
    var markdown: String?

    @Flag(help: "List every case with its answer.")
    var verbose = false

    func run() throws {
        let list: [PKITSCase]
        do { list = try PKITSCase.parseList(String(decoding: try readInput(cases), as: UTF8.self)) } catch {
            printError("error: \(cases): \(error)")
            throw ExitCode(2)
        }
        let runner: PKITSRunner
        do { runner = try PKITSRunner(directory: data) } catch {
            printError("error: \(data): \(error)")
            throw ExitCode(2)
        }
        var results: [PKITSResult] = []
        var softFailResults: [PKITSResult] = []
        for testCase in list {
            do {
                results.append(try runner.run(testCase, softFail: false))
                if PKITSCase.revocationSections.contains(testCase.section) {
                    softFailResults.append(try runner.run(testCase, softFail: true))
                }
            } catch {
                printError("error: \(testCase.id): \(error)")
                throw ExitCode(2)
            }
        }
        var known: [KnownDisagreement] = []
        if let knownFailures {
            do { known = try JSONDecoder().decode([KnownDisagreement].self, from: Data(try readInput(knownFailures))) } catch {
                printError("error: \(knownFailures): \(error)")
                throw ExitCode(2)
            }
        }
        var openssl: [String: Bool] = [:]
        var opensslVersion: String?
        if let opensslResults {
            for line in String(decoding: try readInput(opensslResults), as: UTF8.self).split(separator: "\n") {
                if line.hasPrefix("# ") { opensslVersion = String(line.dropFirst(2)); continue }
                let fields = line.split(separator: "\t")
                if fields.count == 2 { openssl[String(fields[0])] = fields[1] == "valid" }
            }
        }
        let report = PKITSReport(
            results: results, softFailResults: softFailResults, known: known, openssl: openssl,
            opensslVersion: opensslVersion, unreadableFiles: runner.unreadableFiles)
        if verbose {
            for result in results + softFailResults {
                let mode = result.softFail ? " (soft fail)" : ""
                print("\(result.isRight ? "ok   " : "WRONG") \(result.testCase.id)\(mode) \(result.testCase.endEntity): \(result.detail)")
            }
        }
        if let markdown {
            guard FileManager.default.createFile(atPath: markdown, contents: Data(report.markdown.utf8)) else {
                printError("error: cannot write \(markdown)")
                throw ExitCode(2)
            }
        }
        print(report.sectionTable)
        for problem in report.problems { print("gate: \(problem)") }
        print("documented wrong answers: \(report.documentedWrong.count)")
        print("\(report.right.count) passed, \(report.unexpectedWrong.count) failed")
        if !report.problems.isEmpty { throw ExitCode(1) }
    }
}

/// One case's outcome.
struct PKITSResult {
    let testCase: PKITSCase
    /// Whether unknown revocation status was accepted (no .requirePositiveResponse).
    let softFail: Bool
    /// Whether ServerTrust trusted the path.
    let trusted: Bool
    /// Whether that is the answer the PKITS document expects (for a valid path: also with the
    /// expected user-constrained-policy-set).
    let isRight: Bool
    /// The valid policies, or the first failures.
    let detail: String
}

/// Loads the PKITS data once and evaluates cases against it.
struct PKITSRunner {
    /// 2012-01-01T00:00:00Z: inside the validity of every PKITS certificate and CRL meant to be current.
    static let verifyDate = Date(timeIntervalSince1970: 1_325_376_000)
    static let verifyDateText = "2012-01-01T00:00:00Z"
    static let anchorName = "TrustAnchorRootCertificate"

    let certificatesDirectory: URL
    let anchor: Certificate
    /// Every PKITS certificate that is neither an end entity nor the anchor.
    let intermediates: [Certificate]
    let crls: [CertificateRevocationList]
    /// CA certificate and CRL files the parser rejects (paths through those CAs then fail; none in
    /// the 2011 data: a CRL with a defect parses and is judged by the evaluation).
    let unreadableFiles: [String]

    init(directory: String) throws {
        let root = URL(fileURLWithPath: directory, isDirectory: true)
        let certificates = root.appendingPathComponent("certs", isDirectory: true)
        certificatesDirectory = certificates
        let files = FileManager.default
        let certificateNames = try files.contentsOfDirectory(atPath: certificates.path).filter { $0.hasSuffix(".crt") }.sorted()
        anchor = try PKITSRunner.load(certificates.appendingPathComponent("\(PKITSRunner.anchorName).crt"))
        var intermediates: [Certificate] = []
        var unreadable: [String] = []
        for name in certificateNames where !name.hasSuffix("EE.crt") && name != "\(PKITSRunner.anchorName).crt" {
            if let certificate = try? PKITSRunner.load(certificates.appendingPathComponent(name)) {
                intermediates.append(certificate)
            } else {
                unreadable.append(name)
            }
        }
        self.intermediates = intermediates
        let crlDirectory = root.appendingPathComponent("crls", isDirectory: true)
        var crls: [CertificateRevocationList] = []
        for name in try files.contentsOfDirectory(atPath: crlDirectory.path).filter({ $0.hasSuffix(".crl") }).sorted() {
            let bytes = [UInt8](try Data(contentsOf: crlDirectory.appendingPathComponent(name)))
            if let crl = try? CertificateRevocationList(derEncoded: bytes) { crls.append(crl) } else { unreadable.append(name) }
        }
        self.crls = crls
        unreadableFiles = unreadable
    }

    private static func load(_ url: URL) throws -> Certificate {
        try Certificate(derEncoded: [UInt8](try Data(contentsOf: url)))
    }

    /// Evaluates `testCase` (hard fail, or with unknown revocation status accepted) and judges the answer.
    func run(_ testCase: PKITSCase, softFail: Bool) throws -> PKITSResult {
        let expectsValid = softFail ? testCase.expectsValidSoftFail : testCase.expectsValid
        func result(trusted: Bool, isRight: Bool, detail: String) -> PKITSResult {
            PKITSResult(testCase: testCase, softFail: softFail, trusted: trusted, isRight: isRight, detail: detail)
        }
        let endEntity: Certificate
        do { endEntity = try PKITSRunner.load(certificatesDirectory.appendingPathComponent("\(testCase.endEntity).crt")) } catch let error
            as X509Error
        {
            return result(trusted: false, isRight: !expectsValid, detail: "not trusted: malformed: \(error)")
        }
        let revocation: RevocationOptions = softFail ? [.crl, .networkAccessDisabled] : [.crl, .requirePositiveResponse, .networkAccessDisabled]
        let trust = ServerTrust(certificates: [endEntity], policies: [.profile(.rfc5280, purpose: nil, hostname: nil), .revocation(revocation)])
        trust.setAnchorCertificates([anchor])
        trust.additionalIntermediates = intermediates
        trust.setCRLs(crls)
        trust.verifyDate = PKITSRunner.verifyDate
        trust.options.initialPolicySet = testCase.initialPolicySet
        trust.options.initialExplicitPolicy = testCase.initialExplicitPolicy
        trust.options.initialPolicyMappingInhibit = testCase.initialPolicyMappingInhibit
        trust.options.initialAnyPolicyInhibit = testCase.initialAnyPolicyInhibit
        let evaluation = trust.evaluate()
        guard evaluation.isTrusted else {
            let reasons = evaluation.failures.prefix(3).map(\.description).joined(separator: "; ")
            return result(trusted: false, isRight: !expectsValid, detail: "not trusted: \(reasons)")
        }
        let policies = evaluation.validPolicies?.userConstrained ?? []
        let detail = "trusted, user-constrained policies: \(ValidPolicySet.describe(policies))"
        guard expectsValid else { return result(trusted: true, isRight: false, detail: detail) }
        if policies != testCase.expectedPolicies {
            return result(trusted: true, isRight: false, detail: detail + " (expected \(ValidPolicySet.describe(testCase.expectedPolicies)))")
        }
        return result(trusted: true, isRight: true, detail: detail)
    }
}
