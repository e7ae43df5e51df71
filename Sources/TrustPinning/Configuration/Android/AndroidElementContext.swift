import TrustDocuments
import Foundation

/// An element of a network security config being read, with its key path
/// (`network-security-config/domain-config[1]/pin-set/pin[0]`) and the checks every element gets:
/// only the attributes and child elements the format defines, text only where it carries a value.
struct AndroidElementContext {
    /// Elements that may repeat among their siblings: their key path names their 0-based position.
    private static let repeatableElements: Set<String> = ["domain-config", "domain", "pin", "certificates", "report-uri"]

    /// The file, for errors.
    let file: String
    /// The element.
    let element: XMLTreeElement
    /// Its key path.
    let keyPath: String

    /// The root element's context.
    init(file: String, root: XMLTreeElement) {
        self.init(file: file, element: root, keyPath: root.name)
    }

    private init(file: String, element: XMLTreeElement, keyPath: String) {
        self.file = file
        self.element = element
        self.keyPath = keyPath
    }

    /// An error located at the element.
    func error(_ rule: PinningConfigurationRule) -> PinningConfigurationLoadError {
        PinningConfigurationLoadError(file: file, line: element.line, keyPath: keyPath, rule: rule)
    }

    /// An error located at one of the element's attributes (`…/pin[0]@digest`).
    func error(at attribute: XMLTreeAttribute, _ rule: PinningConfigurationRule) -> PinningConfigurationLoadError {
        PinningConfigurationLoadError(file: file, line: attribute.line, keyPath: keyPath + "@" + attribute.name, rule: rule)
    }

    /// Refuses attributes other than `allowed`. Namespace declarations (`xmlns:…`) and Android
    /// build-tool hints (`tools:…`, stripped when the app is built) carry no configuration and pass.
    func checkAttributes(_ allowed: Set<String>) throws(PinningConfigurationLoadError) {
        for attribute in element.attributes where !allowed.contains(attribute.name) {
            if attribute.name == "xmlns" || attribute.name.hasPrefix("xmlns:") || attribute.name.hasPrefix("tools:") { continue }
            throw error(at: attribute, .unexpectedKey("attribute \(attribute.name) on <\(element.name)>"))
        }
    }

    /// The value of a `true`/`false` attribute, or nil when it is absent. Android also accepts
    /// resource references here; a configuration read outside an APK has no resources, so only
    /// the literals are read.
    func booleanAttribute(_ name: String) throws(PinningConfigurationLoadError) -> Bool? {
        guard let attribute = element.attribute(name) else { return nil }
        switch attribute.value {
        case "true": return true
        case "false": return false
        default: throw error(at: attribute, .invalidValue(attribute.value, reason: "\(name) must be true or false"))
        }
    }

    /// The child elements, each with its context, after checking that each is one of `allowed`,
    /// that those in `once` appear at most once, and that no text stands between them.
    func children(allowed: Set<String>, once: Set<String> = []) throws(PinningConfigurationLoadError) -> [AndroidElementContext] {
        var contexts: [AndroidElementContext] = []
        var counts: [String: Int] = [:]
        for node in element.children {
            switch node {
            case let .text(text, line):
                guard let firstVisible = text.firstIndex(where: { !$0.isWhitespace }) else { continue }
                // The text node starts after the previous tag; name the line its first visible character is on.
                let visibleLine = line + text[..<firstVisible].filter { $0 == "\n" }.count
                let reason = allowed.isEmpty ? "<\(element.name)> must be empty" : "<\(element.name)> holds elements, not text"
                throw PinningConfigurationLoadError(
                    file: file, line: visibleLine, keyPath: keyPath,
                    rule: .invalidValue(text.trimmingCharacters(in: .whitespacesAndNewlines), reason: reason))
            case let .element(child):
                let position = counts[child.name, default: 0]
                counts[child.name] = position + 1
                let childPath = keyPath + "/" + child.name + (Self.repeatableElements.contains(child.name) ? "[\(position)]" : "")
                let context = AndroidElementContext(file: file, element: child, keyPath: childPath)
                guard allowed.contains(child.name) else {
                    throw context.error(.unexpectedKey("element <\(child.name)> in <\(element.name)>"))
                }
                if once.contains(child.name), position > 0 {
                    throw context.error(.invalidValue("<\(child.name)>", reason: "<\(element.name)> may hold at most one"))
                }
                contexts.append(context)
            }
        }
        return contexts
    }

    /// The text of an element that holds a value (`<domain>`, `<pin>`, `<report-uri>`), trimmed
    /// of surrounding whitespace as Android does; child elements are refused.
    func textValue() throws(PinningConfigurationLoadError) -> String {
        if let child = element.childElements.first {
            throw error(.unexpectedKey("element <\(child.name)> in <\(element.name)> (it holds text only)"))
        }
        return element.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
