import Foundation
import TrustCore
import TrustDocuments
import TrustX509

extension PinningConfiguration {
    /// Reads SwiftTrust's JSON format (``PinningConfigurationDocument``). Certificate references
    /// that are not inline PEM resolve against `baseDirectory` (the configuration file's directory).
    ///
    /// A key written twice in one object is refused at its key path and line (`JSONDecoder` would
    /// keep the first of two `"enforcement"` keys, other readers the last), and so is a document
    /// over the ``DocumentLimits`` of every configuration reader. A document that is not UTF-8 is refused before anything decodes it (``JSONText``).
    static func loadJSON(data: Data, file: String, baseDirectory: URL?) throws(PinningConfigurationLoadError) -> PinningConfiguration {
        try PinningConfigurationLoadError.checkSize(of: data, file: file)
        let text = try JSONText.utf8Body(of: data, file: file)
        let document: PinningConfigurationDocument
        do {
            document = try JSONDecoder().decode(PinningConfigurationDocument.self, from: text)
        } catch let error as StrictKeys.Unexpected {
            throw PinningConfigurationLoadError(
                file: file, keyPath: JSONKeyPath(error.codingPath).description,
                rule: .unexpectedKey("key \"\(error.key)\""))
        } catch let error as PinningConfigurationDocument.UnsupportedVersion {
            throw PinningConfigurationLoadError(
                file: file, keyPath: JSONKeyPath(error.codingPath).description,
                rule: .unsupportedVersion(String(error.version), supported: ["1"]))
        } catch let error as DecodingError {
            throw JSONDecodingFailure(error).loadError(file: file)
        } catch {
            throw PinningConfigurationLoadError(file: file, rule: .malformedDocument(String(describing: error)))
        }
        // After decoding, so that a syntax error is reported as the parser words it; before any
        // anchor file is read.
        try JSONDuplicateKeyScanner.check(text, file: file)
        return try JSONDocumentReader(file: file, baseDirectory: baseDirectory).configuration(from: document)
    }

    /// This configuration in SwiftTrust's JSON format (sorted keys, pretty-printed, anchors as
    /// inline PEM so the file stands alone). Every configuration can be written.
    func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, arrays and enums cannot fail; an empty document would be refused on load.
        return (try? encoder.encode(document)) ?? Data()
    }

    /// The document this configuration is written as.
    var document: PinningConfigurationDocument {
        PinningConfigurationDocument(
            domains: domains.map { policy in
                var pins = PinningConfigurationDocument.Pins()
                for requirement in policy.requirements {
                    let texts = requirement.pins.map(\.description)
                    switch requirement.scope {
                    case .leaf: pins.leaf = (pins.leaf ?? []) + texts
                    case .certificateAuthority: pins.ca = (pins.ca ?? []) + texts
                    case .anyCertificate: pins.chain = (pins.chain ?? []) + texts
                    }
                }
                let anchors = policy.trustAnchors.map { anchors in
                    PinningConfigurationDocument.TrustAnchors(
                        system: anchors.includesSystemStore,
                        certificates: anchors.certificates.isEmpty ? nil : anchors.certificates.map(\.pemEncoded),
                        pinOverridingCertificates: anchors.pinOverridingCertificates.isEmpty
                            ? nil : anchors.pinOverridingCertificates.map(\.pemEncoded))
                }
                return PinningConfigurationDocument.Domain(
                    domain: policy.domain,
                    subdomains: policy.subdomains == .none ? nil : policy.subdomains,
                    pins: policy.requirements.isEmpty ? nil : pins,
                    expires: policy.expirationDate.map(PinExpirationDay.format),
                    enforcement: policy.enforcement == .enforce ? nil : policy.enforcement,
                    reportURIs: policy.reportURIs.isEmpty ? nil : policy.reportURIs.map(\.absoluteString),
                    trustAnchors: anchors)
            })
    }
}

/// Turns a decoded document into a configuration, checking every value and naming its key path.
private struct JSONDocumentReader {
    let file: String
    let baseDirectory: URL?

    func configuration(from document: PinningConfigurationDocument) throws(PinningConfigurationLoadError) -> PinningConfiguration {
        var policies: [DomainPinningPolicy] = []
        var seen: [String: Int] = [:]
        for (index, entry) in document.domains.enumerated() {
            let path = JSONKeyPath.root.key("domains").index(index)
            let policy = try self.policy(from: entry, at: path)
            if let first = seen[policy.domain] {
                throw error(at: path.key("domain"), .duplicateDomain("\(policy.domain) (also domains[\(first)])"))
            }
            seen[policy.domain] = index
            policies.append(policy)
        }
        do { return try PinningConfiguration(domains: policies) } catch {
            throw self.error(at: .root.key("domains"), .invalidPin(error))
        }
    }

    private func policy(from entry: PinningConfigurationDocument.Domain, at path: JSONKeyPath) throws(PinningConfigurationLoadError)
        -> DomainPinningPolicy
    {
        var requirements: [PinRequirement] = []
        if let pins = entry.pins {
            let lists: [(String, PinScope, [String]?)] = [
                ("leaf", .leaf, pins.leaf), ("ca", .certificateAuthority, pins.ca),
                ("chain", .anyCertificate, pins.chain),
            ]
            for (key, scope, texts) in lists {
                guard let texts else { continue }
                requirements.append(try requirement(scope: scope, texts: texts, at: path.key("pins").key(key)))
            }
            if requirements.isEmpty { throw error(at: path.key("pins"), .missingKey("pin list (leaf, ca or chain)")) }
        }
        var expiration: Date?
        if let expires = entry.expires {
            guard let day = PinExpirationDay.parse(expires) else { throw error(at: path.key("expires"), .invalidDate(expires)) }
            expiration = day
        }
        var reportURIs: [URL] = []
        for (index, text) in (entry.reportURIs ?? []).enumerated() {
            guard let url = ReportURI.parse(text) else { throw error(at: path.key("reportURIs").index(index), .invalidReportURI(text)) }
            reportURIs.append(url)
        }
        let anchors = try entry.trustAnchors.map { (anchors) throws(PinningConfigurationLoadError) in
            try trustAnchors(from: anchors, at: path.key("trustAnchors"))
        }
        do {
            return try DomainPinningPolicy(
                domain: entry.domain, subdomains: entry.subdomains ?? .none, requirements: requirements,
                expirationDate: expiration, enforcement: entry.enforcement ?? .enforce,
                reportURIs: reportURIs, trustAnchors: anchors)
        } catch {
            throw self.error(at: path.key("domain"), .invalidPin(error))
        }
    }

    private func requirement(scope: PinScope, texts: [String], at path: JSONKeyPath) throws(PinningConfigurationLoadError) -> PinRequirement {
        var pins: [SPKIPin] = []
        for (index, text) in texts.enumerated() {
            do { pins.append(try SPKIPin(text)) } catch { throw self.error(at: path.index(index), .invalidPin(error)) }
        }
        do { return try PinRequirement(scope: scope, pins: pins) } catch { throw self.error(at: path, .invalidPin(error)) }
    }

    private func trustAnchors(from anchors: PinningConfigurationDocument.TrustAnchors, at path: JSONKeyPath) throws(PinningConfigurationLoadError)
        -> PinningTrustAnchors
    {
        let checked = try certificates(anchors.certificates ?? [], at: path.key("certificates"))
        let overriding = try certificates(anchors.pinOverridingCertificates ?? [], at: path.key("pinOverridingCertificates"))
        return PinningTrustAnchors(includesSystemStore: anchors.system ?? false, certificates: checked, pinOverridingCertificates: overriding)
    }

    private func certificates(_ references: [String], at path: JSONKeyPath) throws(PinningConfigurationLoadError) -> [Certificate] {
        var result: [Certificate] = []
        for (index, reference) in references.enumerated() {
            do {
                result += try AnchorReference.load(reference, relativeTo: baseDirectory)
            } catch {
                throw self.error(at: path.index(index), .unreadableReference(error.reference, reason: error.reason))
            }
        }
        return result
    }

    private func error(at path: JSONKeyPath, _ rule: PinningConfigurationRule) -> PinningConfigurationLoadError {
        PinningConfigurationLoadError(file: file, keyPath: path.description, rule: rule)
    }
}
