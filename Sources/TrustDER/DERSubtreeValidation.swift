extension DERIndexedElement {
    /// Reads every element nested in this one (constructed contents, recursively), applying every
    /// DER rule the reader applies (lengths, tags, depth, minimal OBJECT IDENTIFIER arcs): for fields
    /// kept as raw bytes and decoded only later, such as AlgorithmIdentifier parameters, so that a
    /// structural error is a parse error at its byte, not a surprise when the field is decoded.
    public func validateSubtree(in bytes: ArraySlice<UInt8>) throws(DERError) {
        guard tag.isConstructed else { return }
        var reader = try children()
        while let child = try reader.next(in: bytes) {
            try child.validateSubtree(in: bytes)
        }
    }
}
