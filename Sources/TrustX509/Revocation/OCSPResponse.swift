import TrustCrypto
import TrustDER

/// An OCSP CertID (RFC 6960 §4.1.1): which certificate a request or response is about.
public struct OCSPCertID: Hashable, Sendable {
    /// The hash used for the two issuer hashes.
    public let hashAlgorithm: DigestAlgorithm
    /// Hash of the issuer's DER-encoded subject name.
    public let issuerNameHash: [UInt8]
    /// Hash of the issuer's subjectPublicKey BIT STRING value.
    public let issuerKeyHash: [UInt8]
    /// The certificate's serial number (INTEGER content octets).
    public let serialNumber: [UInt8]

    /// The CertID of `certificate` issued by `issuer`, hashed with `hash` (SHA-1 or SHA-256 in practice).
    public init(certificate: Certificate, issuer: Certificate, hash: DigestAlgorithm = .sha1) {
        hashAlgorithm = hash
        issuerNameHash = Digest.hash(hash, issuer.subject.der)
        issuerKeyHash = Digest.hash(hash, issuer.publicKeyInfo.keyBytes)
        serialNumber = Array(certificate.serialNumber)
    }

    init(hashAlgorithm: DigestAlgorithm, issuerNameHash: [UInt8], issuerKeyHash: [UInt8], serialNumber: [UInt8]) {
        self.hashAlgorithm = hashAlgorithm
        self.issuerNameHash = issuerNameHash
        self.issuerKeyHash = issuerKeyHash
        self.serialNumber = serialNumber
    }

    /// Whether this CertID names `certificate` as issued by `issuer` (hashes recomputed with this
    /// CertID's algorithm; serial numbers compared as INTEGER content octets, which DER keeps minimal).
    public func identifies(_ certificate: Certificate, issuedBy issuer: Certificate) -> Bool {
        guard ByteComparison.equal(serialNumber[...], certificate.serialNumber) else { return false }
        let expected = OCSPCertID(certificate: certificate, issuer: issuer, hash: hashAlgorithm)
        return expected.issuerNameHash == issuerNameHash && expected.issuerKeyHash == issuerKeyHash
    }

    static let hashOIDs: [(DigestAlgorithm, ASN1ObjectIdentifier)] = [
        (.sha1, "1.3.14.3.2.26"), (.sha256, "2.16.840.1.101.3.4.2.1"),
        (.sha384, "2.16.840.1.101.3.4.2.2"), (.sha512, "2.16.840.1.101.3.4.2.3"),
    ]

    static func parse(_ element: DERElement) throws -> OCSPCertID {
        try element.expect(.sequence)
        var fields = try element.children()
        let algorithm = try AlgorithmIdentifier.parse(try fields.read(.sequence))
        guard let hash = hashOIDs.first(where: { $0.1 == algorithm.oid })?.0 else {
            throw X509Error.structure("unsupported CertID hash \(algorithm.oid.dotted)", at: element.offset)
        }
        let nameHash = try fields.read(.octetString).octetString()
        let keyHash = try fields.read(.octetString).octetString()
        let serial = try fields.read(.integer).integerBytes()
        try fields.finish()
        return OCSPCertID(hashAlgorithm: hash, issuerNameHash: Array(nameHash), issuerKeyHash: Array(keyHash), serialNumber: Array(serial))
    }

    /// Writes the CertID SEQUENCE.
    func write(to writer: inout DERWriter) {
        let oid = OCSPCertID.hashOIDs.first { $0.0 == hashAlgorithm }?.1 ?? "1.3.14.3.2.26"
        writer.sequence { w in
            w.sequence { a in
                a.write(oid)
                a.writeNull()
            }
            w.writeOctetString(issuerNameHash)
            w.writeOctetString(issuerKeyHash)
            w.writeIntegerBytes(serialNumber)
        }
    }
}

/// One SingleResponse (RFC 6960 §4.2.1).
public struct OCSPSingleResponse: Hashable, Sendable {
    /// The certificate's status.
    public enum Status: Hashable, Sendable {
        /// Not revoked (at thisUpdate).
        case good
        /// Revoked at `time`, for `reason` if given.
        case revoked(time: DERTime, reason: CRLReason?)
        /// The responder does not know the certificate.
        case unknown
    }

    /// Which certificate.
    public let certID: OCSPCertID
    /// Its status.
    public let status: Status
    /// When the status was known to be correct.
    public let thisUpdate: DERTime
    /// When newer information will be available.
    public let nextUpdate: DERTime?
    /// The singleExtensions (none critical: a critical one fails the parse), in order; among them
    /// the SCT list of RFC 6962 §3.3 (``OID/ocspSCTList``), which Certificate Transparency reads.
    public let extensions: [Extension]
}

/// An OCSP response (RFC 6960 §4.2): the status, and for a successful response the signed
/// BasicOCSPResponse with its single responses and embedded responder certificates.
public struct OCSPResponse: Sendable {
    /// OCSPResponseStatus.
    public enum ResponseStatus: Int, Hashable, Sendable {
        /// successful (0).
        case successful = 0
        /// malformedRequest (1).
        case malformedRequest = 1
        /// internalError (2).
        case internalError = 2
        /// tryLater (3).
        case tryLater = 3
        /// sigRequired (5).
        case sigRequired = 5
        /// unauthorized (6).
        case unauthorized = 6
    }

    /// How the responder identified itself.
    public enum ResponderID: Hashable, Sendable {
        /// By its subject name.
        case byName(DistinguishedName)
        /// By the SHA-1 hash of its subjectPublicKey.
        case byKey([UInt8])
    }

    /// The whole encoding.
    public let derEncoded: [UInt8]
    /// The response status.
    public let status: ResponseStatus
    /// The responder's identity (successful responses only).
    public let responderID: ResponderID?
    /// When the response was signed.
    public let producedAt: DERTime?
    /// The single responses.
    public let responses: [OCSPSingleResponse]
    /// The nonce extension's value, if any.
    public let nonce: [UInt8]?
    /// The exact ResponseData bytes that the signature covers.
    public let tbsResponseData: ArraySlice<UInt8>
    /// The signature algorithm.
    public let signatureAlgorithmIdentifier: AlgorithmIdentifier?
    /// The signature octets.
    public let signature: ArraySlice<UInt8>
    /// Certificates the responder included (e.g. a delegated responder's certificate).
    public let certificates: [Certificate]

    /// Parses a DER-encoded OCSPResponse.
    public init(derEncoded bytes: [UInt8]) throws(X509Error) {
        self = try mapX509Errors { try OCSPResponse(parsing: bytes) }
    }

    private init(parsing bytes: [UInt8]) throws {
        derEncoded = bytes
        let outer = try DERReader.parseSingle(bytes)
        try outer.expect(.sequence)
        var fields = try outer.children()
        let statusElement = try fields.read(.enumerated)
        let rawStatus = try statusElement.integer(as: Int.self, tag: .enumerated)
        guard let status = ResponseStatus(rawValue: rawStatus) else {
            throw X509Error.structure("invalid OCSPResponseStatus \(rawStatus)", at: statusElement.offset)
        }
        self.status = status
        guard let responseBytes = try fields.readIfPresent(.context(0, constructed: true)) else {
            try fields.finish()
            guard status != .successful else { throw X509Error.structure("successful OCSP response without responseBytes", at: outer.offset) }
            responderID = nil; producedAt = nil; responses = []; nonce = nil
            tbsResponseData = []; signatureAlgorithmIdentifier = nil; signature = []; certificates = []
            return
        }
        try fields.finish()
        var wrapper = try responseBytes.children()
        let bytesSequence = try wrapper.read(.sequence)
        try wrapper.finish()
        var typed = try bytesSequence.children()
        let type = try typed.read(.objectIdentifier).objectIdentifier()
        guard type == OID.ocspBasic else { throw X509Error.structure("unsupported OCSP response type \(type.dotted)", at: bytesSequence.offset) }
        let basicBytes = try typed.read(.octetString).octetString()
        try typed.finish()

        let basic = try DERReader.parseSingle(basicBytes)
        try basic.expect(.sequence)
        var basicFields = try basic.children()
        let responseData = try basicFields.read(.sequence)
        signatureAlgorithmIdentifier = try AlgorithmIdentifier.parse(try basicFields.read(.sequence))
        let bits = try basicFields.read(.bitString).bitString()
        guard bits.unusedBits == 0 else { throw X509Error.structure("OCSP signature must be whole octets", at: basic.offset) }
        signature = bits.bytes
        var certificates: [Certificate] = []
        if let certs = try basicFields.readIfPresent(.context(0, constructed: true)) {
            var certsWrapper = try certs.children()
            var list = try certsWrapper.read(.sequence).children()
            try certsWrapper.finish()
            while let certificate = try list.next() {
                try certificate.expect(.sequence)
                certificates.append(try Certificate(derEncoded: Array(certificate.encoded)))
            }
        }
        try basicFields.finish()
        self.certificates = certificates
        tbsResponseData = responseData.encoded

        var data = try responseData.children()
        if let version = try data.readIfPresent(.context(0, constructed: true)) {
            var inner = try version.children()
            // DEFAULT v1 must be omitted in DER; only v1 exists.
            throw X509Error.structure(
                "OCSP ResponseData version must be omitted (v1 DEFAULT), found \(try inner.read(.integer).integer(as: Int.self))", at: version.offset)
        }
        let responder = try data.readAny()
        switch responder.tag {
        case .context(1, constructed: true):
            var inner = try responder.children()
            responderID = .byName(try DistinguishedName(element: try inner.read(.sequence)))
            try inner.finish()
        case .context(2, constructed: true):
            var inner = try responder.children()
            responderID = .byKey(Array(try inner.read(.octetString).octetString()))
            try inner.finish()
        default:
            throw X509Error.structure("invalid OCSP ResponderID", at: responder.offset)
        }
        let produced = try data.read(.generalizedTime)
        producedAt = try produced.time()
        var responses: [OCSPSingleResponse] = []
        var list = try data.read(.sequence).children()
        while let single = try list.next() { responses.append(try OCSPResponse.parseSingle(single)) }
        self.responses = responses
        var nonce: [UInt8]?
        if let extensionsWrapper = try data.readIfPresent(.context(1, constructed: true)) {
            var inner = try extensionsWrapper.children()
            for ext in try Extensions.parseList(try inner.read(.sequence)) {
                if ext.oid == OID.ocspNonce {
                    // RFC 8954: the value is an OCTET STRING; tolerate the raw form some responders use.
                    nonce = (try? DERReader.parseSingle(ext.value).octetString()).map(Array.init) ?? Array(ext.value)
                } else if ext.isCritical {
                    throw X509Error.structure("unknown critical OCSP response extension \(ext.oid.dotted)", at: ext.offset)
                }
            }
            try inner.finish()
        }
        self.nonce = nonce
        try data.finish()
    }

    private static func parseSingle(_ element: DERElement) throws -> OCSPSingleResponse {
        try element.expect(.sequence)
        var fields = try element.children()
        let certID = try OCSPCertID.parse(try fields.read(.sequence))
        let statusElement = try fields.readAny()
        let status: OCSPSingleResponse.Status
        switch statusElement.tag {
        case .context(0, constructed: false):
            guard statusElement.content.isEmpty else { throw DERError(.invalidNull, at: statusElement.offset) }
            status = .good
        case .context(1, constructed: true):
            var revoked = try statusElement.children()
            let time = try revoked.read(.generalizedTime).time()
            var reason: CRLReason?
            if let reasonWrapper = try revoked.readIfPresent(.context(0, constructed: true)) {
                var inner = try reasonWrapper.children()
                reason = try CRLReason.parse(try inner.read(.enumerated))
                try inner.finish()
            }
            try revoked.finish()
            status = .revoked(time: time, reason: reason)
        case .context(2, constructed: false):
            guard statusElement.content.isEmpty else { throw DERError(.invalidNull, at: statusElement.offset) }
            status = .unknown
        default:
            throw X509Error.structure("invalid OCSP CertStatus", at: statusElement.offset)
        }
        let thisUpdate = try fields.read(.generalizedTime).time()
        var nextUpdate: DERTime?
        if let wrapper = try fields.readIfPresent(.context(0, constructed: true)) {
            var inner = try wrapper.children()
            nextUpdate = try inner.read(.generalizedTime).time()
            try inner.finish()
        }
        var extensions: [Extension] = []
        if let extensionsWrapper = try fields.readIfPresent(.context(1, constructed: true)) {
            var inner = try extensionsWrapper.children()
            extensions = try Extensions.parseList(try inner.read(.sequence))
            for ext in extensions where ext.isCritical {
                throw X509Error.structure("unknown critical OCSP single extension \(ext.oid.dotted)", at: ext.offset)
            }
            try inner.finish()
        }
        try fields.finish()
        return OCSPSingleResponse(
            certID: certID, status: status, thisUpdate: thisUpdate, nextUpdate: nextUpdate,
            extensions: extensions)
    }

    /// The signature algorithm decoded for verification.
    public func signatureAlgorithm() throws(SignatureError) -> SignatureAlgorithm {
        guard let identifier = signatureAlgorithmIdentifier else { throw SignatureError.unsupportedAlgorithm("none") }
        // From the OID and parameters the parse already split, not a second decode of the identifier.
        return try identifier.signatureAlgorithm()
    }
}

/// An OCSP request (RFC 6960 §4.1) for network use: unsigned, one or more CertIDs, optional nonce.
public struct OCSPRequest: Hashable, Sendable {
    /// The certificates asked about.
    public let certIDs: [OCSPCertID]
    /// The nonce sent (RFC 8954: 1 to 32 octets), if any.
    public let nonce: [UInt8]?

    /// A request for `certIDs`, with an optional nonce.
    public init(certIDs: [OCSPCertID], nonce: [UInt8]? = nil) {
        self.certIDs = certIDs
        self.nonce = nonce
    }

    /// The DER encoding to POST as `application/ocsp-request`.
    public var derEncoded: [UInt8] {
        var writer = DERWriter()
        writer.sequence { request in
            request.sequence { tbs in
                tbs.sequence { list in
                    for id in certIDs {
                        list.sequence { single in id.write(to: &single) }
                    }
                }
                if let nonce {
                    tbs.write(.context(2, constructed: true)) { wrapper in
                        wrapper.sequence { extensions in
                            extensions.sequence { ext in
                                ext.write(OID.ocspNonce)
                                var value = DERWriter()
                                value.writeOctetString(nonce)
                                ext.writeOctetString(value.bytes)
                            }
                        }
                    }
                }
            }
        }
        return writer.bytes
    }
}
