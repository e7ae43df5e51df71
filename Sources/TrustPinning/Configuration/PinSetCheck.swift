import Foundation
import TrustX509

/// How a validated chain fares against a domain's pins: which certificate matches which pin,
/// which pins match nothing, and whether the pins apply at all. What the evaluator decides on, and
/// what `trustctl pins check` prints.
public struct PinSetCheck: Hashable, Sendable {
    /// The overall outcome.
    public enum Outcome: Hashable, Sendable {
        /// Every requirement is matched.
        case satisfied
        /// At least one requirement is matched by no certificate in its scope.
        case unsatisfied
        /// The pins expired before the check's date: they are neither enforced nor reported.
        case pinsExpired
        /// The chain ends at an anchor that overrides pins (Android's `overridePins`).
        case overriddenByAnchor
        /// The domain configures anchors only, no pins.
        case noPins
    }

    /// One requirement's matches.
    public struct RequirementMatches: Hashable, Sendable {
        /// The requirement.
        public let requirement: PinRequirement
        /// For each of its pins (in order), the chain indices (0 = leaf) of the in-scope
        /// certificates with that key; empty for a pin that matches nothing.
        public let matches: [(pin: SPKIPin, chainIndices: [Int])]

        /// Whether some pin matched.
        public var isSatisfied: Bool { matches.contains { !$0.chainIndices.isEmpty } }

        /// Equal requirements with equal matches, pin by pin.
        public static func == (lhs: RequirementMatches, rhs: RequirementMatches) -> Bool {
            lhs.requirement == rhs.requirement && lhs.matches.elementsEqual(rhs.matches) { $0.pin == $1.pin && $0.chainIndices == $1.chainIndices }
        }

        /// Hashes the requirement and every match.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(requirement)
            for match in matches { hasher.combine(match.pin); hasher.combine(match.chainIndices) }
        }
    }

    /// The outcome.
    public let outcome: Outcome
    /// Per requirement, what matched (empty when the pins expired or were overridden).
    public let requirements: [RequirementMatches]

    /// Checks `chain` (the validated chain, leaf first, anchor last) against `policy` at `date`.
    public init(policy: DomainPinningPolicy, chain: [Certificate], at date: Date) {
        if policy.requirements.isEmpty {
            (outcome, requirements) = (.noPins, [])
        } else if !policy.pinsApply(at: date) {
            (outcome, requirements) = (.pinsExpired, [])
        } else if let anchor = chain.last, policy.trustAnchors?.overridesPins(for: anchor) == true {
            (outcome, requirements) = (.overriddenByAnchor, [])
        } else {
            let results = policy.requirements.map { requirement in
                let found = requirement.matches(in: chain)
                return RequirementMatches(
                    requirement: requirement,
                    matches: requirement.pins.map { ($0, found[$0] ?? []) })
            }
            requirements = results
            outcome = results.allSatisfy(\.isSatisfied) ? .satisfied : .unsatisfied
        }
    }

    /// Whether the connection may proceed as far as pins are concerned (in enforce mode).
    public var passes: Bool { outcome != .unsatisfied }

    /// Pins that match no certificate of the chain: backups not yet in use, or dead pins.
    public var unmatchedPins: [SPKIPin] {
        requirements.flatMap { $0.matches.filter(\.chainIndices.isEmpty).map(\.pin) }
    }

    /// The requirements no certificate satisfied.
    public var unsatisfiedRequirements: [PinRequirement] {
        requirements.filter { !$0.isSatisfied }.map(\.requirement)
    }
}
