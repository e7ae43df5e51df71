import TrustDER

/// One PolicyInformation entry of certificatePolicies (RFC 5280 §4.2.1.4).
public struct PolicyInformation: Hashable, Sendable {
    /// The policy OID.
    public let identifier: ASN1ObjectIdentifier
    /// The encoded policyQualifiers, if any (kept raw).
    public let qualifiers: ArraySlice<UInt8>?
}

/// The certificatePolicies extension (RFC 5280 §4.2.1.4).
public struct CertificatePolicies: Hashable, Sendable {
    /// The policies, in order (no OID appears twice).
    public let policies: [PolicyInformation]

    /// The policy OIDs.
    public var identifiers: [ASN1ObjectIdentifier] { policies.map(\.identifier) }

    /// Up to this many policies, duplicates are found by comparing with each earlier one.
    static var linearLimit: Int { 8 }

    /// Checks the extnValue `value` against every rule and, when `building`, decodes it (nil
    /// otherwise): checked when the certificate is parsed, decoded on first use (one code path).
    static func read(_ value: ArraySlice<UInt8>, building: Bool) throws -> CertificatePolicies? {
        let element = try DERIndexReader.parseSingle(value)
        try element.expect(.sequence)
        var reader = try element.children()
        var policies: [PolicyInformation] = []
        var seen: Set<ASN1ObjectIdentifier> = [] // filled only past `linearLimit` policies
        var count = 0
        while let info = try reader.next(in: value) {
            try info.expect(.sequence)
            var fields = try info.children()
            let oid = try fields.read(.objectIdentifier, in: value).objectIdentifier(in: value)
            let qualifiers = try fields.readIfPresent(.sequence, in: value).map { value[$0.encodedRange] }
            try fields.finish()
            // RFC 5280 §4.2.1.4: a policy OID MUST NOT appear more than once. Certificates carry one
            // to three: those are compared directly; a longer list goes through a seeded hash set,
            // so the check stays linear in the number of policies whatever an attacker sends.
            let duplicate: Bool
            if count < linearLimit {
                duplicate = try anyOfFirstOIDs(count, of: element, in: value) { ByteComparison.equal($0, oid.bytes) }
            } else {
                if seen.isEmpty {
                    _ = try anyOfFirstOIDs(count, of: element, in: value) {
                        seen.insert(ASN1ObjectIdentifier(trusted: $0)); return false
                    }
                }
                duplicate = !seen.insert(oid).inserted
            }
            if duplicate {
                throw X509Error.structure("certificatePolicies lists \(QuotedValue.capped(oid)) twice", at: info.offset)
            }
            if building { policies.append(PolicyInformation(identifier: oid, qualifiers: qualifiers)) }
            count += 1
        }
        if count == 0 { throw X509Error.structure("certificatePolicies must not be empty", at: element.offset) }
        return building ? CertificatePolicies(policies: policies) : nil
    }

    /// Whether `test` holds for the OID content of one of the first `count` policies of the list
    /// `element` of `value` (policies already read and checked): read again from the list instead
    /// of kept, so checking a list allocates nothing.
    private static func anyOfFirstOIDs(
        _ count: Int, of element: DERIndexedElement, in value: ArraySlice<UInt8>,
        _ test: (ArraySlice<UInt8>) -> Bool
    ) throws -> Bool {
        var reader = try element.children()
        for _ in 0..<count {
            guard let info = try reader.next(in: value) else { return false }
            var fields = try info.children()
            if test(value[try fields.read(.objectIdentifier, in: value).contentRange]) { return true }
        }
        return false
    }
}

/// The policyMappings extension (RFC 5280 §4.2.1.5).
public struct PolicyMappings: Hashable, Sendable {
    /// One issuerDomainPolicy → subjectDomainPolicy pair.
    public struct Mapping: Hashable, Sendable {
        /// The issuer's policy.
        public let issuerDomainPolicy: ASN1ObjectIdentifier
        /// The equivalent subject policy.
        public let subjectDomainPolicy: ASN1ObjectIdentifier
    }

    /// The mappings, in order.
    public let mappings: [Mapping]

    /// Checks the extnValue `value` against every rule and, when `building`, decodes it (nil
    /// otherwise): checked when the certificate is parsed, decoded on first use (one code path).
    static func read(_ value: ArraySlice<UInt8>, building: Bool) throws -> PolicyMappings? {
        let element = try DERIndexReader.parseSingle(value)
        try element.expect(.sequence)
        var reader = try element.children()
        var mappings: [Mapping] = []
        var count = 0
        while let pair = try reader.next(in: value) {
            try pair.expect(.sequence)
            var fields = try pair.children()
            let issuer = try fields.read(.objectIdentifier, in: value).objectIdentifier(in: value)
            let subject = try fields.read(.objectIdentifier, in: value).objectIdentifier(in: value)
            try fields.finish()
            if building { mappings.append(Mapping(issuerDomainPolicy: issuer, subjectDomainPolicy: subject)) }
            count += 1
        }
        if count == 0 { throw X509Error.structure("policyMappings must not be empty", at: element.offset) }
        return building ? PolicyMappings(mappings: mappings) : nil
    }
}

/// The policyConstraints extension (RFC 5280 §4.2.1.11).
public struct PolicyConstraints: Hashable, Sendable {
    /// `[0] requireExplicitPolicy` skip count.
    public let requireExplicitPolicy: Int?
    /// `[1] inhibitPolicyMapping` skip count.
    public let inhibitPolicyMapping: Int?

    static func parse(_ value: ArraySlice<UInt8>) throws -> PolicyConstraints {
        let element = try DERIndexReader.parseSingle(value)
        try element.expect(.sequence)
        var reader = try element.children()
        let require = try reader.readIfPresent(.context(0, constructed: false), in: value)
            .map { Int(try $0.integer(as: UInt32.self, in: value, tag: .context(0, constructed: false))) }
        let inhibit = try reader.readIfPresent(.context(1, constructed: false), in: value)
            .map { Int(try $0.integer(as: UInt32.self, in: value, tag: .context(1, constructed: false))) }
        try reader.finish()
        // RFC 5280 §4.2.1.11: conforming CAs MUST NOT issue an empty sequence.
        if require == nil && inhibit == nil {
            throw X509Error.structure("policyConstraints must not be empty", at: element.offset)
        }
        return PolicyConstraints(requireExplicitPolicy: require, inhibitPolicyMapping: inhibit)
    }
}

/// The inhibitAnyPolicy extension (RFC 5280 §4.2.1.14).
public struct InhibitAnyPolicy: Hashable, Sendable {
    /// The skip count.
    public let skipCerts: Int

    static func parse(_ value: ArraySlice<UInt8>) throws -> InhibitAnyPolicy {
        InhibitAnyPolicy(skipCerts: Int(try DERIndexReader.parseSingle(value).integer(as: UInt32.self, in: value)))
    }
}
