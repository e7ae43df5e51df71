/// Apple's trustd rules that decide a default SSL or BasicX509 verdict, item by item: the Apple
/// function (Security's `trust/trustd/SecPolicyServer.c`, `OSX/sec/Security/SecPolicy.c`,
/// `SecCertificate.c`, read at apple-oss-distributions/Security db15acb) and what SwiftTrust does.
/// docs/profiles.md prints the same table (`trustctl profiles --apple --markdown`); the test that
/// shows each row is named in the test target (`AppleRulesTableTests`), which checks that every row
/// has one and that it exists.
package enum AppleRulesTable {
    /// One rule: what it is about, Apple's function and SwiftTrust's behaviour.
    package struct Row: Sendable {
        /// What the rule is about (unique: the tests name each row's test by it).
        package let topic: String
        /// Apple's functions that apply the rule.
        package let apple: String
        /// What SwiftTrust does.
        package let swiftTrust: String
    }

    package static let rows: [Row] = [
        Row(
            topic: "Explicitly encoded DEFAULT values (cA FALSE, critical FALSE, minimum 0)",
            apple: "SecCEPBasicConstraints, DERParseBooleanWithDefault; parseGeneralSubtrees",
            swiftTrust:
                "Parsed as omitted and listed in `Certificate.encodingFindings` (trustctl inspect, diagnostics); refused by rfc5280-strict and webpki (`derDefaultOmitted`). An explicit v1 version, a non-zero minimum, any maximum and non-DER BOOLEANs stay parse errors, as in Apple's parser."
        ),
        Row(
            topic: "SHA-1 signatures",
            apple: "SecPolicyRemoveWeakHashOptions (SSL server only), SecPolicyCheckSignatureHashAlgorithms",
            swiftTrust:
                "Verified by default; refused in TLS server chains by `signatureHashAlgorithm` (self-signed certificates and administrators' roots exempt); accepted by SSL client and BasicX509 and in OCSP responses."
        ),
        Row(
            topic: "Weak keys in every certificate",
            apple: "SecPolicyCheckWeakKeySize, SecCertificateIsWeakKey (fatal)",
            swiftTrust:
                "`weakKeySize` under basic, ssl and webpki: RSA under 1024 bits and keys of unknown kinds (DSA), the anchor included; a fatal failure. P-192 and P-224 keys meet Apple's 160-bit EC minimum."
        ),
        Row(
            topic: "TLS server key sizes",
            apple: "SecPolicyAddStrongKeySizeOptions, SecPolicyCheckKeySize, SecCertificateIsAtLeastMinKeySize",
            swiftTrust:
                "`strongKeySize`: RSA 2048, EC 256 in every certificate (P-192 and P-224 fail); Ed25519/Ed448 fail (not in Apple's table); RSA 1024 verifies elsewhere."
        ),
        Row(
            topic: "Elliptic curves",
            apple: "ccec_cp_for_oid (corecrypto), SecCertificateIsWeakKey (20 bytes), SecPolicyAddStrongKeySizeOptions (256 bits)",
            swiftTrust:
                "P-192 and P-224 keys parse and verify: accepted by BasicX509 and TLS clients, refused in TLS server chains (`strongKeySize`) and by the web PKI (`keyAlgorithm`)."
        ),
        Row(
            topic: "Anchors are the exact certificates given",
            apple:
                "SecMemoryCertificateSourceContains (CFSetContainsValue, SecCertificateEqual), anchor sources searched first for parents (SecPathBuilderGetNext)",
            swiftTrust:
                "An anchor matches by its bytes; a presented look-alike (same subject and key) is judged on its own fields with the anchor as its issuer."
        ),
        Row(
            topic: "Caller anchors get no exemption",
            apple:
                "SecPVCIsAnchorPerConstraints(kSecUserAnchorSource) in SecPolicyCheckKeySize, SecPolicyCheckOtherTrustValidityPeriod, SecPolicyCheckServerAuthEKU",
            swiftTrust:
                "A leaf passed to setAnchorCertificates is held to the key-size, 825-day and serverAuth rules; only administrators' roots are exempt."
        ),
        Row(
            topic: "System roots and administrators' roots",
            apple: "SecCertificateSourceContains(kSecSystemAnchorSource) for SecPolicyCheckSystemTrustValidityPeriod and SecPolicyCheckServerAuthEKU",
            swiftTrust:
                "A system root is one by its bytes, however supplied; roots also found in /usr/local/share/ca-certificates, /etc/pki/ca-trust/source/anchors or /etc/pki/trust/anchors, and not shipped in /usr/share/ca-certificates, are administrators' (Apple's user anchors)."
        ),
        Row(
            topic: "Name constraints",
            apple: "SecDNSNameConstraintsMatch; SecNameConstraintsAreSubtreesSupported (critical unsupported forms fail)",
            swiftTrust:
                "`.example.com` matches proper subdomains (rfc5280-strict and webpki keep RFC 5280's syntax: `nameConstraintsDNSNameSyntax`); an intermediate's critical nameConstraints with otherName, x400Address, ediPartyName or registeredID subtrees fails the chain (`nameConstraintsFormsSupported`). Wildcard constraints stay malformed (stricter than Apple)."
        ),
        Row(
            topic: "otherName constraints without their [0] EXPLICIT wrapper",
            apple:
                "parseGeneralSubtrees keeps each base undecoded; nameconstraints.c never decodes an otherName; SecNameConstraintsAreSubtreesSupported (intermediates only)",
            swiftTrust:
                "Read with the bare value as the otherName's value and listed in `Certificate.encodingFindings` (trustctl inspect, chain); trusted non-critical or on the anchor; an intermediate's critical one fails as any otherName constraint does (`nameConstraintsFormsSupported`). OpenSSL refuses to verify through such a certificate; Go skips the subtree (and refuses a critical one). Elsewhere (subjectAltName) the wrapper stays required."
        ),
        Row(
            topic: "Chain length",
            apple: "MAX_CHAIN_LENGTH defined but unused (SecTrustServer.c)",
            swiftTrust: "No depth cap by default; the budget's path length (16 certificates) bounds the work."),
        Row(
            topic: "v1 and v2 CA certificates",
            apple: "SecPVCParentCertificateChecks",
            swiftTrust: "A v1/v2 intermediate is accepted below a v1/v2 anchor (RFC 5280 profiles: `version1IssuersOnlyAsAnchors`)."),
        Row(
            topic: "Critical extensions Apple parses",
            apple: "SecCertificateInitializeExtensionParsers, isAppleExtensionOID, isOtherKnownExtensionOID",
            swiftTrust:
                "privateKeyUsagePeriod, subjectInfoAccess, Netscape certificate type, QCStatements, OCSP no-check, Entrust version and Apple's arcs are not unknown (RFC 5280 profiles: `criticalExtensionsProcessed`)."
        ),
        Row(
            topic: "Server Gated Cryptography EKUs",
            apple: "set_ssl_ekus, SecPolicyCheckServerAuthEKU",
            swiftTrust:
                "Microsoft and Netscape SGC satisfy the serverAuth purpose under basic and ssl; the strict serverAuth rule still wants serverAuth itself except under administrators' roots (RFC 5280 profiles and webpki: `extendedKeyUsagePurposeListed`)."
        ),
        Row(
            topic: "Host names: underscores and trailing dots",
            apple: "SecFrameworkIsDNSName, SecDNSMatch",
            swiftTrust:
                "Underscores match in reference identities and dNSNames; a dNSName ending in a dot is dropped; one trailing dot of the reference is ignored."
        ),
        Row(
            topic: "requirePositiveResponse",
            apple: "SecPVCPathCheckRevocationResponsesReceived (index 0)",
            swiftTrust:
                "Proof of good status is required of the leaf (RFC 5280 profiles: every non-anchor certificate, `revocationProofForEveryCertificate`)."
        ),
        Row(
            topic: "SHA-1 OCSP responses",
            apple: "SecOCSPResponseVerifySignature (no hash filter)",
            swiftTrust: "Accepted by default (`SignaturePolicy.modern` refuses them)."),
        Row(
            topic: "The revocation evaluator fetches",
            apple: "SecPolicyCreateRevocation (clears NoNetworkAccess), SecPathBuilderCheckRevocation",
            swiftTrust:
                "A TLS decision that may wait fetches for Alamofire's RevocationTrustEvaluator (alone, composed or chosen by a ServerTrustManager) unless its options disable the network."
        ),
        Row(
            topic: "Certificate Transparency",
            apple: "SecPolicyCheckCT, SecPolicyCheckSystemTrustedCTRequired, SecTrustSetTrustedLogs, SecTrustSetSignedCertificateTimestamps",
            swiftTrust:
                "With a log list configured (none ships), SCTs embedded, delivered by TLS and in OCSP responses are judged by trustd's rule; CT is required only under the SSL server policy, for a chain ending at a system root, a leaf issued from 2018-10-16 and valid, and a list updated within 60 days or set by the caller (a recoverable `certificateTransparencyRequired` failure). No kill switch and no exception list (is_ct_excepted)."
        ),
        Row(
            topic: "BasicX509",
            apple: "SecPolicyCreateBasicX509, SecPolicyAddBasicX509Options",
            swiftTrust:
                "The `basic` profile: RFC 5280 plus anchor validity and CA flags, weak keys, key-identifier linkage, non-empty subjects; `rfc5280` stays the RFC's own rules (PKITS)."
        ),
    ]

    /// The Markdown table of docs/profiles.md's "Apple's rules, item by item".
    package static var markdown: String {
        var lines = ["| topic | Apple | SwiftTrust |", "|---|---|---|"]
        for row in rows {
            lines.append("| \(row.topic) | \(row.apple) | \(row.swiftTrust) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
