import Foundation
import TrustX509

/// A `<trust-anchors>` element as declared: its `<certificates>` entries, certificates already
/// loaded, each remembering where it was written for errors that concern it later (inheritance
/// decides which domains an entry applies to).
struct AndroidTrustAnchorsDeclaration {
    /// One `<certificates src="…" overridePins="…"/>`.
    struct Entry {
        /// Where the anchors come from.
        let source: AndroidCertificatesSource
        /// Whether chains ending at these anchors skip the pin check.
        let overridesPins: Bool
        /// The certificates of a `@raw` source (none for `system` and `user`; see ``AndroidCertificatesSource/user``).
        let certificates: [Certificate]
        /// The element, for errors.
        let context: AndroidElementContext
    }

    /// The entries, in document order.
    let entries: [Entry]
    /// The element, for errors.
    let context: AndroidElementContext

    /// Reads `<trust-anchors>`. `overridePins` defaults to false, and to true inside
    /// `<debug-overrides>` (Android's XmlConfigSource). With `loadsResources` false (debug
    /// overrides, which never apply here) `@raw` references are checked but not read.
    init(
        _ context: AndroidElementContext, defaultOverridePins: Bool, loadsResources: Bool,
        baseDirectory: URL?
    ) throws(PinningConfigurationLoadError) {
        try context.checkAttributes([])
        var entries: [Entry] = []
        for child in try context.children(allowed: ["certificates"]) {
            try child.checkAttributes(["src", "overridePins"])
            _ = try child.children(allowed: [])
            guard let srcAttribute = child.element.attribute("src") else {
                throw child.error(.missingKey("attribute src on <certificates>"))
            }
            guard let source = AndroidCertificatesSource(srcAttribute.value) else {
                throw child.error(at: srcAttribute, .invalidValue(srcAttribute.value, reason: "expected system, user or @raw/name (name: a-z 0-9 _)"))
            }
            let overridesPins = try child.booleanAttribute("overridePins") ?? defaultOverridePins
            var certificates: [Certificate] = []
            if case let .raw(name) = source, loadsResources {
                do { certificates = try AndroidCertificatesSource.loadRawResource(name, baseDirectory: baseDirectory) } catch {
                    throw child.error(at: srcAttribute, .unreadableReference(source.text, reason: error.description))
                }
            }
            entries.append(Entry(source: source, overridesPins: overridesPins, certificates: certificates, context: child))
        }
        self.entries = entries
        self.context = context
    }

    /// Whether these anchors mean the same as the platform default (the system store, with or
    /// without the user store, which is empty here): what `base-config` may declare.
    var isSystemDefault: Bool {
        entries.contains { $0.source == .system } && entries.allSatisfy { $0.source == .system || $0.source == .user }
    }

    /// The first entry that lets every chain anchored in the system store skip the pins:
    /// `overridePins="true"` on `system`, which the model cannot express.
    var systemOverridingPins: Entry? {
        entries.first { $0.source == .system && $0.overridesPins }
    }

    /// The anchors in the model: the system store if any entry names it; `@raw` certificates,
    /// pin-checked or pin-overriding; nothing for `user`.
    var trustAnchors: PinningTrustAnchors {
        PinningTrustAnchors(
            includesSystemStore: entries.contains { $0.source == .system },
            certificates: entries.filter { !$0.overridesPins }.flatMap(\.certificates),
            pinOverridingCertificates: entries.filter(\.overridesPins).flatMap(\.certificates)
        )
    }
}
