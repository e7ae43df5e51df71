/// An attribute read by ``XMLDocumentParser``: its value with references replaced and whitespace
/// normalised (XML 1.0 §3.3.3), and the line it is on.
package struct XMLTreeAttribute: Hashable, Sendable {
    /// The name as written (a prefix is kept: `tools:ignore`).
    package let name: String
    /// The normalised value.
    package let value: String
    /// The 1-based line of the attribute's name.
    package let line: Int
}

/// A child of an element: an element, or character data (text and CDATA sections, references
/// replaced, line ends normalised to LF). Comments are not kept.
package enum XMLTreeNode: Hashable, Sendable {
    /// A child element.
    case element(XMLTreeElement)
    /// Character data, with the line it starts on.
    case text(String, line: Int)
}

/// An element read by ``XMLDocumentParser``.
package struct XMLTreeElement: Hashable, Sendable {
    /// The name as written (a prefix is kept).
    package let name: String
    /// The 1-based line of the start tag.
    package let line: Int
    /// The attributes, in document order, names unique.
    package var attributes: [XMLTreeAttribute]
    /// The children, in document order.
    package var children: [XMLTreeNode]

    /// The child elements, in document order.
    package var childElements: [XMLTreeElement] {
        children.compactMap { node in
            if case let .element(element) = node { return element }
            return nil
        }
    }

    /// The character data directly inside the element, concatenated.
    package var text: String {
        children.reduce(into: "") { result, node in
            if case let .text(text, _) = node { result += text }
        }
    }

    /// The attribute called `name`, if present.
    package func attribute(_ name: String) -> XMLTreeAttribute? {
        attributes.first { $0.name == name }
    }
}
