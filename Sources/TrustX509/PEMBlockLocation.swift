import TrustDER

/// The PEM block an item was decoded from. Byte offsets in an error about that item count from the
/// start of the block's decoded bytes, not from the start of the file (base64 has no byte-for-byte
/// position in the text), so an error names the block they belong to.
public struct PEMBlockLocation: Hashable, Sendable, CustomStringConvertible {
    /// The block's position among the blocks read, counted from 0 like every certificate index.
    public let index: Int
    /// The block's label, e.g. `CERTIFICATE` or `X509 CRL`.
    public let label: String
    /// The 1-based line of the block's BEGIN marker.
    public let line: Int
    /// Where the block's base64 lines are, to name the line of a decoded byte.
    public let bodyLayout: PEMBodyLayout

    /// Names block number `index`, labelled `label`, whose BEGIN marker is on `line`.
    public init(index: Int, label: String, line: Int, bodyLayout: PEMBodyLayout = PEMBodyLayout()) {
        self.index = index
        self.label = label
        self.line = line
        self.bodyLayout = bodyLayout
    }

    /// The location of `block`, the `index`th block read.
    public init(_ block: PEMBlock, index: Int) {
        self.init(index: index, label: block.label, line: block.line, bodyLayout: block.bodyLayout)
    }

    /// The 1-based line of the file holding decoded byte `offset`, when known.
    public func line(ofDecodedByte offset: Int) -> Int? { bodyLayout.line(ofDecodedByte: offset) }

    /// `PEM block 1 (BEGIN CERTIFICATE at line 29)`.
    public var description: String { "PEM block \(index) (BEGIN \(QuotedValue.capped(label)) at line \(line))" }
}
