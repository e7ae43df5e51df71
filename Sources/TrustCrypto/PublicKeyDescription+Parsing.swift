import TrustDER

extension PublicKeyDescription {
    /// The largest RSA modulus accepted, in bits (libcrypto's own verification limit).
    public static let maximumRSAModulusBits = 16384

    /// The largest RSA public exponent accepted: 2^33 − 1, the cap of ring and BoringSSL. Real keys use
    /// 65537 (or 3); a huge exponent buys nothing and makes every verification with the key a
    /// modular exponentiation as long as the exponent, work a hostile issuer would choose.
    public static let maximumRSAPublicExponent: UInt64 = (1 << 33) - 1

    /// Parses a DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7) in pure Swift.
    ///
    /// - RSA (`rsaEncryption`): parameters must be NULL (RFC 3279 §2.3.1); the key must be an
    ///   RSAPublicKey with a positive odd modulus of at most ``maximumRSAModulusBits`` bits
    ///   and an odd public exponent from 3 to ``maximumRSAPublicExponent`` (as ring and BoringSSL).
    /// - EC (`id-ecPublicKey`): parameters must be a named curve OID (RFC 5480 §2.1.1);
    ///   the point must be uncompressed (`04 ‖ X ‖ Y`) or compressed (`02|03 ‖ X`) with
    ///   the curve's coordinate length.
    /// - Ed25519 / Ed448: no parameters; 32- / 57-byte keys (RFC 8410 §4).
    /// - Any other algorithm is described as ``Kind/unknown(algorithmOID:)``.
    ///
    /// - Throws: ``SignatureError/explicitCurveParameters``, ``SignatureError/unsupportedCurve(_:)``,
    ///   ``SignatureError/unsupportedRSAPublicExponent(_:)`` or ``SignatureError/malformedKey(_:)``.
    public init(spki: ArraySlice<UInt8>) throws(SignatureError) {
        self = try PublicKeyDescription.parse(spki: spki).description
    }

    /// The key's components as ``init(spki:)`` validated them, for building the libcrypto key
    /// without a second DER decoder (``VerificationKey``).
    enum Material {
        /// RSAPublicKey modulus and public exponent magnitudes (big-endian, no sign octet).
        case rsa(modulus: ArraySlice<UInt8>, exponent: ArraySlice<UInt8>)
        /// The encoded point (SEC 1 §2.3.3) on a named curve.
        case ec(curve: NamedCurve, point: ArraySlice<UInt8>)
        /// The raw Ed25519 (32 bytes) or Ed448 (57 bytes) public key.
        case edwards(ArraySlice<UInt8>)
        /// An algorithm this library does not verify with.
        case unsupported
    }

    /// Parses and validates `spki` (the rules of ``init(spki:)``), returning the description and the
    /// validated components.
    static func parse(spki: ArraySlice<UInt8>) throws(SignatureError) -> (description: PublicKeyDescription, material: Material) {
        let malformed = SignatureError.malformedKey
        // Walked by offsets (no slice, so no reference count, per element): a cold chain parses
        // the SPKI of every key it builds.
        let (syntax, key) = try decodingDER(malformed) { () throws(DERError) in
            let outer = try DERIndexReader.parseSingle(spki)
            try outer.expect(.sequence)
            var reader = try outer.children()
            let algorithm = try AlgorithmIdentifierSyntax(try reader.read(.sequence, in: spki), in: spki)
            let key = try reader.read(.bitString, in: spki).bitString(in: spki)
            try reader.finish()
            return (algorithm, key)
        }
        let oid = syntax.oid
        if oid == OID.rsaEncryption {
            guard syntax.parametersAreNull else { throw malformed("rsaEncryption parameters must be NULL (RFC 3279)") }
            let rsa = try PublicKeyDescription.rsaKey(try PublicKeyDescription.octets(of: key, algorithm: "RSA"))
            return (PublicKeyDescription(kind: .rsa(modulusBits: rsa.bits)), .rsa(modulus: rsa.modulus, exponent: rsa.exponent))
        } else if oid == OID.ecPublicKey {
            let curve = try PublicKeyDescription.namedCurve(syntax.parameters)
            let point = try PublicKeyDescription.octets(of: key, algorithm: "EC")
            try PublicKeyDescription.checkPoint(point, curve: curve)
            return (PublicKeyDescription(kind: .ec(curve: curve)), .ec(curve: curve, point: point))
        } else if oid == OID.ed25519 || oid == OID.ed448 {
            let isEd25519 = oid == OID.ed25519
            let name = isEd25519 ? "Ed25519" : "Ed448"
            guard syntax.parameters == nil else { throw malformed("\(name) parameters must be absent (RFC 8410)") }
            let octets = try PublicKeyDescription.octets(of: key, algorithm: name)
            let expected = isEd25519 ? 32 : 57
            guard octets.count == expected else {
                throw malformed("\(name) public key must be \(expected) bytes, found \(octets.count)")
            }
            return (PublicKeyDescription(kind: isEd25519 ? .ed25519 : .ed448), .edwards(octets))
        } else {
            return (PublicKeyDescription(kind: .unknown(algorithmOID: oid.dotted)), .unsupported)
        }
    }

    /// The subjectPublicKey octets, which must be a whole number of bytes.
    private static func octets(of key: DERBitString, algorithm: String) throws(SignatureError) -> ArraySlice<UInt8> {
        guard key.unusedBits == 0 else {
            throw .malformedKey("\(algorithm) subjectPublicKey BIT STRING has \(key.unusedBits) unused bits")
        }
        return key.bytes
    }

    /// Validates RSAPublicKey (RFC 8017 §A.1.1) and returns the modulus size in bits and the
    /// modulus and exponent magnitudes.
    private static func rsaKey(_ octets: ArraySlice<UInt8>) throws(SignatureError)
        -> (bits: Int, modulus: ArraySlice<UInt8>, exponent: ArraySlice<UInt8>)
    {
        let malformed = SignatureError.malformedKey
        let (modulus, exponent) = try decodingDER({ malformed("RSAPublicKey: \($0)") }) { () throws(DERError) in
            let sequence = try DERIndexReader.parseSingle(octets)
            try sequence.expect(.sequence)
            var reader = try sequence.children()
            let modulus = try reader.read(.integer, in: octets).integerBytes(in: octets)
            let exponent = try reader.read(.integer, in: octets).integerBytes(in: octets)
            try reader.finish()
            return (modulus, exponent)
        }
        guard let modulusMagnitude = positiveMagnitude(modulus) else {
            throw malformed("RSA modulus must be positive")
        }
        guard let exponentMagnitude = positiveMagnitude(exponent) else {
            throw malformed("RSA public exponent must be positive")
        }
        guard let firstModulusByte = modulusMagnitude.first, let lastModulusByte = modulusMagnitude.last,
            lastModulusByte & 1 == 1
        else {
            throw malformed("RSA modulus must be odd")
        }
        try checkPublicExponent(exponentMagnitude)
        // Minimal encoding makes `firstModulusByte` non-zero, so this is the exact bit length.
        let bits = (modulusMagnitude.count - 1) * 8 + (8 - firstModulusByte.leadingZeroBitCount)
        guard bits <= maximumRSAModulusBits else {
            throw malformed("RSA modulus of \(bits) bits exceeds the \(maximumRSAModulusBits)-bit maximum")
        }
        return (bits, modulusMagnitude, exponentMagnitude)
    }

    /// Accepts an odd public exponent from 3 to ``maximumRSAPublicExponent`` (the magnitude octets of a
    /// minimally encoded positive INTEGER, so no leading zero octet).
    private static func checkPublicExponent(_ magnitude: ArraySlice<UInt8>) throws(SignatureError) {
        guard let first = magnitude.first else { throw .unsupportedRSAPublicExponent("0") }
        guard magnitude.count <= 8 else {
            // More than 64 bits: far beyond the cap, and not worth printing.
            let bits = (magnitude.count - 1) * 8 + (8 - first.leadingZeroBitCount)
            throw .unsupportedRSAPublicExponent("a \(bits)-bit value")
        }
        var value = UInt64(first)
        for byte in magnitude.dropFirst() { value = value << 8 | UInt64(byte) }
        guard value >= 3, value & 1 == 1, value <= maximumRSAPublicExponent else {
            throw .unsupportedRSAPublicExponent(String(value))
        }
    }

    /// The magnitude octets of a minimally encoded INTEGER, or nil when it is zero or negative.
    private static func positiveMagnitude(_ integer: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let first = integer.first, first & 0x80 == 0 else { return nil }
        let magnitude = first == 0 ? integer.dropFirst() : integer
        return magnitude.isEmpty ? nil : magnitude
    }

    /// The named curve in id-ecPublicKey parameters (ECParameters, RFC 5480 §2.1.1).
    private static func namedCurve(_ parameters: DERElement?) throws(SignatureError) -> NamedCurve {
        guard let parameters else {
            throw .malformedKey("id-ecPublicKey parameters (the named curve) are missing")
        }
        switch parameters.tag {
        case .sequence:
            throw .explicitCurveParameters
        case .null:
            throw .malformedKey("implicitlyCA EC parameters (NULL) are not allowed (RFC 5480)")
        case .objectIdentifier:
            let oid = try decodingDER(SignatureError.malformedKey) { () throws(DERError) in
                try parameters.objectIdentifier()
            }
            if oid == OID.secp256r1 { return .p256 }
            if oid == OID.secp192r1 { return .p192 }
            if oid == OID.secp224r1 { return .p224 }
            if oid == OID.secp384r1 { return .p384 }
            if oid == OID.secp521r1 { return .p521 }
            throw .unsupportedCurve(oid.dotted)
        default:
            throw .malformedKey("id-ecPublicKey parameters must be a named curve OID, found \(parameters.tag)")
        }
    }

    /// Checks an ECPoint's encoding (SEC 1 §2.3.3): form byte and length.
    private static func checkPoint(_ point: ArraySlice<UInt8>, curve: NamedCurve) throws(SignatureError) {
        let size = curve.coordinateByteCount
        switch point.first {
        case 0x04:
            guard point.count == 1 + 2 * size else {
                throw .malformedKey("uncompressed \(curve) point must be \(1 + 2 * size) bytes, found \(point.count)")
            }
        case 0x02, 0x03:
            guard point.count == 1 + size else {
                throw .malformedKey("compressed \(curve) point must be \(1 + size) bytes, found \(point.count)")
            }
        case nil:
            throw .malformedKey("EC point is empty")
        case let form?:
            throw .malformedKey("EC point form 0x\(String(form, radix: 16)) is not compressed (02/03) or uncompressed (04)")
        }
    }
}
