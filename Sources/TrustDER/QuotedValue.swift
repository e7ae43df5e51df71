/// Caps what an error message quotes from the input, so a hostile value (a 100,000-arc OID, a
/// megabyte-long PEM label) cannot turn one error into a line of hundreds of kilobytes.
package enum QuotedValue {
    /// The most characters an error quotes from one value.
    package static let maximumCharacters = 256
    /// The most arcs an error quotes from one OBJECT IDENTIFIER.
    package static let maximumArcs = 64

    /// `text`, or its first ``maximumCharacters`` characters followed by `…` and the full length.
    package static func capped(_ text: some StringProtocol) -> String {
        guard text.count > maximumCharacters else { return String(text) }
        return "\(text.prefix(maximumCharacters))… (\(text.count) characters)"
    }

    /// The dotted form of `oid`, or its first ``maximumArcs`` arcs followed by `…` and the arc count.
    package static func capped(_ oid: ASN1ObjectIdentifier) -> String {
        let arcs = oid.arcs
        guard arcs.count > maximumArcs else { return capped(oid.dotted) }
        return capped(arcs.prefix(maximumArcs).map(String.init).joined(separator: ".")) + "… (\(arcs.count) arcs)"
    }
}
