import TrustDocuments
import Foundation

/// The pinning values the property-list and JSON formats share, read at a reader's position so
/// their errors carry its key path.
extension PropertyListReader {
    /// An SPKI pin written as the bare base64 of its SHA-256 digest, without `sha256/`: ATS's
    /// `SPKI-SHA256-BASE64` entries. Strict: ATS decodes them with Security's `SecBase64Decode`
    /// (`CreateCFDataFromBase64CFString`, SecPolicy.c), whose treatment of padding bits is not
    /// known here, so a text that is not canonical is refused rather than read one way or the
    /// other. TrustKit's entries are read by ``trustKitPin(domain:notes:)``.
    ///
    /// - Throws: ``PinningConfigurationRule/invalidPin(_:)`` unless the text is canonical base64
    ///   of exactly 32 bytes (``SPKIPin/init(_:)``).
    func bareBase64Pin() throws(PinningConfigurationLoadError) -> SPKIPin {
        let text = try string()
        do {
            return try SPKIPin(SPKIPin.prefix + text)
        } catch let .malformedPin(_, reason) {
            // Name the value as the file has it, not with the prefix we added.
            throw error(.invalidPin(.malformedPin(text, reason: reason)))
        } catch {
            throw self.error(.invalidPin(error))
        }
    }

    /// A `TSKPublicKeyHashes` entry, read as TrustKit reads it (``SPKIPin/init(trustKitBase64:)``:
    /// the bytes Foundation decodes are the pin), adding a note to `notes` when the text is not
    /// the canonical base64 of those bytes.
    ///
    /// - Throws: ``PinningConfigurationRule/invalidPin(_:)`` when TrustKit would refuse it too.
    func trustKitPin(domain: String, notes: inout [PinningConfigurationNote]) throws(PinningConfigurationLoadError) -> SPKIPin {
        let text = try string()
        let pin: SPKIPin
        do { pin = try SPKIPin(trustKitBase64: text) } catch { throw self.error(.invalidPin(error)) }
        if pin.canonicalBase64 != text {
            notes.append(
                PinningConfigurationNote(
                    file: file, keyPath: keyPath,
                    kind: .nonCanonicalPin(
                        domain: domain, written: text, canonical: pin.canonicalBase64)))
        }
        return pin
    }

    /// A report URI: an absolute `http` or `https` URL with a host.
    ///
    /// - Throws: ``PinningConfigurationRule/invalidReportURI(_:)``.
    func reportURI() throws(PinningConfigurationLoadError) -> URL {
        let text = try string()
        guard let url = ReportURI.parse(text) else { throw error(.invalidReportURI(text)) }
        return url
    }

    /// A `yyyy-MM-dd` day, as the instant it starts (midnight UTC).
    ///
    /// - Throws: ``PinningConfigurationRule/invalidDate(_:)`` for anything that is not an existing
    ///   calendar day in that form.
    func expirationDay() throws(PinningConfigurationLoadError) -> Date {
        let text = try string()
        guard let date = PinExpirationDay.parse(text) else { throw error(.invalidDate(text)) }
        return date
    }

    /// Runs a model initialiser, reporting the ``PinningConfigurationError`` it throws at this
    /// position as ``PinningConfigurationRule/invalidPin(_:)``.
    func validating<Value>(_ body: () throws(PinningConfigurationError) -> Value) throws(PinningConfigurationLoadError) -> Value {
        do {
            return try body()
        } catch {
            throw self.error(.invalidPin(error))
        }
    }
}
