import TrustDER

extension SignatureAlgorithm {
    /// The largest RSASSA-PSS salt length accepted, in bytes. A salt can never exceed the
    /// encoded message of a 16384-bit key (the largest libcrypto verifies), so anything
    /// larger is malformed rather than merely unusual.
    static let maximumPSSSaltLength = 2048

    /// Parses an X.509 AlgorithmIdentifier strictly.
    ///
    /// - RSASSA-PKCS1-v1_5 (`sha{1,256,384,512}WithRSAEncryption`): parameters NULL or absent
    ///   (RFC 4055 §5: "Implementations MUST accept the parameters being absent as well as
    ///   present"); anything else is rejected.
    /// - ECDSA (`ecdsa-with-SHA1/256/384/512`): parameters must be absent (RFC 5758 §3.2).
    /// - Ed25519 / Ed448: parameters must be absent (RFC 8410 §3).
    /// - RSASSA-PSS: parameters must be present RSASSA-PSS-params (RFC 4055 §3.1); fields equal
    ///   to their DEFAULT must be omitted (DER), the mask generation function must be MGF1,
    ///   and the trailer field must be 1. Inner hash AlgorithmIdentifiers may carry NULL or no
    ///   parameters.
    ///
    /// - Throws: ``SignatureError/unsupportedAlgorithm(_:)`` with the dotted OID for any other
    ///   algorithm (or hash), ``SignatureError/malformedAlgorithmParameters(_:)`` for DER or
    ///   parameter violations.
    public init(algorithmIdentifier: DERElement) throws(SignatureError) {
        let syntax = try decodingDER(SignatureError.malformedAlgorithmParameters) { () throws(DERError) in
            try AlgorithmIdentifierSyntax(algorithmIdentifier)
        }
        try self.init(oid: syntax.oid, parameters: syntax.parameters)
    }

    /// ``init(algorithmIdentifier:)`` for an AlgorithmIdentifier its caller has already split into a
    /// validated OID and the parameters element, if any (a certificate's parser has): the same
    /// rules, without decoding the structure a second time.
    package init(oid: ASN1ObjectIdentifier, parameters: DERElement?) throws(SignatureError) {
        if let digest = SignatureAlgorithm.digest(of: oid, in: SignatureAlgorithm.pkcs1Digests) {
            let algorithm = SignatureAlgorithm.rsaPKCS1v15(digest)
            guard parameters == nil || AlgorithmIdentifierSyntax.isNull(parameters) else {
                throw .malformedAlgorithmParameters("\(algorithm) parameters must be NULL or absent (RFC 4055)")
            }
            self = algorithm
        } else if let digest = SignatureAlgorithm.digest(of: oid, in: SignatureAlgorithm.ecdsaDigests) {
            let algorithm = SignatureAlgorithm.ecdsa(digest)
            guard parameters == nil else {
                throw .malformedAlgorithmParameters("\(algorithm) parameters must be absent (RFC 5758)")
            }
            self = algorithm
        } else if oid == OID.ed25519 || oid == OID.ed448 {
            let algorithm: SignatureAlgorithm = oid == OID.ed25519 ? .ed25519 : .ed448
            guard parameters == nil else {
                throw .malformedAlgorithmParameters("\(algorithm) parameters must be absent (RFC 8410)")
            }
            self = algorithm
        } else if oid == OID.rsassaPSS {
            guard let parameters else {
                throw .malformedAlgorithmParameters("RSASSA-PSS parameters must be present in a signature AlgorithmIdentifier (RFC 4055)")
            }
            self = try SignatureAlgorithm.parsePSSParameters(parameters)
        } else {
            throw .unsupportedAlgorithm(oid.dotted)
        }
    }

    /// The digest paired with `oid` in `table`. Four entries each: comparing the encoded bytes is
    /// cheaper than hashing the OID for a dictionary (this runs for every certificate parsed).
    private static func digest(of oid: ASN1ObjectIdentifier, in table: [(ASN1ObjectIdentifier, DigestAlgorithm)]) -> DigestAlgorithm? {
        table.first { $0.0 == oid }?.1
    }

    private static let pkcs1Digests: [(ASN1ObjectIdentifier, DigestAlgorithm)] = [
        (OID.sha256WithRSAEncryption, .sha256),
        (OID.sha384WithRSAEncryption, .sha384),
        (OID.sha512WithRSAEncryption, .sha512),
        (OID.sha1WithRSAEncryption, .sha1),
    ]

    private static let ecdsaDigests: [(ASN1ObjectIdentifier, DigestAlgorithm)] = [
        (OID.ecdsaWithSHA256, .sha256),
        (OID.ecdsaWithSHA384, .sha384),
        (OID.ecdsaWithSHA512, .sha512),
        (OID.ecdsaWithSHA1, .sha1),
    ]

    private static let hashDigests: [ASN1ObjectIdentifier: DigestAlgorithm] = [
        OID.sha1: .sha1,
        OID.sha256: .sha256,
        OID.sha384: .sha384,
        OID.sha512: .sha512,
    ]

    /// Parses RSASSA-PSS-params (RFC 4055 §3.1):
    ///
    ///     RSASSA-PSS-params ::= SEQUENCE {
    ///         hashAlgorithm      [0] HashAlgorithm    DEFAULT sha1Identifier,
    ///         maskGenAlgorithm   [1] MaskGenAlgorithm DEFAULT mgf1SHA1Identifier,
    ///         saltLength         [2] INTEGER          DEFAULT 20,
    ///         trailerField       [3] INTEGER          DEFAULT 1 }
    private static func parsePSSParameters(_ parameters: DERElement) throws(SignatureError) -> SignatureAlgorithm {
        let malformed = SignatureError.malformedAlgorithmParameters
        guard parameters.tag == .sequence else {
            throw malformed("RSASSA-PSS parameters must be a SEQUENCE, found \(parameters.tag)")
        }
        var reader = try decodingDER(malformed) { () throws(DERError) in try parameters.children() }

        var hash = DigestAlgorithm.sha1
        let hashField = try decodingDER(malformed) { () throws(DERError) in
            try reader.readIfPresent(.context(0, constructed: true))
        }
        if let hashField {
            let inner = try explicitlyTagged(hashField, name: "hashAlgorithm")
            hash = try parseHashAlgorithm(inner, name: "hashAlgorithm")
            guard hash != .sha1 else {
                throw malformed("RSASSA-PSS hashAlgorithm equal to its DEFAULT (SHA-1) must be omitted (DER)")
            }
        }

        var mgf1Hash = DigestAlgorithm.sha1
        let maskField = try decodingDER(malformed) { () throws(DERError) in
            try reader.readIfPresent(.context(1, constructed: true))
        }
        if let maskField {
            let inner = try explicitlyTagged(maskField, name: "maskGenAlgorithm")
            let mask = try decodingDER(malformed) { () throws(DERError) in try AlgorithmIdentifierSyntax(inner) }
            guard mask.oid == OID.mgf1 else {
                throw .unsupportedAlgorithm(mask.oid.dotted)
            }
            guard let mgfParameters = mask.parameters else {
                throw malformed("RSASSA-PSS MGF1 parameters (its hash AlgorithmIdentifier) are missing")
            }
            mgf1Hash = try parseHashAlgorithm(mgfParameters, name: "MGF1 hash")
            guard mgf1Hash != .sha1 else {
                throw malformed("RSASSA-PSS maskGenAlgorithm equal to its DEFAULT (MGF1 with SHA-1) must be omitted (DER)")
            }
        }

        var saltLength = 20
        let saltField = try decodingDER(malformed) { () throws(DERError) in
            try reader.readIfPresent(.context(2, constructed: true))
        }
        if let saltField {
            let value = try explicitInteger(saltField, name: "saltLength")
            guard value >= 0, value <= maximumPSSSaltLength else {
                throw malformed("RSASSA-PSS saltLength \(value) is out of range 0…\(maximumPSSSaltLength)")
            }
            guard value != 20 else {
                throw malformed("RSASSA-PSS saltLength equal to its DEFAULT (20) must be omitted (DER)")
            }
            saltLength = value
        }

        let trailerField = try decodingDER(malformed) { () throws(DERError) in
            try reader.readIfPresent(.context(3, constructed: true))
        }
        if let trailerField {
            let value = try explicitInteger(trailerField, name: "trailerField")
            guard value == 1 else {
                throw malformed("RSASSA-PSS trailerField must be 1 (trailerFieldBC), found \(value)")
            }
            throw malformed("RSASSA-PSS trailerField equal to its DEFAULT (1) must be omitted (DER)")
        }

        try decodingDER(malformed) { () throws(DERError) in try reader.finish() }
        return .rsaPSS(hash: hash, mgf1Hash: mgf1Hash, saltLength: saltLength)
    }

    /// The single element inside an EXPLICIT context tag.
    private static func explicitlyTagged(_ field: DERElement, name: String) throws(SignatureError) -> DERElement {
        try decodingDER({ .malformedAlgorithmParameters("RSASSA-PSS \(name): \($0)") }) { () throws(DERError) in
            var reader = try field.children()
            let inner = try reader.readAny()
            try reader.finish()
            return inner
        }
    }

    /// The INTEGER inside an EXPLICIT context tag, as an `Int`.
    private static func explicitInteger(_ field: DERElement, name: String) throws(SignatureError) -> Int {
        let inner = try explicitlyTagged(field, name: name)
        return try decodingDER({ .malformedAlgorithmParameters("RSASSA-PSS \(name): \($0)") }) { () throws(DERError) in
            try inner.integer(as: Int.self)
        }
    }

    /// A HashAlgorithm AlgorithmIdentifier (RFC 4055 §2.1): SHA-1/256/384/512 with NULL or absent parameters.
    private static func parseHashAlgorithm(_ element: DERElement, name: String) throws(SignatureError) -> DigestAlgorithm {
        let syntax = try decodingDER({ .malformedAlgorithmParameters("RSASSA-PSS \(name): \($0)") }) { () throws(DERError) in
            try AlgorithmIdentifierSyntax(element)
        }
        guard let digest = hashDigests[syntax.oid] else { throw .unsupportedAlgorithm(syntax.oid.dotted) }
        guard syntax.parameters == nil || syntax.parametersAreNull else {
            throw .malformedAlgorithmParameters("RSASSA-PSS \(name) parameters must be NULL or absent")
        }
        return digest
    }
}
