import Synchronization
import TrustCrypto
import TrustDER

/// A certificate revocation list (RFC 5280 §5), parsed strictly and once.
///
/// Revoked entries are indexed by serial number, so looking a certificate up is O(1) on average
/// even for CRLs with hundreds of thousands of entries. Semantic defects (an inner/outer algorithm
/// mismatch, a partial-octet signature, an unhandled critical entry extension) do not stop the
/// parse: they are recorded in ``semanticDefects`` and keep the CRL out of every status decision.
public struct CertificateRevocationList: Sendable {
    /// One revoked certificate (RFC 5280 §5.1.2.6, §5.3).
    public struct Entry: Hashable, Sendable {
        /// The serial number's content octets as encoded.
        public let serialNumber: ArraySlice<UInt8>
        /// When the certificate was revoked.
        public let revocationDate: DERTime
        /// The reasonCode entry extension, if present.
        public let reason: CRLReason?
        /// The invalidityDate entry extension, if present.
        public let invalidityDate: DERTime?
        /// The certificateIssuer entry extension (indirect CRLs), if present.
        public let certificateIssuer: [GeneralName]?
    }

    /// The issuingDistributionPoint extension (RFC 5280 §5.2.5).
    public struct IssuingDistributionPoint: Hashable, Sendable {
        /// The distribution point this CRL covers.
        public let distributionPoint: DistributionPointName?
        /// Only end-entity certificates are covered.
        public let onlyContainsUserCerts: Bool
        /// Only CA certificates are covered.
        public let onlyContainsCACerts: Bool
        /// Only these revocation reasons are covered (nil: every reason).
        public let onlySomeReasons: RevocationReasons?
        /// The CRL is indirect (entries may name other issuers).
        public let indirectCRL: Bool
        /// Only attribute certificates are covered.
        public let onlyContainsAttributeCerts: Bool
    }

    final class Storage: Sendable {
        let der: [UInt8]
        let tbs: ArraySlice<UInt8>
        let version: Int
        let signatureAlgorithm: AlgorithmIdentifier
        let signature: ArraySlice<UInt8>
        let issuer: DistinguishedName
        let thisUpdate: DERTime
        let nextUpdate: DERTime?
        let entries: [Entry]
        /// Entry positions by serial number content octets (DER INTEGERs are minimal, so equal
        /// octets are equal integers and `00 FF` (255) never meets `FF` (-1)).
        let index: [ArraySlice<UInt8>: [Int]]
        /// Per entry, the certificate issuer it belongs to in an indirect CRL (RFC 5280 §5.3.3:
        /// the nearest certificateIssuer at or before it); nil means the CRL issuer.
        let entryIssuers: [[GeneralName]?]
        let semanticDefects: [CRLDefect]
        let extensions: [Extension]
        let crlNumber: ArraySlice<UInt8>?
        let deltaCRLIndicator: ArraySlice<UInt8>?
        let issuingDistributionPoint: IssuingDistributionPoint?
        let authorityKeyIdentifier: AuthorityKeyIdentifier?

        init(der: [UInt8]) throws {
            self.der = der
            let outer = try DERReader.parseSingle(der)
            try outer.expect(.sequence)
            var list = try outer.children()
            let tbsElement = try list.read(.sequence)
            let outerAlgorithmElement = try list.read(.sequence)
            let outerAlgorithm = try AlgorithmIdentifier.parse(outerAlgorithmElement)
            let bitsElement = try list.read(.bitString)
            let bits = try bitsElement.bitString()
            try list.finish()
            var defects: [CRLDefect] = []
            if bits.unusedBits != 0 { defects.append(.signatureNotWholeOctets(offset: bitsElement.offset)) }
            tbs = tbsElement.encoded
            signatureAlgorithm = outerAlgorithm
            signature = bits.bytes

            var fields = try tbsElement.children()
            var version = 1
            if let v = try fields.readIfPresent(.integer) {
                // RFC 5280 §5.1.2.1: if present, version MUST be v2 (1).
                guard try v.integer(as: Int.self) == 1 else { throw X509Error.structure("CRL version must be v2", at: v.offset) }
                version = 2
            }
            self.version = version
            let inner = try AlgorithmIdentifier.parse(try fields.read(.sequence))
            // RFC 5280 §5.1.1.2, compared as algorithms (see AlgorithmIdentifier.isSameAlgorithm).
            if !inner.isSameAlgorithm(as: outerAlgorithm) {
                defects.append(.signatureAlgorithmMismatch(tbsCertList: inner, certList: outerAlgorithm, offset: outerAlgorithmElement.offset))
            }
            issuer = try DistinguishedName(element: try fields.read(.sequence))
            thisUpdate = try fields.readAny().time()
            var nextUpdate: DERTime?
            if let tag = try fields.peekTag(), tag == .utcTime || tag == .generalizedTime {
                nextUpdate = try fields.readAny().time()
            }
            self.nextUpdate = nextUpdate

            var entries: [Entry] = []
            var entryOffsets: [Int] = []
            var index: [ArraySlice<UInt8>: [Int]] = [:]
            if let revoked = try fields.readIfPresent(.sequence) {
                var reader = try revoked.children()
                while let entryElement = try reader.next() {
                    let entry = try Storage.parseEntry(entryElement, version: version, defects: &defects)
                    index[entry.serialNumber, default: []].append(entries.count)
                    entries.append(entry)
                    entryOffsets.append(entryElement.offset)
                }
                // RFC 5280 §5.1.2.6: when there are no revoked certificates the list MUST be absent.
                if entries.isEmpty { throw X509Error.structure("empty revokedCertificates must be omitted", at: revoked.offset) }
            }
            self.entries = entries
            self.index = index

            var extensions: [Extension] = []
            if let explicit = try fields.readIfPresent(.context(0, constructed: true)) {
                guard version == 2 else { throw X509Error.structure("CRL extensions require v2", at: explicit.offset) }
                var wrapper = try explicit.children()
                extensions = try Extensions.parseList(try wrapper.read(.sequence))
                try wrapper.finish()
            }
            try fields.finish()
            self.extensions = extensions

            func find(_ oid: ASN1ObjectIdentifier) -> Extension? { extensions.first { $0.oid == oid } }
            func wrap<T>(_ ext: Extension, _ parse: () throws -> T) throws -> T {
                do { return try parse() } catch {
                    throw X509Error(.malformedExtension(name: ext.name, underlying: "\(error)", offset: ext.offset))
                }
            }
            crlNumber = try find(OID.crlNumber).map { ext in try wrap(ext) { try DERReader.parseSingle(ext.value).integerBytes() } }
            deltaCRLIndicator = try find(OID.deltaCRLIndicator).map { ext in try wrap(ext) { try DERReader.parseSingle(ext.value).integerBytes() } }
            authorityKeyIdentifier = try find(OID.authorityKeyIdentifier).flatMap { ext in
                try wrap(ext) { try AuthorityKeyIdentifier.read(ext.value, building: true).view }
            }
            let idp = try find(OID.issuingDistributionPoint).map { ext in try wrap(ext) { try Storage.parseIDP(ext.value) } }
            issuingDistributionPoint = idp

            // RFC 5280 §5.3.3: in an indirect CRL each entry belongs to the issuer named by the nearest
            // certificateIssuer at or before it (the CRL issuer before the first); a direct CRL lists
            // only its own issuer's certificates, so naming another issuer there is a defect.
            var entryIssuers: [[GeneralName]?] = []
            entryIssuers.reserveCapacity(entries.count)
            var current: [GeneralName]?
            for (position, entry) in entries.enumerated() {
                if let named = entry.certificateIssuer {
                    if idp?.indirectCRL == true {
                        current = named
                    } else if !defects.contains(where: { if case .certificateIssuerInDirectCRL = $0 { true } else { false } }) {
                        defects.append(.certificateIssuerInDirectCRL(offset: entryOffsets[position]))
                    }
                }
                entryIssuers.append(current)
            }
            self.entryIssuers = entryIssuers
            semanticDefects = defects
        }

        static func parseEntry(_ element: DERElement, version: Int, defects: inout [CRLDefect]) throws -> Entry {
            try element.expect(.sequence)
            var fields = try element.children()
            let serial = try fields.read(.integer).integerBytes()
            let date = try fields.readAny().time()
            var reason: CRLReason?
            var invalidity: DERTime?
            var certificateIssuer: [GeneralName]?
            if let extensionsElement = try fields.readIfPresent(.sequence) {
                guard version == 2 else { throw X509Error.structure("CRL entry extensions require v2", at: extensionsElement.offset) }
                for ext in try Extensions.parseList(extensionsElement) {
                    switch ext.oid {
                    case OID.crlReason: reason = try CRLReason.parse(try DERReader.parseSingle(ext.value))
                    case OID.invalidityDate: invalidity = try DERReader.parseSingle(ext.value).time()
                    case OID.certificateIssuer: certificateIssuer = try GeneralName.parseSequence(ext.value)
                    default:
                        // RFC 5280 §5.3: an unrecognised critical entry extension makes the CRL unusable
                        // (a verdict about this CRL, not a reason to refuse the whole input).
                        if ext.isCritical { defects.append(.unhandledCriticalEntryExtension(oid: ext.oid.dotted, offset: ext.offset)) }
                    }
                }
            }
            try fields.finish()
            return Entry(serialNumber: serial, revocationDate: date, reason: reason, invalidityDate: invalidity, certificateIssuer: certificateIssuer)
        }

        static func parseIDP(_ value: ArraySlice<UInt8>) throws -> IssuingDistributionPoint {
            let element = try DERReader.parseSingle(value)
            try element.expect(.sequence)
            var reader = try element.children()
            let point = try reader.readIfPresent(.context(0, constructed: true)).map { wrapper throws -> DistributionPointName in
                var inner = try wrapper.children()
                let name = try DistributionPointName.parse(try inner.readAny().indexed, in: value)
                try inner.finish()
                return name
            }
            func flag(_ number: UInt32) throws -> Bool {
                guard let element = try reader.readIfPresent(.context(number, constructed: false)) else { return false }
                // [n] IMPLICIT BOOLEAN DEFAULT FALSE: DER omits FALSE.
                guard element.content.count == 1, element.content.first == 0xFF else {
                    throw X509Error.structure("issuingDistributionPoint flag must be TRUE when present", at: element.offset)
                }
                return true
            }
            let onlyUser = try flag(1)
            let onlyCA = try flag(2)
            let someReasons = try reader.readIfPresent(.context(3, constructed: false)).map { element throws in
                try RevocationReasons.parse(element.indexed, in: value, tag: .context(3, constructed: false))
            }
            let indirect = try flag(4)
            let onlyAttribute = try flag(5)
            try reader.finish()
            // RFC 5280 §5.2.5: at most one of the "only" flags.
            if [onlyUser, onlyCA, onlyAttribute].filter({ $0 }).count > 1 {
                throw X509Error.structure("issuingDistributionPoint sets more than one only-contains flag", at: element.offset)
            }
            return IssuingDistributionPoint(
                distributionPoint: point, onlyContainsUserCerts: onlyUser, onlyContainsCACerts: onlyCA,
                onlySomeReasons: someReasons, indirectCRL: indirect,
                onlyContainsAttributeCerts: onlyAttribute)
        }
    }

    let storage: Storage

    /// Parses a DER-encoded CRL.
    public init(derEncoded bytes: [UInt8]) throws(X509Error) {
        storage = try mapX509Errors { try Storage(der: bytes) }
    }

    /// Parses every `X509 CRL` block of PEM text, or a single DER CRL.
    public static func loadAll(from bytes: [UInt8]) throws(X509Error) -> [CertificateRevocationList] {
        guard PEM.looksLikePEM(bytes) else { return [try CertificateRevocationList(derEncoded: bytes)] }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw X509Error(.pem(.malformedMarker(line: 0))) }
        let blocks: [PEMBlock]
        do { blocks = try PEM.decode(text) } catch { throw X509Error(.pem(error)) }
        var crls: [CertificateRevocationList] = []
        for (index, block) in blocks.enumerated() {
            guard block.label == "X509 CRL" else { throw X509Error(.unexpectedPEMBlock(label: block.label, line: block.line)) }
            do { crls.append(try CertificateRevocationList(derEncoded: block.der)) } catch {
                throw error.inPEMBlock(PEMBlockLocation(block, index: index))
            }
        }
        if crls.isEmpty { throw X509Error(.empty) }
        return crls
    }

    /// The DER encoding.
    public var derEncoded: [UInt8] { storage.der }
    /// The exact tbsCertList bytes the signature covers.
    public var tbsBytes: ArraySlice<UInt8> { storage.tbs }
    /// 1 or 2.
    public var version: Int { storage.version }
    /// The signature algorithm identifier.
    public var signatureAlgorithmIdentifier: AlgorithmIdentifier { storage.signatureAlgorithm }
    /// The signature octets.
    public var signature: ArraySlice<UInt8> { storage.signature }
    /// Who issued the CRL.
    public var issuer: DistinguishedName { storage.issuer }
    /// When it was issued.
    public var thisUpdate: DERTime { storage.thisUpdate }
    /// When the next CRL is due (required by RFC 5280 §5.1.2.5 for conforming CAs).
    public var nextUpdate: DERTime? { storage.nextUpdate }
    /// Every revoked entry, in encoded order.
    public var entries: [Entry] { storage.entries }
    /// The CRL extensions (raw, with criticality).
    public var extensions: [Extension] { storage.extensions }
    /// The cRLNumber (RFC 5280 §5.2.3), as INTEGER content octets.
    public var crlNumber: ArraySlice<UInt8>? { storage.crlNumber }
    /// The base CRL number when this is a delta CRL (RFC 5280 §5.2.4).
    public var deltaCRLIndicator: ArraySlice<UInt8>? { storage.deltaCRLIndicator }
    /// Whether this is a delta CRL.
    public var isDelta: Bool { storage.deltaCRLIndicator != nil }
    /// The issuingDistributionPoint (RFC 5280 §5.2.5), if present.
    public var issuingDistributionPoint: IssuingDistributionPoint? { storage.issuingDistributionPoint }
    /// The authorityKeyIdentifier (RFC 5280 §5.2.1), if present.
    public var authorityKeyIdentifier: AuthorityKeyIdentifier? { storage.authorityKeyIdentifier }

    /// Defects that keep this CRL out of every revocation decision (empty for a sound CRL).
    public var semanticDefects: [CRLDefect] { storage.semanticDefects }

    /// The entry for `serialNumber` (INTEGER content octets, compared exactly: DER integers are
    /// minimal) among the entries of the CRL issuer's own certificates. O(1) on average. In an
    /// indirect CRL, use ``entry(forSerialNumber:issuedBy:)``.
    public func entry(forSerialNumber serialNumber: ArraySlice<UInt8>) -> Entry? {
        entry(forSerialNumber: serialNumber, issuedBy: storage.issuer)
    }

    /// The entry revoking the certificate with `serialNumber` issued by `certificateIssuer`: an entry
    /// of that serial that belongs to that issuer (RFC 5280 §5.3.3: in an indirect CRL, the issuer
    /// named by the nearest certificateIssuer at or before the entry, else the CRL issuer).
    public func entry(forSerialNumber serialNumber: ArraySlice<UInt8>, issuedBy certificateIssuer: DistinguishedName) -> Entry? {
        guard let positions = storage.index[serialNumber] else { return nil }
        for position in positions {
            let belongsTo = storage.entryIssuers[position]
            let matches: Bool
            if let names = belongsTo {
                matches = names.contains { if case let .directoryName(name) = $0 { name == certificateIssuer } else { false } }
            } else {
                matches = storage.issuer == certificateIssuer
            }
            if matches { return storage.entries[position] }
        }
        return nil
    }

    /// The signature algorithm decoded for verification.
    public func signatureAlgorithm() throws(SignatureError) -> SignatureAlgorithm {
        // From the OID and parameters the parse already split, not a second decode of the identifier.
        try storage.signatureAlgorithm.signatureAlgorithm()
    }
}
