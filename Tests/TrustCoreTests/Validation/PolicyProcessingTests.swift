import Foundation
@testable import TrustCore
import TrustDER
import TrustX509
import XCTest

/// RFC 5280 §6.1 certificate policy processing, on chains made with the openssl CLI: root →
/// intermediate → leaf, the intermediate and leaf carrying the policy extensions under test.
final class PolicyProcessingTests: XCTestCase {
    static let p1: ASN1ObjectIdentifier = "1.3.6.1.4.1.55555.1"
    static let p2: ASN1ObjectIdentifier = "1.3.6.1.4.1.55555.2"

    private var directory: URL!

    override func setUpWithError() throws {
        guard OpenSSLVerifyDifferentialTests.opensslPath != nil else { throw XCTSkip("openssl is not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("PolicyProcessing-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    // MARK: - Chains

    /// A chain [leaf, intermediate, root] whose root, intermediate and leaf carry the given
    /// extra extension lines (openssl x509v3_config syntax).
    private func chain(root rootLines: [String] = [], intermediate intermediateLines: [String], leaf leafLines: [String]) throws -> [Certificate] {
        let config = """
            [root]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            \(rootLines.joined(separator: "\n"))
            [intermediate]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            \(intermediateLines.joined(separator: "\n"))
            [leaf]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            \(leafLines.joined(separator: "\n"))
            """
        let configFile = directory.appendingPathComponent("ext.cnf").path
        try Data(config.utf8).write(to: URL(fileURLWithPath: configFile))
        func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try openssl(
            ["req", "-x509"] + key + [
                "-keyout", file("root.key"), "-out", file("root.pem"), "-subj", "/CN=Policy Test Root",
                "-days", "30", "-config", configFile, "-extensions", "root",
            ])
        for (name, issuer, serial) in [("intermediate", "root", "2"), ("leaf", "intermediate", "3")] {
            try openssl(
                ["req", "-new"] + key + [
                    "-keyout", file("\(name).key"), "-out", file("\(name).csr"),
                    "-subj", "/CN=Policy Test \(name)", "-config", configFile,
                ])
            try openssl([
                "x509", "-req", "-in", file("\(name).csr"), "-CA", file("\(issuer).pem"), "-CAkey", file("\(issuer).key"),
                "-set_serial", serial, "-days", "30", "-extfile", configFile, "-extensions", name, "-out", file("\(name).pem"),
            ])
        }
        return try ["leaf", "intermediate", "root"].map { name in
            try Certificate(pemEncoded: String(decoding: try Data(contentsOf: URL(fileURLWithPath: file("\(name).pem"))), as: UTF8.self))
        }
    }

    private func openssl(_ arguments: [String]) throws {
        guard let path = OpenSSLVerifyDifferentialTests.opensslPath else { throw XCTSkip("openssl is not installed") }
        let (status, output) = try OpenSSLVerifyDifferentialTests.run(path, arguments)
        guard status == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "openssl \(arguments): \(output)"]) }
    }

    /// Evaluates `chain` under the RFC 5280 profile with its root as the only anchor.
    private func evaluate(_ chain: [Certificate], configure: (ServerTrust) -> Void = { _ in }) -> TrustEvaluation {
        let trust = ServerTrust(certificates: Array(chain.dropLast()), policies: [.basicX509])
        trust.setAnchorCertificates([chain[chain.count - 1]])
        configure(trust)
        return trust.evaluate()
    }

    private func reasons(_ evaluation: TrustEvaluation) -> [TrustFailureReason] { evaluation.failures.map(\.reason) }

    // MARK: - Tests

    func testRequireExplicitPolicyInAnIntermediateRejectsALeafWithoutPolicies() throws {
        let chain = try chain(
            intermediate: ["certificatePolicies = \(Self.p1)", "policyConstraints = critical, requireExplicitPolicy:0"],
            leaf: [])
        let evaluation = evaluate(chain)
        XCTAssertFalse(evaluation.isTrusted)
        XCTAssertEqual(evaluation.failures.first { $0.reason == .explicitPolicyRequired }?.certificateIndex, 0)
    }

    func testRequireExplicitPolicyIsMetByACommonPolicy() throws {
        let chain = try chain(
            intermediate: ["certificatePolicies = \(Self.p1)", "policyConstraints = critical, requireExplicitPolicy:0"],
            leaf: ["certificatePolicies = \(Self.p1), \(Self.p2)"])
        let evaluation = evaluate(chain)
        XCTAssertTrue(evaluation.isTrusted, evaluation.description)
        XCTAssertEqual(evaluation.validPolicies?.userConstrained, [Self.p1])
        XCTAssertEqual(evaluation.validPolicies?.authoritiesConstrained, [Self.p1])
    }

    func testInitialPolicySetAndExplicitPolicyFromTheCaller() throws {
        let chain = try chain(intermediate: ["certificatePolicies = \(Self.p1)"], leaf: ["certificatePolicies = \(Self.p1)"])
        let wrongPolicy = evaluate(chain) {
            $0.options.initialPolicySet = [Self.p2]; $0.options.initialExplicitPolicy = true
        }
        XCTAssertEqual(reasons(wrongPolicy), [.explicitPolicyRequired])
        let rightPolicy = evaluate(chain) {
            $0.options.initialPolicySet = [Self.p2, Self.p1]; $0.options.initialExplicitPolicy = true
        }
        XCTAssertTrue(rightPolicy.isTrusted, rightPolicy.description)
        XCTAssertEqual(rightPolicy.validPolicies?.userConstrained, [Self.p1])
        // Without initial-explicit-policy the same mismatch is no failure, only an empty set (RFC 5280 §6.1.6).
        let notRequired = evaluate(chain) { $0.options.initialPolicySet = [Self.p2] }
        XCTAssertTrue(notRequired.isTrusted, notRequired.description)
        XCTAssertEqual(notRequired.validPolicies?.userConstrained, [])
    }

    func testPolicyMappingIsFollowedUnlessInhibited() throws {
        let chain = try chain(
            intermediate: ["certificatePolicies = \(Self.p1)", "policyMappings = \(Self.p1):\(Self.p2)"],
            leaf: ["certificatePolicies = \(Self.p2)"])
        let mapped = evaluate(chain) { $0.options.initialExplicitPolicy = true }
        XCTAssertTrue(mapped.isTrusted, mapped.description)
        // The set is named in the issuer's domain: p1, which the intermediate maps to the leaf's p2.
        XCTAssertEqual(mapped.validPolicies?.authoritiesConstrained, [Self.p1])
        let inhibited = evaluate(chain) {
            $0.options.initialExplicitPolicy = true; $0.options.initialPolicyMappingInhibit = true
        }
        XCTAssertEqual(reasons(inhibited), [.explicitPolicyRequired])
    }

    func testMappingFromAnyPolicyIsInvalid() throws {
        let chain = try chain(
            intermediate: ["certificatePolicies = \(OID.anyPolicy)", "policyMappings = \(OID.anyPolicy):\(Self.p2)"],
            leaf: ["certificatePolicies = \(Self.p2)"])
        let evaluation = evaluate(chain)
        XCTAssertEqual(evaluation.failures.map(\.reason), [.policyMappingInvalid])
        XCTAssertEqual(evaluation.failures.first?.certificateIndex, 1)
    }

    func testInhibitAnyPolicyMakesTheLeafsAnyPolicyMatchNothing() throws {
        let chain = try chain(
            intermediate: ["certificatePolicies = \(OID.anyPolicy)", "inhibitAnyPolicy = critical, 0"],
            leaf: ["certificatePolicies = \(OID.anyPolicy)"])
        let allowed = evaluate(chain) { $0.options.initialExplicitPolicy = true }
        XCTAssertEqual(reasons(allowed), [.explicitPolicyRequired])
        // The caller's initial-any-policy-inhibit has the same effect without the extension.
        let plain = try self.chain(intermediate: ["certificatePolicies = \(OID.anyPolicy)"], leaf: ["certificatePolicies = \(OID.anyPolicy)"])
        let trusted = evaluate(plain) { $0.options.initialExplicitPolicy = true }
        XCTAssertTrue(trusted.isTrusted, trusted.description)
        XCTAssertEqual(trusted.validPolicies?.userConstrained, [OID.anyPolicy])
        XCTAssertEqual(
            reasons(
                evaluate(plain) {
                    $0.options.initialExplicitPolicy = true; $0.options.initialAnyPolicyInhibit = true
                }), [.explicitPolicyRequired])
    }

    func testTheAnchorsPolicyConstraintsAreNotProcessed() throws {
        // RFC 5280 §6.1: the trust anchor is an input, not part of the path.
        let chain = try chain(root: ["policyConstraints = critical, requireExplicitPolicy:0"], intermediate: [], leaf: [])
        let evaluation = evaluate(chain)
        XCTAssertTrue(evaluation.isTrusted, evaluation.description)
        XCTAssertEqual(evaluation.validPolicies?.userConstrained, [])
    }

    func testExhaustedBudgetIsAFatalFailure() throws {
        let chain = try chain(intermediate: ["certificatePolicies = \(Self.p1), \(Self.p2)"], leaf: ["certificatePolicies = \(Self.p1)"])
        let options = ValidationRequest.testing(verifyTime: chain[0].notBefore)
        XCTAssertThrowsError(
            try PolicyProcessing.process(
                chain, inputs: options,
                budget: BudgetMeter(VerificationBudget(policyGraphOperations: 1)))
        ) { error in
            guard let exhausted = error as? BudgetExhausted else { return XCTFail("\(error)") }
            XCTAssertEqual(exhausted, BudgetExhausted(resource: .policyGraphOperations, limit: 1))
            XCTAssertEqual(exhausted.failure.reason.severity, .fatal)
        }
        XCTAssertEqual(
            try PolicyProcessing.process(chain, inputs: options, budget: BudgetMeter(VerificationBudget(policyGraphOperations: 100))),
            .valid(ValidPolicySet(authoritiesConstrained: [Self.p1], userConstrained: [Self.p1])))
    }

    /// Mapping every policy to every other at each level stays linear in the graph (one node per
    /// policy per level), where a tree would multiply: OpenSSL's CVE-2023-0464.
    func testManyMappingsStayWithinALinearBudget() throws {
        let policies = (1...20).map { ASN1ObjectIdentifier(stringLiteral: "1.3.6.1.4.1.55555.\($0)") }
        let list = policies.map(\.dotted).joined(separator: ", ")
        let mappings = policies.flatMap { from in policies.map { "\(from.dotted):\($0.dotted)" } }.joined(separator: ", ")
        let chain = try chain(
            intermediate: ["certificatePolicies = \(list)", "policyMappings = \(mappings)"],
            leaf: ["certificatePolicies = \(list)"])
        let budget = BudgetMeter(VerificationBudget(policyGraphOperations: 1_000))
        let outcome = try PolicyProcessing.process(chain, inputs: ValidationRequest.testing(verifyTime: chain[0].notBefore), budget: budget)
        guard case let .valid(set) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(set.userConstrained, Set(policies))
        // 20 nodes for the intermediate's policies and 400 mapping edges; the leaf's policies are all expected.
        XCTAssertEqual(budget.used(.policyGraphOperations), 420)
    }
}
