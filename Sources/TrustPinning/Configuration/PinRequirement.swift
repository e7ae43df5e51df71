import TrustX509

/// A set of SPKI pins of which at least one must match a certificate in ``scope``.
///
/// A domain's requirements must *all* hold: ATS pins both the leaf and a CA when both
/// `NSPinnedLeafIdentities` and `NSPinnedCAIdentities` are given ("if you include both, then both
/// must produce a match"); Android and TrustKit have one requirement over the whole chain.
public struct PinRequirement: Hashable, Sendable {
    /// The certificates the pins may match.
    public let scope: PinScope
    /// The pins, in the order given, without duplicates; never empty.
    public let pins: [SPKIPin]

    /// Creates a requirement.
    ///
    /// - Throws: ``PinningConfigurationError/tooFewPins(count:)`` when `pins` is empty: a
    ///   requirement nothing can satisfy would reject every connection.
    public init(scope: PinScope, pins: [SPKIPin]) throws(PinningConfigurationError) {
        let unique = pins.uniqued()
        guard !unique.isEmpty else { throw .tooFewPins(count: 0) }
        self.scope = scope
        self.pins = unique
    }

    /// This requirement with `more` pins after its own (duplicates dropped); never empty, as this
    /// one is not.
    func adding(_ more: [SPKIPin]) -> PinRequirement {
        PinRequirement(scope: scope, uniquePins: (pins + more).uniqued())
    }

    private init(scope: PinScope, uniquePins: [SPKIPin]) {
        self.scope = scope
        pins = uniquePins
    }

    /// For each pin, the indices (into `chain`, leaf first) of the in-scope certificates it matches.
    public func matches(in chain: [Certificate]) -> [SPKIPin: [Int]] {
        var found: [SPKIPin: [Int]] = [:]
        for pin in pins {
            found[pin] = chain.indices.filter { scope.covers(index: $0, count: chain.count) && pin.matches(chain[$0]) }
        }
        return found
    }

    /// Whether some pin matches an in-scope certificate of `chain`.
    public func isSatisfied(by chain: [Certificate]) -> Bool {
        chain.indices.contains { index in
            scope.covers(index: index, count: chain.count) && pins.contains { $0.matches(chain[index]) }
        }
    }
}
