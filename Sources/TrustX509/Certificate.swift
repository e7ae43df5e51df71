import Synchronization
import TrustCrypto
import TrustDER

/// An X.509 v1–v3 certificate (RFC 5280 §4.1), parsed once and immutable.
///
/// `Certificate` is a value type over shared immutable storage: copies are cheap, and the
/// original DER (and the exact tbsCertificate bytes a signature covers) are kept. Every field and
/// every known extension is checked at parse time, so a malformed certificate never parses. The
/// fields are decoded then too (byte strings kept as where they lie in the DER); extension views
/// that allocate are decoded on first use, once (see ``Extensions``).
///
/// ```swift
/// let certificate = try Certificate(derEncoded: bytes)
/// print(certificate.subject, certificate.notAfter)
/// ```
public struct Certificate: Hashable, Sendable, CustomStringConvertible {
    /// Validity period (RFC 5280 §4.1.2.5).
    public struct Validity: Hashable, Sendable {
        /// The first instant the certificate is valid.
        public let notBefore: DERTime
        /// The last instant the certificate is valid (inclusive).
        public let notAfter: DERTime
    }

    @usableFromInline final class Storage: Sendable {
        let der: [UInt8]
        // Byte strings are kept as where they lie in `der` (8 bytes each, not a 32-byte slice that
        // retains the buffer), so that a parsed certificate holds little beyond its DER.
        private let tbsCertificateRange: Range<UInt32>
        @usableFromInline let version: Int
        private let serialNumberRange: Range<UInt32>
        let tbsSignatureAlgorithm: AlgorithmIdentifier
        @usableFromInline let issuer: DistinguishedName
        @usableFromInline let validity: Validity
        @usableFromInline let subject: DistinguishedName
        @usableFromInline let publicKeyInfo: SubjectPublicKeyInfo
        /// issuerUniqueID and subjectUniqueID, if either is present (deprecated, almost never).
        private let uniqueIdentifiers: UniqueIdentifiers?
        @usableFromInline let extensions: Extensions
        let signatureAlgorithm: AlgorithmIdentifier
        private let signatureRange: Range<UInt32>
        // Values derived on first use, read lock-free afterwards (a certificate is often shared by
        // concurrent evaluations: see ComputedOnce).
        /// The libcrypto key, built on first use (OpenSSL's key decoding is the slow part).
        let verificationKey = ComputedOnce<VerificationKey>()
        /// Whether issuer == subject (RFC 5280 §7.1), decided on first use (it may need the names'
        /// normalised forms, which are built lazily).
        let selfIssued = Atomic<UInt8>(Storage.unknown)
        /// The certificate's hash value: Swift's per-process seeded `Hasher` over the whole DER,
        /// computed on first use (attackers choose every byte, so no part alone spreads them).
        let hashValueCache = Atomic<Int>(0)
        let hashValueKnown = Atomic<Bool>(false)
        /// The outer signature algorithm decoded for verification, or why it cannot be.
        let decodedSignatureAlgorithm: Result<SignatureAlgorithm, SignatureError>
        /// Semantic defects found while parsing (see ``CertificateDefect``).
        @usableFromInline let semanticDefects: [CertificateDefect]
        /// The decoded key description, computed on first use.
        let keyDescription = ComputedOnce<KeyDescriptionValue>()
        /// SHA-256 of the DER, computed on first use (caches and pins key on it).
        let certificateDigest = ComputedOnce<ComputedDigest>()
        /// SHA-256 of the SPKI, computed on first use (caches and pins key on it).
        let spkiDigest = ComputedOnce<ComputedDigest>()
        /// What `certificateDigest` holds: SHA-256 of the DER.
        func digestOfDER() -> ComputedDigest { ComputedDigest(Digest.sha256(der)) }
        /// What `spkiDigest` holds: SHA-256 of the SubjectPublicKeyInfo.
        func digestOfSPKI() -> ComputedDigest { ComputedDigest(Digest.sha256(publicKeyInfo.der)) }
        /// The exact tbsCertificate bytes that the signature covers.
        var tbsCertificate: ArraySlice<UInt8> { slice(tbsCertificateRange) }
        /// The serialNumber INTEGER's content octets.
        var serialNumber: ArraySlice<UInt8> { slice(serialNumberRange) }
        /// The signature BIT STRING's octets.
        var signature: ArraySlice<UInt8> { slice(signatureRange) }
        var issuerUniqueID: DERBitString? { uniqueIdentifiers?.issuer }
        var subjectUniqueID: DERBitString? { uniqueIdentifiers?.subject }

        /// The bytes of `der` at `range` (a range the parse took from `der`, so within it).
        private func slice(_ range: Range<UInt32>) -> ArraySlice<UInt8> { der[Int(range.lowerBound)..<Int(range.upperBound)] }
        /// Where `slice`, a slice of `der`, lies in it (`der` is at most 64 KiB: checkEncodedSize).
        private static func range(of slice: ArraySlice<UInt8>) -> Range<UInt32> {
            UInt32(truncatingIfNeeded: slice.startIndex)..<UInt32(truncatingIfNeeded: slice.endIndex)
        }

        /// The deprecated unique identifiers (RFC 5280 §4.1.2.8), kept out of line: almost no
        /// certificate has them.
        final class UniqueIdentifiers: Sendable {
            let issuer: DERBitString?
            let subject: DERBitString?
            init(issuer: DERBitString?, subject: DERBitString?) {
                self.issuer = issuer
                self.subject = subject
            }
        }

        /// The states of `selfIssued`.
        static let unknown: UInt8 = 0, notSelfIssued: UInt8 = 1, selfIssuedName: UInt8 = 2
        /// The decoded key description as an object (for ComputedOnce).
        final class KeyDescriptionValue: Sendable {
            let description: PublicKeyDescription?
            init(_ description: PublicKeyDescription?) { self.description = description }
        }

        init(der: [UInt8]) throws {
            try Certificate.checkEncodedSize(der.count)
            // `der` is this certificate's own buffer (see Certificate.ownedCopy): every slice the
            // parse keeps retains it.
            self.der = der
            var defects: [CertificateDefect] = []
            // Walked by offsets over the one buffer (no slice, so no reference count, per element);
            // the fields keep slices of it.
            let bytes = der[...]
            let outer = try DERIndexReader.parseSingle(bytes)
            try outer.expect(.sequence)
            var certificate = try outer.children()
            let tbs = try certificate.read(.sequence, in: bytes)
            let outerAlgorithmElement = try certificate.read(.sequence, in: bytes)
            let outerAlgorithm = try AlgorithmIdentifier.parse(outerAlgorithmElement, in: bytes)
            let signatureElement = try certificate.read(.bitString, in: bytes)
            let signatureBits = try signatureElement.bitString(in: bytes)
            try certificate.finish()
            // A signature is whole octets (RFC 5280 §4.1.1.3 with RFC 8017 / 5758 / 8410); PKITS's
            // BadSignedCACert has one unused bit. Judged by validation, as OpenSSL and pyca do.
            let partialSignature: CertificateDefect? =
                signatureBits.unusedBits == 0
                ? nil
                : .signatureNotWholeOctets(offset: signatureElement.offset)
            if let partialSignature { defects.append(partialSignature) }
            tbsCertificateRange = Storage.range(of: bytes[tbs.encodedRange])
            signatureAlgorithm = outerAlgorithm
            signatureRange = Storage.range(of: signatureBits.bytes)

            var fields = try tbs.children()
            var version = 1
            if let explicit = try fields.readIfPresent(.context(0, constructed: true), in: bytes) {
                var inner = try explicit.children()
                let versionElement = try inner.read(.integer, in: bytes)
                let raw = try versionElement.integer(as: Int.self, in: bytes)
                try inner.finish()
                // DER: v1 (0) is the DEFAULT and must be omitted; only v2 (1) and v3 (2) exist.
                guard raw == 1 || raw == 2 else {
                    throw X509Error.structure("unsupported or non-DER version \(raw)", at: versionElement.offset)
                }
                version = raw + 1
            }
            self.version = version
            serialNumberRange = Storage.range(of: try fields.read(.integer, in: bytes).integerBytes(in: bytes))
            let innerAlgorithmElement = try fields.read(.sequence, in: bytes)
            tbsSignatureAlgorithm = try AlgorithmIdentifier.parse(innerAlgorithmElement, in: bytes)
            // RFC 5280 §4.1.1.2: the outer signatureAlgorithm MUST equal tbsCertificate.signature.
            // A semantic defect, judged by validation, so the certificate can still be inspected.
            let mismatch: CertificateDefect? =
                tbsSignatureAlgorithm.isSameAlgorithm(as: outerAlgorithm)
                ? nil
                : .signatureAlgorithmMismatch(
                    tbsCertificate: tbsSignatureAlgorithm, certificate: outerAlgorithm,
                    offset: outerAlgorithmElement.offset)
            if let mismatch { defects.append(mismatch) }
            let decoded = Result { () throws(SignatureError) in try outerAlgorithm.signatureAlgorithm() }
            if outerAlgorithm.oid == AlgorithmIdentifier.rsassaPSS, case let .failure(error) = decoded {
                defects.append(.invalidRSAPSSParameters(error, offset: outerAlgorithmElement.offset))
            }
            // Fail closed for every verifier, not only PathValidator (e.g. an OCSP responder
            // certificate): a signature whose fields are defective is never checked as valid.
            if partialSignature != nil {
                decodedSignatureAlgorithm = .failure(.invalidSignature)
            } else if let mismatch {
                decodedSignatureAlgorithm = .failure(.malformedAlgorithmParameters(mismatch.description))
            } else {
                decodedSignatureAlgorithm = decoded
            }
            issuer = try DistinguishedName(parsing: try fields.read(.sequence, in: bytes), in: bytes)
            let validityElement = try fields.read(.sequence, in: bytes)
            var validityFields = try validityElement.children()
            let notBefore = try validityFields.readAny(in: bytes).time(in: bytes)
            let notAfter = try validityFields.readAny(in: bytes).time(in: bytes)
            try validityFields.finish()
            validity = Validity(notBefore: notBefore, notAfter: notAfter)
            subject = try DistinguishedName(parsing: try fields.read(.sequence, in: bytes), in: bytes)
            publicKeyInfo = try SubjectPublicKeyInfo.parse(try fields.read(.sequence, in: bytes), in: bytes)
            let issuerUniqueIDElement = try fields.readIfPresent(.context(1, constructed: false), in: bytes)
            let subjectUniqueIDElement = try fields.readIfPresent(.context(2, constructed: false), in: bytes)
            let issuerUniqueID = try issuerUniqueIDElement?.bitString(in: bytes, tag: .context(1, constructed: false))
            let subjectUniqueID = try subjectUniqueIDElement?.bitString(in: bytes, tag: .context(2, constructed: false))
            uniqueIdentifiers =
                issuerUniqueID == nil && subjectUniqueID == nil
                ? nil
                : UniqueIdentifiers(issuer: issuerUniqueID, subject: subjectUniqueID)
            if let uniqueID = issuerUniqueIDElement ?? subjectUniqueIDElement, version < 2 {
                throw X509Error.structure("unique identifiers require version 2 or 3", at: uniqueID.offset)
            }
            if let explicit = try fields.readIfPresent(.context(3, constructed: true), in: bytes) {
                guard version == 3 else { throw X509Error.structure("extensions require version 3", at: explicit.offset) }
                var inner = try explicit.children()
                extensions = try Extensions(parsing: try inner.read(.sequence, in: bytes), in: bytes)
                try inner.finish()
            } else {
                extensions = .empty
            }
            try fields.finish()
            semanticDefects = defects + extensions.data.defects
        }
    }

    /// `@usableFromInline`, with the fields validation reads and their getters `@inlinable`: a read
    /// such as `certificate.extensions.basicConstraints` in another module then borrows the shared
    /// storage instead of retaining and releasing it (an atomic write per read, on objects that
    /// concurrent evaluations share).
    @usableFromInline let storage: Storage

    /// The largest certificate accepted, in bytes of DER: 64 KiB, as rustls-webpki caps signed
    /// data. Real certificates are a few KiB (large multi-domain ones some tens of KiB); the cap
    /// bounds the parsing work any one input can cause. Larger inputs throw
    /// ``X509Error/Reason/certificateTooLarge(size:limit:)``.
    public static let maximumEncodedSize = 64 * 1024

    /// Parses a DER-encoded certificate. Trailing bytes and any DER or RFC 5280 structure
    /// violation throw an ``X509Error`` naming the rule and byte offset; semantic defects of a
    /// well-formed certificate are recorded in ``semanticDefects`` instead.
    public init(derEncoded bytes: [UInt8]) throws(X509Error) {
        try self.init(ownedDER: try Certificate.ownedCopy(of: bytes))
    }

    /// Parses a DER-encoded certificate from any byte collection.
    public init(derEncoded bytes: some Collection<UInt8>) throws(X509Error) {
        try self.init(ownedDER: try Certificate.ownedCopy(of: bytes))
    }

    /// Parses `der`, a buffer nothing else holds (e.g. just decoded from PEM), without copying it.
    init(ownedDER der: [UInt8]) throws(X509Error) {
        storage = try mapX509Errors { try Storage(der: der) }
    }

    /// A private copy of a caller's bytes: every slice a parsed certificate keeps retains its
    /// buffer, so certificates parsed from one shared array on several threads would otherwise all
    /// update that array's reference count (one contended cache line, which keeps evaluations on
    /// several cores from scaling).
    /// An `Array` passed as a generic collection would be shared, not copied, by `Array(bytes)`.
    static func ownedCopy(of bytes: some Collection<UInt8>) throws(X509Error) -> [UInt8] {
        try checkEncodedSize(bytes.count)
        return bytes.withContiguousStorageIfAvailable { [UInt8]($0) } ?? [UInt8](bytes)
    }

    /// Bounded work: nothing larger than the cap is read (or copied) at all (see maximumEncodedSize).
    static func checkEncodedSize(_ size: Int) throws(X509Error) {
        guard size <= maximumEncodedSize else {
            throw X509Error(.certificateTooLarge(size: size, limit: maximumEncodedSize))
        }
    }

    /// Parses the first CERTIFICATE block of PEM text; other blocks (e.g. a private key, which
    /// may come first) are passed over, but the text must be well-formed PEM.
    public init(pemEncoded text: String) throws(X509Error) {
        let decoded: (blocks: [PEMBlock], skipped: [PEMSkippedBlock])
        do { decoded = try PEM.decode(text, labels: Certificate.certificateLabels) } catch { throw X509Error(.pem(error)) }
        guard let block = decoded.blocks.first else {
            throw X509Error(decoded.skipped.first.map { .unexpectedPEMBlock(label: $0.label, line: $0.line) } ?? .pem(.noBlocks))
        }
        do { try self.init(ownedDER: block.der) } catch { throw error.inPEMBlock(PEMBlockLocation(block, index: 0)) }
    }

    /// PEM labels that hold a certificate.
    static let certificateLabels: Set<String> = ["CERTIFICATE", "X509 CERTIFICATE"]

    /// The complete DER encoding.
    public var derEncoded: [UInt8] { storage.der }
    /// The certificate as one PEM block (`-----BEGIN CERTIFICATE-----`, 64-character lines).
    public var pemEncoded: String { PEM.encode(storage.der, label: "CERTIFICATE") }
    /// The exact tbsCertificate bytes that the signature covers.
    public var tbsCertificateBytes: ArraySlice<UInt8> { storage.tbsCertificate }
    /// The X.509 version: 1, 2 or 3.
    @inlinable public var version: Int { storage.version }
    /// The serial number's two's-complement octets as encoded.
    public var serialNumber: ArraySlice<UInt8> { storage.serialNumber }
    /// Whether the serial number is negative (RFC 5280 §4.1.2.2: it must be positive).
    package var serialNumberIsNegative: Bool { (storage.serialNumber.first ?? 0) & 0x80 != 0 }
    /// Whether the serial number is zero (not positive, RFC 5280 §4.1.2.2).
    package var serialNumberIsZero: Bool { storage.serialNumber.count == 1 && storage.serialNumber.first == 0 }
    /// Whether the serial number is longer than the 20 octets RFC 5280 §4.1.2.2 allows.
    package var serialNumberIsOverlong: Bool {
        let octets = storage.serialNumber.first == 0 ? storage.serialNumber.count - 1 : storage.serialNumber.count
        return octets > 20
    }
    /// The serial number in lower-case hex with colons, e.g. `01:a2:ff`.
    public var serialNumberHex: String { Certificate.hex(storage.serialNumber, separator: ":") }
    /// The signature algorithm (outer copy, the one the signature is checked with).
    public var signatureAlgorithmIdentifier: AlgorithmIdentifier { storage.signatureAlgorithm }
    /// The signature algorithm inside tbsCertificate (same algorithm as the outer copy unless
    /// ``semanticDefects`` says otherwise).
    public var tbsSignatureAlgorithmIdentifier: AlgorithmIdentifier { storage.tbsSignatureAlgorithm }
    /// Semantic defects of this well-formed certificate, in encoding order; validation rejects a
    /// certificate that has any (see ``CertificateDefect``).
    @inlinable public var semanticDefects: [CertificateDefect] { storage.semanticDefects }
    /// Encodings in the extensions that DER or RFC 5280 does not allow, read as Apple reads them, in
    /// encoding order: DEFAULT values written out (cA FALSE, critical FALSE, a GeneralSubtree minimum
    /// 0), read as omitted as Apple's `SecCertificateParse`, OpenSSL and Go read them, and refused
    /// only under the strict profiles; and otherName constraints without their `[0] EXPLICIT`
    /// wrapper (see ``EncodingFinding``).
    public var encodingFindings: [EncodingFinding] { storage.extensions.data.encodingFindings }
    /// The issuer name.
    @inlinable public var issuer: DistinguishedName { storage.issuer }
    /// The subject name.
    @inlinable public var subject: DistinguishedName { storage.subject }
    /// The validity period.
    @inlinable public var validity: Validity { storage.validity }
    /// Start of validity.
    @inlinable public var notBefore: DERTime { storage.validity.notBefore }
    /// End of validity (inclusive).
    @inlinable public var notAfter: DERTime { storage.validity.notAfter }
    /// The subject public key info.
    @inlinable public var publicKeyInfo: SubjectPublicKeyInfo { storage.publicKeyInfo }
    /// issuerUniqueID (v2/v3 only, deprecated).
    public var issuerUniqueID: DERBitString? { storage.issuerUniqueID }
    /// subjectUniqueID (v2/v3 only, deprecated).
    public var subjectUniqueID: DERBitString? { storage.subjectUniqueID }
    /// The extensions with typed views.
    @inlinable public var extensions: Extensions { storage.extensions }
    /// The signatureValue octets.
    public var signature: ArraySlice<UInt8> { storage.signature }

    /// Whether issuer and subject are the same name (RFC 5280 "self-issued"); decided at parse time.
    public var isSelfIssued: Bool {
        // Idempotent: two threads deciding at once store the same answer.
        switch storage.selfIssued.load(ordering: .relaxed) {
        case Storage.selfIssuedName: return true
        case Storage.notSelfIssued: return false
        default:
            let value = storage.issuer == storage.subject
            storage.selfIssued.store(value ? Storage.selfIssuedName : Storage.notSelfIssued, ordering: .relaxed)
            return value
        }
    }

    /// Whether `other` has the same SubjectPublicKeyInfo, compared in place: chain building asks
    /// this of every candidate issuer, and copying each one's key info out would retain its bytes
    /// (storage that concurrent evaluations share) once per comparison.
    package func hasSamePublicKey(as other: Certificate) -> Bool {
        storage === other.storage || ByteComparison.equal(storage.publicKeyInfo.der, other.storage.publicKeyInfo.der)
    }

    // Name comparisons in place (RFC 5280 §7.1): `a.subject == b.issuer` copies both names out,
    // retaining their storage, which concurrent evaluations of one certificate share; these read
    // the stored names where they are.

    /// Whether this certificate's subject is `child`'s issuer name: it may have issued `child`.
    package func hasSubjectNamingIssuer(of child: Certificate) -> Bool { storage.subject == child.storage.issuer }

    /// Whether this certificate and `other` have the same subject name.
    package func hasSameSubject(as other: Certificate) -> Bool { storage.subject == other.storage.subject }

    /// Whether basicConstraints marks the certificate as a CA.
    public var isCA: Bool { storage.extensions.basicConstraints?.isCA ?? false }

    /// The dNSName SAN entries.
    public var dnsNames: [String] {
        (storage.extensions.subjectAlternativeNames ?? []).compactMap { if case let .dnsName(n) = $0 { return n } else { return nil } }
    }

    /// The iPAddress SAN entries (raw 4 or 16 octets).
    public var ipAddresses: [ArraySlice<UInt8>] {
        (storage.extensions.subjectAlternativeNames ?? []).compactMap { if case let .ipAddress(a) = $0 { return a } else { return nil } }
    }

    /// The signature algorithm decoded for verification; throws for unsupported or malformed ones,
    /// and for a certificate whose signature fields are defective (see ``semanticDefects``):
    /// ``SignatureError/invalidSignature`` when the signatureValue is not whole octets,
    /// ``SignatureError/malformedAlgorithmParameters(_:)`` when the two algorithm copies differ.
    public func signatureAlgorithm() throws(SignatureError) -> SignatureAlgorithm {
        try storage.decodedSignatureAlgorithm.get()
    }

    /// The key type and size, decoded from the SPKI without libcrypto (once; then cached).
    public var publicKeyDescription: PublicKeyDescription? {
        storage.keyDescription.value {
            // A libcrypto key built already carries the description its parse of this SPKI made
            // (the key cache is keyed by the SPKI's SHA-256): a cold chain parses an issuer's key once.
            if let key = storage.verificationKey.storedValue { return Storage.KeyDescriptionValue(key.description) }
            return Storage.KeyDescriptionValue(try? PublicKeyDescription(spki: storage.publicKeyInfo.der))
        }.description
    }

    /// The libcrypto key for this certificate's SPKI, built once and then reused (thread-safe).
    public func verificationKey() throws(SignatureError) -> VerificationKey {
        try storage.verificationKey.value { () throws(SignatureError) in
            try VerificationKeyCache.shared.key(forSPKI: storage.publicKeyInfo.der, sha256: spkiSHA256)
        }
    }

    /// SHA-256 of the DER encoding.
    public var sha256Fingerprint: [UInt8] { storage.certificateDigest.value { storage.digestOfDER() }.bytes }
    /// ``sha256Fingerprint`` as cache-key words, read in place (the caches of chain validation key on it).
    package var sha256Words: DigestWords {
        storage.certificateDigest.withValue(orCompute: { storage.digestOfDER() }) { $0.words }
    }
    /// ``spkiSHA256`` as cache-key words, read in place (the signature cache keys on it).
    package var spkiSHA256Words: DigestWords {
        storage.spkiDigest.withValue(orCompute: { storage.digestOfSPKI() }) { $0.words }
    }
    /// SHA-1 of the DER encoding (for display and legacy pinning only).
    public var sha1Fingerprint: [UInt8] { Digest.sha1(storage.der) }
    /// SHA-256 of the DER SubjectPublicKeyInfo: the HPKP / SPKI pin value.
    public var spkiSHA256: [UInt8] { storage.spkiDigest.value { storage.digestOfSPKI() }.bytes }
    /// The SPKI pin in `sha256/BASE64` form.
    public var spkiPin: String { "sha256/" + Base64.encode(spkiSHA256) }

    /// Equal when the DER encodings are identical.
    public static func == (lhs: Certificate, rhs: Certificate) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.der == rhs.storage.der
    }

    /// Hashes the whole DER with the standard library's per-process seeded hasher, once; later
    /// calls reuse that value. (Any part alone is attacker-chosen: certificates sharing it would
    /// collide and degrade sets and stores to linear scans.)
    public func hash(into hasher: inout Hasher) {
        // The value is published before the flag (release), read after it (acquire); two threads
        // computing at once store the same value.
        if storage.hashValueKnown.load(ordering: .acquiring) {
            hasher.combine(storage.hashValueCache.load(ordering: .relaxed))
            return
        }
        let value = storage.der.withUnsafeBytes { bytes in
            var derHasher = Hasher()
            derHasher.combine(bytes: bytes)
            return derHasher.finalize()
        }
        storage.hashValueCache.store(value, ordering: .relaxed)
        storage.hashValueKnown.store(true, ordering: .releasing)
        hasher.combine(value)
    }

    /// `subject (serial)`.
    public var description: String { "\(subject) (serial \(serialNumberHex))" }

    /// Lower-case hex of `bytes`, separated by `separator`.
    package static func hex(_ bytes: some Sequence<UInt8>, separator: String = "") -> String {
        let digits = Array("0123456789abcdef")
        return bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]]) }.joined(separator: separator)
    }
}
