/// Counts what a reader produces against ``DocumentLimits``.
package struct DocumentBudget {
    /// The caps.
    package let limits: DocumentLimits
    /// Keys and values counted so far.
    package private(set) var nodeCount = 0
    /// Bytes of strings and data counted so far.
    package private(set) var contentByteCount = 0

    /// A budget with nothing spent.
    package init(limits: DocumentLimits) {
        self.limits = limits
    }

    /// Counts one key or value at `depth` (the top value is at depth 1).
    package mutating func countNode(atDepth depth: Int) throws(DocumentLimitExceeded) {
        guard depth <= limits.maximumDepth else { throw .tooDeep(limit: limits.maximumDepth) }
        guard nodeCount < limits.maximumNodeCount else { throw .tooManyNodes(limit: limits.maximumNodeCount) }
        nodeCount += 1
    }

    /// Counts a value read before and used again, as if it were read again: its `nodeCount` keys
    /// and values, its `contentByteCount` bytes of strings and data, its deepest value at `deepestDepth`.
    package mutating func countRepeated(nodeCount: Int, contentByteCount: Int, deepestDepth: Int) throws(DocumentLimitExceeded) {
        guard deepestDepth <= limits.maximumDepth else { throw .tooDeep(limit: limits.maximumDepth) }
        guard nodeCount <= limits.maximumNodeCount - self.nodeCount else { throw .tooManyNodes(limit: limits.maximumNodeCount) }
        try countContent(byteCount: contentByteCount)
        self.nodeCount += nodeCount
    }

    /// Counts `byteCount` bytes of a string or data value.
    package mutating func countContent(byteCount: Int) throws(DocumentLimitExceeded) {
        // Subtraction, not addition: both sides stay within the limit, so nothing can overflow.
        guard byteCount <= limits.maximumByteCount - contentByteCount else {
            throw .tooMuchContent(limit: limits.maximumByteCount)
        }
        contentByteCount += byteCount
    }
}
