import TrustCrypto

extension ServerTrust.PreparedPolicies {
    /// `PreparedPolicies(policies)`, remembered for the last few policy lists: a client creates one
    /// ``ServerTrust`` per connection with the same policy list, and preparing it (reference
    /// identities, purposes, the union of the profiles' rules) costs as much as a quarter of an
    /// evaluation of a chain seen before.
    ///
    /// Why it cannot change a verdict: the prepared value is a pure function of the policy list with
    /// its texts as UTF-8 bytes (host names through ``ServerIdentity/init(_:)`` and
    /// ``EmailAddress/init(_:)``, invalid ones reported as written), and the key compares exactly
    /// that. It is immutable, so one instance can serve every trust object that asks for it.
    static func prepared(_ policies: [TrustPolicy]) -> ServerTrust.PreparedPolicies {
        recentPolicyLists.value(forKey: PolicyListKey(policies: policies)) { ServerTrust.PreparedPolicies(policies) }
    }

    /// A policy list compared with its host names and mailboxes byte for byte: `String` equality is
    /// canonical equivalence, and a host name that differs only in its Unicode normalisation is
    /// reported as written (``TrustFailureReason/invalidReferenceIdentity(_:)``).
    ///
    /// Both operations are written out: they compare and hash the texts' bytes (the synthesised ones
    /// would compare and hash them up to canonical equivalence), and the synthesised `==` over a tuple
    /// of two policies copies both, which costs far more than comparing them in place.
    private struct PolicyListKey: Hashable, Sendable {
        let policies: [TrustPolicy]

        static func == (lhs: PolicyListKey, rhs: PolicyListKey) -> Bool {
            guard lhs.policies.count == rhs.policies.count else { return false }
            for index in lhs.policies.indices where !same(lhs.policies[index], rhs.policies[index]) { return false }
            return true
        }

        /// Every case's position and texts: what `==` compares, so equal keys hash alike.
        func hash(into hasher: inout Hasher) {
            hasher.combine(policies.count)
            for policy in policies {
                switch policy {
                case let .ssl(server, hostname):
                    hasher.combine(server ? 0 : 1)
                    combine(hostname, into: &hasher)
                case let .webPKI(server, hostname):
                    hasher.combine(server ? 2 : 3)
                    combine(hostname, into: &hasher)
                case .basicX509:
                    hasher.combine(4)
                case let .profile(profile, purpose, hostname):
                    hasher.combine(5)
                    hasher.combine(profile)
                    hasher.combine(purpose)
                    combine(hostname, into: &hasher)
                case let .email(address):
                    hasher.combine(6)
                    combine(address, into: &hasher)
                case let .revocation(flags):
                    hasher.combine(7)
                    hasher.combine(flags.rawValue)
                }
            }
        }

        private func combine(_ text: String?, into hasher: inout Hasher) {
            guard var text else { return hasher.combine(-1) }
            hasher.combine(text.utf8.count)
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }

        private static func same(_ lhs: TrustPolicy, _ rhs: TrustPolicy) -> Bool {
            switch lhs {
            case let .ssl(server, hostname):
                guard case let .ssl(otherServer, otherHostname) = rhs else { return false }
                return server == otherServer && sameText(hostname, otherHostname)
            case let .webPKI(server, hostname):
                guard case let .webPKI(otherServer, otherHostname) = rhs else { return false }
                return server == otherServer && sameText(hostname, otherHostname)
            case .basicX509:
                guard case .basicX509 = rhs else { return false }
                return true
            case let .profile(profile, purpose, hostname):
                guard case let .profile(otherProfile, otherPurpose, otherHostname) = rhs else { return false }
                return profile == otherProfile && purpose == otherPurpose && sameText(hostname, otherHostname)
            case let .email(address):
                guard case let .email(otherAddress) = rhs else { return false }
                return HostnameMatcher.sameBytes(address, otherAddress)
            case let .revocation(flags):
                guard case let .revocation(otherFlags) = rhs else { return false }
                return flags == otherFlags
            }
        }

        private static func sameText(_ lhs: String?, _ rhs: String?) -> Bool {
            guard let lhs, let rhs else { return lhs == nil && rhs == nil }
            return HostnameMatcher.sameBytes(lhs, rhs)
        }
    }

    /// The one bounded cache type (off with ``TrustCaches``); 256 entries make it sharded, so
    /// concurrent trust objects for different hosts do not queue on one lock.
    private static let recentPolicyLists = BoundedCache<PolicyListKey, ServerTrust.PreparedPolicies>(capacity: 256)
}
