import TrustCore

/// An IPv4 or IPv6 network `address/prefixLength` (a single address is a full-length prefix), as an
/// ``IdentityRule/ipAddress(_:)`` rule holds it.
package struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
    /// The network's first address, host bits zero.
    package let address: IPAddress
    /// How many leading bits an address must share with ``address``.
    package let prefixLength: Int

    /// Parses `10.0.0.0/8`, `2001:db8::/32` or a single address; nil when the text is neither, or
    /// when bits below the prefix are set (`10.0.0.1/8` is a typo for something).
    package init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        let bits = address.bytes.count * 8
        var prefixLength = bits
        if parts.count == 2 {
            guard parts[1].utf8.count <= 3, parts[1].utf8.allSatisfy({ (48...57).contains($0) }),
                let length = Int(parts[1]), length <= bits, parts[1] == "\(length)"
            else { return nil }
            prefixLength = length
        }
        self.address = address
        self.prefixLength = prefixLength
        guard contains(address.bytes[...], ignoringHostBits: false) else { return nil }
    }

    /// Whether the iPAddress SAN octets `bytes` (4 or 16) are in this network; an IPv4 address is
    /// never in an IPv6 network and the other way round.
    package func contains(_ bytes: ArraySlice<UInt8>) -> Bool {
        contains(bytes, ignoringHostBits: true)
    }

    private func contains(_ bytes: ArraySlice<UInt8>, ignoringHostBits: Bool) -> Bool {
        guard bytes.count == address.bytes.count else { return false }
        for (index, (candidate, network)) in zip(bytes, address.bytes).enumerated() {
            let bitsBefore = index * 8
            let maskBits = max(0, min(8, prefixLength - bitsBefore))
            let mask: UInt8 = maskBits == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - maskBits))
            if ignoringHostBits {
                if candidate & mask != network & mask { return false }
            } else if network & ~mask != 0 {
                return false
            }
        }
        return true
    }

    /// `address/prefixLength`, or the address alone for a single address.
    package var description: String {
        prefixLength == address.bytes.count * 8 ? address.description : "\(address)/\(prefixLength)"
    }
}
