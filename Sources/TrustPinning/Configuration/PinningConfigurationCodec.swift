import Foundation
import TrustDocuments
import TrustX509

/// One pin-configuration file format: its names, how a document in it is recognised, how it is
/// read into a ``PinningConfiguration`` and written back. A format is a folder under
/// `Sources/TrustPinning/Configuration/<Format>/` holding its codec, its loader and its writer,
/// plus one line in ``PinningConfigurationCodecs/all`` (CONTRIBUTING.md walks through it).
package protocol PinningConfigurationCodec: Sendable {
    /// The name `--format` and `--to` accept, and ``PinningConfigurationFormat/rawValue``.
    var name: String { get }
    /// The name used in messages.
    var displayName: String { get }
    /// The file extensions its files usually have, for help texts.
    var fileExtensions: [String] { get }
    /// How the format is recognised, for the message when no format recognises a document.
    var recognitionHint: String { get }
    /// What a user of `pins convert` and `pin --emit-config` should know of the format: what it
    /// cannot express, and how pins are written.
    var notes: String { get }
    /// Which entries apply to a host in this format's files (the loader's selection).
    var policySelection: PinningConfiguration.PolicySelection { get }

    /// Whether `document` is in this format. Asked in registry order; the first codec to answer
    /// yes reads it, so a codec answers only for documents it can tell apart.
    func recognises(_ document: PinningConfigurationSniff) -> Bool
    /// Reads a document of this format; relative references resolve against `baseDirectory`.
    func load(data: Data, file: String, baseDirectory: URL?) throws(PinningConfigurationLoadError) -> PinningConfiguration
    /// Writes `configuration`, refusing what the format cannot express rather than weakening it.
    func encode(_ configuration: PinningConfiguration) throws(PinningConfigurationExportError) -> Data
    /// The scope of the pins `trustctl pin --emit-config` writes for `certificates`.
    func pinScope(forEmitting certificates: [Certificate]) throws(PinningConfigurationExportError) -> PinScope
    /// Why a configuration whose ``PinningConfiguration/policySelection`` differs from
    /// ``policySelection`` cannot be written, for `domain` whose pins differ under the two
    /// selections because of `parent`'s entry.
    func policySelectionRefusal(domain: String, parent: String) -> String
}

extension PinningConfigurationCodec {
    /// Most formats apply the most specific domain alone.
    package var policySelection: PinningConfiguration.PolicySelection { .mostSpecificDomain }

    /// Most formats pin over the whole chain.
    package func pinScope(forEmitting certificates: [Certificate]) throws(PinningConfigurationExportError) -> PinScope {
        .anyCertificate
    }

    /// The configuration merges (it was read from ATS) and this format would not.
    package func policySelectionRefusal(domain: String, parent: String) -> String {
        "its pins are merged with those of \(parent)'s \(ATSKey.includesSubdomains) entry (ATS, Apple parseNSPinnedDomains), and \(displayName) applies the most specific domain alone; list \(parent)'s pins under \(domain) too"
    }
}

/// What recognition knows of a document when it asks the codecs, from its first structure.
package enum PinningConfigurationSniff {
    /// A JSON object, in any Unicode encoding (its loader refuses all but UTF-8, with the reason);
    /// `text` is its start as text.
    case jsonObject(text: String)
    /// An XML document, asked before it is read as a property list; `text` is its start as text.
    case xml(text: String)
    /// A binary property list, or an XML one no XML codec recognised, read with the loaders'
    /// bounded readers (Foundation's binary reader expands shared objects without a bound).
    case propertyList(PropertyListValue)
}
