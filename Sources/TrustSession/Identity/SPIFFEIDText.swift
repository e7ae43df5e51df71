/// A SPIFFE ID split into trust domain and path (SPIFFE ID specification §2), for identity rules.
/// (Replaced by TrustCore's SPIFFEID once it lands.)
struct SPIFFEIDText: Hashable, Sendable {
    let trustDomain: String
    let path: String

    init?(_ text: String) {
        guard text.utf8.count <= 2048, text.hasPrefix("spiffe://") else { return nil }
        let rest = text.dropFirst("spiffe://".count)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        self.init(trustDomain: String(rest[..<slash]), path: String(rest[slash...]))
    }

    init?(trustDomain: String, path: String) {
        guard !trustDomain.isEmpty, trustDomain.utf8.count <= 255,
              trustDomain.utf8.allSatisfy({ Self.isTrustDomainByte($0) }) else { return nil }
        if !path.isEmpty {
            guard path.hasPrefix("/") else { return nil }
            for segment in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
                guard !segment.isEmpty, segment != ".", segment != "..",
                      segment.utf8.allSatisfy({ Self.isPathByte($0) }) else { return nil }
            }
        }
        self.trustDomain = trustDomain
        self.path = path
    }

    private static func isTrustDomainByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        isTrustDomainByte(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
