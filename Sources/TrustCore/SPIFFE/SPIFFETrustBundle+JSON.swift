import TrustDocuments
import Foundation
import TrustDER
import TrustX509

extension SPIFFETrustBundle {
    /// The largest SPIFFE bundle read, in bytes (1 MiB: a bundle of a hundred CA certificates is
    /// under 200 KiB).
    public static let maximumJSONSize = 1 << 20
    /// The most keys and values a SPIFFE bundle may hold.
    public static let maximumJSONValueCount = 20_000
    /// The deepest nesting read (a JWK Set's certificates are at depth 4).
    public static let maximumJSONDepth = 16

    /// The caps of the JSON reader, as TrustCore's document readers take them.
    package static var jsonLimits: DocumentLimits {
        DocumentLimits(maximumByteCount: maximumJSONSize, maximumNodeCount: maximumJSONValueCount, maximumDepth: maximumJSONDepth)
    }

    /// The `use` of X.509-SVID authorities (X509-SVID §6.1).
    static let x509SVIDUse = "x509-svid"
    /// The `use` of JWT-SVID authorities (JWT-SVID §6), passed over here.
    static let jwtSVIDUse = "jwt-svid"
    /// The key types of RFC 7518 §6.1 and RFC 8037 that an X.509 authority's key has (`oct` keys are secrets).
    static let knownKeyTypes: Set<String> = ["EC", "RSA", "OKP"]

    /// Reads a SPIFFE bundle (SPIFFE_Trust_Domain_and_Bundle.md §4: a JWK Set, UTF-8, no key
    /// written twice in an object, within ``maximumJSONSize``, ``maximumJSONValueCount`` and
    /// ``maximumJSONDepth``). Its X.509 authorities are the first `x5c` certificate of each key whose
    /// `use` is `x509-svid` (X509-SVID §6.2); other keys are passed over and listed in
    /// ``ignoredEntries``, as §4.2 requires.
    ///
    /// - Parameters:
    ///   - trustDomain: The bundle's trust domain (the format does not carry it); nil takes the one
    ///     its authorities name, when each names the same (a signing certificate's SPIFFE ID,
    ///     X509-SVID §3.2).
    ///   - file: The name errors give.
    /// - Throws: ``SPIFFEBundleError`` naming the file, the key path and the rule.
    public init(json data: Data, trustDomain: SPIFFETrustDomain?, file: String = "<input>") throws(SPIFFEBundleError) {
        let limits = SPIFFETrustBundle.jsonLimits
        guard data.count <= limits.maximumByteCount else {
            throw SPIFFEBundleError(file: file, rule: .tooLarge(bytes: data.count, limit: limits.maximumByteCount))
        }
        let (utf8, problem) = JSONText.utf8Body(of: data)
        guard let text = utf8 else { throw SPIFFEBundleError(file: file, rule: .notUTF8(problem ?? .invalidUTF8(byteOffset: 0))) }
        let document: JWKSetDocument
        do {
            document = try JSONDecoder().decode(JWKSetDocument.self, from: text)
        } catch let error as DecodingError {
            throw SPIFFETrustBundle.loadError(JSONDecodingFailure(error), file: file)
        } catch {
            throw SPIFFEBundleError(file: file, rule: .malformedJSON(String(describing: error)))
        }
        // After decoding, so that a syntax error is reported in the parser's words.
        switch JSONDuplicateKeyScanner.firstFinding(in: text, limits: limits) {
        case let .duplicate(keyPath, key, line)?:
            throw SPIFFEBundleError(file: file, line: line, keyPath: keyPath, rule: .duplicateKey(key))
        case let .overLimit(exceeded, keyPath, line)?:
            throw SPIFFEBundleError(file: file, line: line, keyPath: keyPath, rule: SPIFFETrustBundle.rule(exceeded))
        case nil:
            break
        }
        // §4.1.3: keys MUST be present (it may be empty).
        guard let keys = document.keys else { throw SPIFFEBundleError(file: file, rule: .missingKeys) }
        var authorities: [Certificate] = []
        var ignored: [SPIFFEBundleIgnoredEntry] = []
        for (index, key) in keys.enumerated() {
            switch try SPIFFETrustBundle.authority(of: key, at: index, file: file) {
            case let .authority(certificate, extra):
                authorities.append(certificate)
                if let extra { ignored.append(extra) }
            case let .ignored(entry):
                ignored.append(entry)
            }
        }
        let domain: SPIFFETrustDomain
        if let trustDomain {
            domain = trustDomain
        } else {
            domain = try SPIFFETrustBundle.trustDomainNamed(by: authorities, file: file)
        }
        self.init(
            trustDomain: domain, x509Authorities: authorities, sequenceNumber: document.sequenceNumber,
            refreshHintSeconds: document.refreshHint, ignoredEntries: ignored)
    }

    /// Reads the SPIFFE bundle file at `path` (see ``init(json:trustDomain:file:)``), reading no more
    /// than ``maximumJSONSize`` bytes and one.
    ///
    /// - Throws: ``SPIFFEBundleError``.
    public init(jsonFile path: String, trustDomain: SPIFFETrustDomain?) throws(SPIFFEBundleError) {
        let data = try SPIFFETrustBundle.read(path, limit: SPIFFETrustBundle.maximumJSONSize)
        try self.init(json: data, trustDomain: trustDomain, file: path)
    }

    /// What one JWK entry contributes.
    private enum Contribution {
        /// An X.509 authority, and the record of the `x5c` values beyond the first, if any.
        case authority(Certificate, extra: SPIFFEBundleIgnoredEntry?)
        /// Nothing: the entry is passed over.
        case ignored(SPIFFEBundleIgnoredEntry)
    }

    /// §4.2, X509-SVID §6.2: the authority of entry `index`, or why it is passed over.
    private static func authority(of key: JWKSetDocument.Key, at index: Int, file: String) throws(SPIFFEBundleError) -> Contribution {
        func ignore(_ reason: SPIFFEBundleIgnoredEntry.Reason) -> Contribution { .ignored(SPIFFEBundleIgnoredEntry(index: index, reason: reason)) }
        guard let use = key.use else { return ignore(.missingUse) }
        guard use == x509SVIDUse else { return ignore(use == jwtSVIDUse ? .jwtSVID : .unknownUse(use)) }
        guard let kty = key.kty else { return ignore(.missingKeyType) }
        guard knownKeyTypes.contains(kty) else { return ignore(.unknownKeyType(kty)) }
        guard let x5c = key.x5c, let first = x5c.first else { return ignore(.noCertificate) }
        let keyPath = JSONKeyPath.root.key("keys").index(index).key("x5c").index(0).description
        // RFC 7517 §4.7: base64 (not base64url) DER.
        guard let der = Base64.decode(first.utf8) else { throw SPIFFEBundleError(file: file, keyPath: keyPath, rule: .invalidBase64) }
        let certificate: Certificate
        do { certificate = try Certificate(derEncoded: der) } catch {
            throw SPIFFEBundleError(file: file, keyPath: keyPath, rule: .invalidCertificate(error.description))
        }
        let extra = x5c.count > 1 ? SPIFFEBundleIgnoredEntry(index: index, reason: .extraCertificates(count: x5c.count)) : nil
        return .authority(certificate, extra: extra)
    }

    /// The one trust domain every authority names in its SPIFFE ID (X509-SVID §3.2: a signing
    /// certificate's ID is `spiffe://trust-domain`).
    static func trustDomainNamed(by authorities: [Certificate], file: String) throws(SPIFFEBundleError) -> SPIFFETrustDomain {
        var named: SPIFFETrustDomain?
        for (index, authority) in authorities.enumerated() {
            let uris = authority.uriSubjectAltNames
            guard uris.count == 1, let id = try? SPIFFEID(uris[0]) else {
                throw SPIFFEBundleError(
                    file: file, rule: .trustDomainUnknown("its authority \(index) names no single SPIFFE ID (\(uris.count) URIs)"))
            }
            if let named, named != id.trustDomain {
                throw SPIFFEBundleError(file: file, rule: .trustDomainUnknown("its authorities name \(named) and \(id.trustDomain)"))
            }
            named = id.trustDomain
        }
        guard let named else { throw SPIFFEBundleError(file: file, rule: .trustDomainUnknown("it has no X.509 authority to name one")) }
        return named
    }

    /// The bytes of `path`, at most `limit` (one more is read to tell a larger file).
    package static func read(_ path: String, limit: Int) throws(SPIFFEBundleError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SPIFFEBundleError(file: path, rule: .unreadable)
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: limit + 1) ?? Data() } catch {
            throw SPIFFEBundleError(file: path, rule: .unreadable)
        }
        guard data.count <= limit else { throw SPIFFEBundleError(file: path, rule: .tooLarge(bytes: data.count, limit: limit)) }
        return data
    }

    /// A `JSONDecoder` failure as the load error of `file`.
    private static func loadError(_ failure: JSONDecodingFailure, file: String) -> SPIFFEBundleError {
        let path = failure.keyPath.description
        switch failure.kind {
        case let .wrongType(expected, found): return SPIFFEBundleError(file: file, keyPath: path, rule: .wrongType(expected: expected, found: found))
        case .missingKey: return SPIFFEBundleError(file: file, keyPath: path, rule: .missingKeys)
        case let .invalidValue(words): return SPIFFEBundleError(file: file, keyPath: path, rule: .invalidValue(words))
        case let .malformedDocument(words): return SPIFFEBundleError(file: file, rule: .malformedJSON(words))
        }
    }

    /// The rule of a limit exceeded.
    private static func rule(_ exceeded: DocumentLimitExceeded) -> SPIFFEBundleRule {
        switch exceeded {
        case let .tooLarge(byteCount, limit): return .tooLarge(bytes: byteCount, limit: limit)
        case let .tooManyNodes(limit): return .tooManyValues(limit: limit)
        case let .tooDeep(limit): return .tooDeep(limit: limit)
        case let .tooMuchContent(limit): return .tooLarge(bytes: limit + 1, limit: limit)
        }
    }
}

/// The parts of a SPIFFE bundle (a JWK Set, RFC 7517 §5) that X.509 authorities are read from;
/// other parameters are passed over (§4.1: they MAY be present and MUST NOT be required).
struct JWKSetDocument: Decodable {
    /// One JWK (RFC 7517 §4): `kty` and `x5c` are read only for `x509-svid` keys, so a key of
    /// another use is passed over whatever it holds.
    struct Key: Decodable {
        let use: String?
        let kty: String?
        let x5c: [String]?

        enum CodingKeys: String, CodingKey { case use, kty, x5c }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            use = try container.decodeIfPresent(String.self, forKey: .use)
            let isX509 = use == SPIFFETrustBundle.x509SVIDUse
            kty = isX509 ? try container.decodeIfPresent(String.self, forKey: .kty) : nil
            x5c = isX509 ? try container.decodeIfPresent([String].self, forKey: .x5c) : nil
        }
    }

    let keys: [Key]?
    /// §4.1.1 (at least 64 bits).
    let sequenceNumber: UInt64?
    /// §4.1.2, in seconds.
    let refreshHint: Int64?

    enum CodingKeys: String, CodingKey {
        case keys
        case sequenceNumber = "spiffe_sequence"
        case refreshHint = "spiffe_refresh_hint"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        keys = try container.decodeIfPresent([Key].self, forKey: .keys)
        sequenceNumber = try Self.integer(UInt64.self, .sequenceNumber, in: container)
        refreshHint = try Self.integer(Int64.self, .refreshHint, in: container)
    }

    /// The integer under `key`, if present. Foundation reports a number out of range, or not whole,
    /// as invalid JSON at the top; this names the key instead.
    private static func integer<Value: Decodable & FixedWidthInteger>(
        _ type: Value.Type, _ key: CodingKeys,
        in container: KeyedDecodingContainer<CodingKeys>
    ) throws -> Value? {
        do { return try container.decodeIfPresent(Value.self, forKey: key) } catch {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "\(key.stringValue) is not an integer from \(Value.min) to \(Value.max)")
        }
    }
}
