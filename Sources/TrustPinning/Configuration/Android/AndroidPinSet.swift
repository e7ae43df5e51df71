import Foundation

/// A `<pin-set expiration="yyyy-MM-dd">` of `<pin digest="SHA-256">BASE64</pin>` elements.
struct AndroidPinSet {
    /// The pins, in document order, without duplicates (Android keeps a set).
    let pins: [SPKIPin]
    /// Midnight UTC at the start of the `expiration` day, or nil for none.
    let expirationDate: Date?
    /// The element, for errors.
    let context: AndroidElementContext

    /// Reads `<pin-set>`.
    init(_ context: AndroidElementContext) throws(PinningConfigurationLoadError) {
        try context.checkAttributes(["expiration"])
        if let attribute = context.element.attribute("expiration") {
            // Android parses the day in the device's time zone; every SwiftTrust format reads it in UTC.
            guard let date = PinExpirationDay.parse(attribute.value) else {
                throw context.error(at: attribute, .invalidDate(attribute.value))
            }
            expirationDate = date
        } else {
            expirationDate = nil
        }
        var pins: [SPKIPin] = []
        for child in try context.children(allowed: ["pin"]) {
            try child.checkAttributes(["digest"])
            guard let digest = child.element.attribute("digest") else {
                throw child.error(.missingKey("attribute digest on <pin>"))
            }
            // Android compares the algorithm name ignoring case and supports only SHA-256 (Pin.isSupportedDigestAlgorithm).
            guard digest.value.uppercased() == "SHA-256" else {
                throw child.error(at: digest, .invalidValue(digest.value, reason: "Android supports only SHA-256 pins"))
            }
            let text = try child.textValue()
            guard !text.isEmpty else { throw child.error(.missingKey("the pin's base64 digest")) }
            // Kept strict (canonical base64, 32 bytes), not matched to Android: Android checks the
            // length as we do (XmlConfigSource.parsePin), but its decoder, android.util.Base64 with
            // DEFAULT, is lenient beyond what a pin needs: it drops padding bits, skips every
            // character outside the alphabet and takes missing padding. A pin written that way is
            // refused with its reason rather than read as a guess at what was meant.
            do { pins.append(try SPKIPin(SPKIPin.prefix + text)) } catch { throw child.error(.invalidPin(error)) }
        }
        self.pins = pins.uniqued()
        self.context = context
    }
}
