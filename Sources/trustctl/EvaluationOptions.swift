import ArgumentParser
import Foundation
import SwiftTrust
import TrustPinning

/// The evaluation options `verify` and `probe` share: limits, a server-trust evaluator and its pins,
/// and revocation.
struct EvaluationOptions: ParsableArguments {
    /// The server-trust evaluators `--policy` selects.
    enum Policy: String, ExpressibleByArgument, CaseIterable {
        case `default`, revocation, pinnedCertificates = "pinned-certificates", publicKeys = "public-keys", spki, disabled
    }

    @Option(help: "Maximum number of intermediate CAs (self-issued ones not counted).")
    var maxDepth: Int?

    @Flag(help: "Accept SHA-1 signatures and RSA keys under 2048 bits.")
    var allowLegacyAlgorithms = false

    @Option(help: "Judge the chain with a server-trust evaluator: default, revocation, pinned-certificates, public-keys, spki, disabled.")
    var policy: Policy?

    @Option(name: .customLong("pin"), help: "Certificates whose certificate or public key is pinned (repeatable).")
    var pinFiles: [String] = []

    @Option(name: .customLong("pin-sha256"), help: "A pinned SPKI hash, BASE64 or sha256/BASE64 (repeatable; --policy spki).")
    var pinSHA256: [String] = []

    @Flag(help: "Make the pinned certificates the only anchors (--policy pinned-certificates).")
    var acceptSelfSigned = false

    @Flag(help: "Skip default validation (the chain is still validated when the host is).")
    var noDefaultValidation = false

    @Flag(help: "Skip host-name validation.")
    var noHostValidation = false

    @Option(name: .customLong("crl"), help: "A CRL (DER or PEM) to check revocation with (repeatable).")
    var crlFiles: [String] = []

    @Option(name: .customLong("ocsp-response"), help: "An OCSP response (DER), e.g. a stapled one (repeatable).")
    var ocspResponseFiles: [String] = []

    @Option(help: "Check revocation: comma list of ocsp, crl, prefer-crl, require-positive, no-network, any.")
    var revocation: String?

    func validate() throws {
        try validatePolicyOptions()
        if let maxDepth, maxDepth < 0 { throw ValidationError("--max-depth must be zero or more") }
        if let revocation { _ = try RevocationFlags.parse(revocation) }
    }

    /// The revocation flags in force: from --revocation, or "any available, offline" when only
    /// --crl / --ocsp-response were given; nil when revocation is not checked.
    var revocationOptions: RevocationOptions? {
        if let revocation { return try? RevocationFlags.parse(revocation) }
        if !crlFiles.isEmpty || !ocspResponseFiles.isEmpty { return [.useAnyAvailableMethod, .networkAccessDisabled] }
        return policy == .revocation ? [] : nil
    }

    /// Sets what --max-depth and --allow-legacy-algorithms ask for on `options`
    /// (``TrustOptions/commandLine(trust:certificatePolicies:evaluation:)``).
    func apply(to options: inout TrustOptions) {
        if let maxDepth { options.maximumDepth = maxDepth }
        if allowLegacyAlgorithms { options.signaturePolicy = .legacy }
    }

    /// The flags given that set trust options only an evaluation enforces, as the user wrote them.
    var optionFlags: [String] {
        [
            (revocation != nil, "--revocation"), (!crlFiles.isEmpty, "--crl"), (!ocspResponseFiles.isEmpty, "--ocsp-response"),
            (maxDepth != nil, "--max-depth"), (allowLegacyAlgorithms, "--allow-legacy-algorithms"),
        ]
        .filter(\.0).map(\.1)
    }

    /// Refuses an evaluator that accepts without evaluating (`--policy disabled`, a pinning policy
    /// with `--no-default-validation` and no host validation) together with any option only an
    /// evaluation enforces (``TrustConfiguration/requiresEvaluation``: `--profile`, the revocation flags,
    /// `--max-depth`, the certificate-policy flags, the CT log lists, ...), naming both; and the options of Apple's SSL
    /// policy (`--key-usage`, ...) under a profile that is not it.
    func validateEnforceable(
        trust: TrustInputOptions, certificatePolicies: PolicyInputOptions, validatesHost: Bool,
        transparency: CertificateTransparencyOptions? = nil
    ) throws {
        try certificatePolicies.ssl.validate(profile: trust.profile)
        guard let policy else { return }
        let skips =
            policy == .disabled
            || ([.pinnedCertificates, .publicKeys, .spki].contains(policy) && noDefaultValidation && (noHostValidation || !validatesHost))
        let options = TrustOptions.commandLine(trust: trust, certificatePolicies: certificatePolicies, evaluation: self)
        // CT logs, like the options, are enforced by the evaluation only (TrustConfiguration.requiresEvaluation).
        let transparencyFlags = transparency?.givenFlags ?? []
        guard skips, options.requiresEvaluation || !transparencyFlags.isEmpty else { return }
        let flags = trust.optionFlags + optionFlags + certificatePolicies.givenFlags + transparencyFlags
        let how = policy == .disabled ? "--policy disabled" : "--policy \(policy.rawValue) without default or host validation"
        throw ValidationError(
            "\(how) accepts without evaluating the chain, so it cannot enforce "
                + (flags.isEmpty ? options.summary : flags.joined(separator: ", ")))
    }

    /// Rejects pinning options that the chosen policy (or no policy) would ignore.
    private func validatePolicyOptions() throws {
        guard let policy else {
            let used = [
                (!pinFiles.isEmpty, "--pin"), (!pinSHA256.isEmpty, "--pin-sha256"), (acceptSelfSigned, "--accept-self-signed"),
                (noDefaultValidation, "--no-default-validation"), (noHostValidation, "--no-host-validation"),
            ]
            if let (_, flag) = used.first(where: { $0.0 }) { throw ValidationError("\(flag) requires --policy") }
            return
        }
        if !pinFiles.isEmpty && ![.pinnedCertificates, .publicKeys, .spki].contains(policy) {
            throw ValidationError("--pin applies to --policy pinned-certificates, public-keys or spki")
        }
        if !pinSHA256.isEmpty && policy != .spki { throw ValidationError("--pin-sha256 applies to --policy spki") }
        if acceptSelfSigned && policy != .pinnedCertificates {
            throw ValidationError("--accept-self-signed applies to --policy pinned-certificates")
        }
        if noDefaultValidation && (policy == .default || policy == .disabled) {
            throw ValidationError("--no-default-validation does not apply to --policy \(policy.rawValue)")
        }
        if noHostValidation && policy == .disabled { throw ValidationError("--no-host-validation does not apply to --policy disabled") }
        if (policy == .pinnedCertificates || policy == .publicKeys) && pinFiles.isEmpty {
            throw ValidationError("--policy \(policy.rawValue) needs at least one --pin FILE")
        }
    }

    /// Loads --crl and --ocsp-response files (malformed files exit with status 2), for
    /// ``TrustConfiguration/commandLine(trust:loaded:certificatePolicies:evaluation:revocationDocuments:fetchesMissingIssuers:transparency:)``.
    func loadRevocationDocuments() throws -> RevocationDocuments {
        var documents = RevocationDocuments()
        for file in crlFiles {
            do { documents.crls.append(contentsOf: try CertificateRevocationList.loadAll(from: try readInput(file))) } catch let error as X509Error {
                printError("error: \(file): \(error)")
                throw ExitCode(2)
            }
        }
        for file in ocspResponseFiles {
            do { documents.ocspResponses.append(try OCSPResponse(derEncoded: try readInput(file))) } catch let error as X509Error {
                printError("error: \(file): \(error)")
                throw ExitCode(2)
            }
        }
        return documents
    }

    /// A `--pin-sha256` value read as TrustKit reads a pin (the bytes Foundation's base64 decoder
    /// gives are the pin: padding bits set in the last character are dropped), with a note on
    /// standard error naming the canonical form when the text is not canonical.
    static func trustKitStylePin(_ text: String) throws(PinningConfigurationError) -> SPKIPin {
        let bare = text.hasPrefix(SPKIPin.prefix) ? String(text.dropFirst(SPKIPin.prefix.count)) : text
        let pin: SPKIPin
        do { pin = try SPKIPin(trustKitBase64: bare) } catch let .malformedPin(_, reason) {
            throw .malformedPin(text, reason: reason) // name the value as given, prefix and all
        }
        if pin.canonicalBase64 != bare {
            printError("note: --pin-sha256 \(text) is not canonical base64 (padding bits set or extra \"=\"); read as TrustKit reads it, as \(pin)")
        }
        return pin
    }

    /// The evaluator for `policy`, validating `host` unless --no-host-validation or there is no host;
    /// malformed pins exit with status 2.
    func makeEvaluator(_ policy: Policy, host: String?) throws -> any ServerTrustEvaluating {
        let pinned = try pinFiles.flatMap(loadCertificates)
        let defaultValidation = !noDefaultValidation
        let validateHost = !noHostValidation && host != nil
        switch policy {
        case .default:
            return DefaultTrustEvaluator(validateHost: validateHost)
        case .revocation:
            return RevocationTrustEvaluator(
                performDefaultValidation: defaultValidation, validateHost: validateHost,
                options: revocationOptions ?? [])
        case .pinnedCertificates:
            return PinnedCertificatesTrustEvaluator(
                certificates: pinned, acceptSelfSignedCertificates: acceptSelfSigned,
                performDefaultValidation: defaultValidation, validateHost: validateHost)
        case .publicKeys:
            return PublicKeysTrustEvaluator(keys: pinned.publicKeys, performDefaultValidation: defaultValidation, validateHost: validateHost)
        case .spki:
            do {
                let pins = try pinSHA256.map { text throws(PinningConfigurationError) in try Self.trustKitStylePin(text).description }
                return try PinnedSPKIHashesTrustEvaluator(
                    pins: pins + pinned.map(\.spkiPin), performDefaultValidation: defaultValidation,
                    validateHost: validateHost)
            } catch {
                printError("error: \(error)")
                throw ExitCode(2)
            }
        case .disabled:
            return DisabledTrustEvaluator()
        }
    }
}
