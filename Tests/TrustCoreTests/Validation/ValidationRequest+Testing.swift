import TrustCore
import TrustDER

extension ValidationRequest {
    /// A request at `verifyTime` under `profile`'s rules for `purposes`, no identity and no
    /// revocation, with `options`: what the unit tests of single validation steps need.
    static func testing(
        verifyTime: DERTime, profile: TrustProfile = .ssl, purposes: [KeyPurpose] = [],
        options: TrustOptions = TrustOptions()
    ) -> ValidationRequest {
        ValidationRequest(
            verifyTime: verifyTime, rules: profile.rules, purposes: purposes, identities: [], emailAddresses: [],
            revocation: nil, options: options)
    }
}
