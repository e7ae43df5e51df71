import TrustDocuments
import ArgumentParser
import Foundation
import SwiftTrust

/// `--bundle` and `--trust-domain`: SPIFFE trust bundles, one per trust domain, whose authorities
/// become the anchors of a leaf of that trust domain (`--profile spiffe`).
struct SPIFFEBundleOptions: ParsableArguments {
    @Option(
        name: .customLong("bundle"),
        help:
            "A SPIFFE trust bundle, SPIFFE bundle JSON (a JWK Set) or PEM (repeatable, one per trust domain): the trust domain of the leaf's SPIFFE ID picks the anchors. Needs --profile spiffe."
    )
    var bundleFiles: [String] = []

    @Option(
        name: .customLong("trust-domain"),
        help:
            "The trust domain of each --bundle, in the same order (needed for PEM; a JSON bundle without one takes the trust domain its CA certificates' SPIFFE IDs name)."
    )
    var trustDomainNames: [String] = []

    /// Whether any bundle was given.
    var isEmpty: Bool { bundleFiles.isEmpty }

    /// Refuses what cannot be honoured: `--trust-domain` without a bundle each, a name that is not
    /// a trust domain, bundles under another profile (they pick anchors by a SPIFFE ID that only
    /// the spiffe profile validates), bundles beside `--anchors` or `--system-anchors` (an SVID
    /// would then validate under anchors that are not its trust domain's).
    func validate(profile: TrustProfile, anchors: TrustInputOptions) throws {
        if !trustDomainNames.isEmpty && trustDomainNames.count != bundleFiles.count {
            throw ValidationError(
                "give one --trust-domain per --bundle, in the same order (\(trustDomainNames.count) for \(bundleFiles.count)), or none for JSON bundles"
            )
        }
        for name in trustDomainNames {
            do { _ = try SPIFFETrustDomain(name) } catch { throw ValidationError("--trust-domain \(name): \(error)") }
        }
        guard !isEmpty else { return }
        guard profile == .spiffe else {
            throw ValidationError(
                "--bundle picks the anchors by the leaf's SPIFFE ID, which only --profile spiffe validates; add --profile spiffe (or use --anchors)")
        }
        if !anchors.anchorFiles.isEmpty || anchors.systemAnchors {
            throw ValidationError("--bundle is the trust anchors: it cannot be combined with --anchors or --system-anchors")
        }
    }

    /// The bundles, keyed by trust domain; an unreadable or malformed file, or two bundles for one
    /// trust domain, exit with status 2 after naming the file and the rule.
    func load() throws -> SPIFFETrustBundleSet {
        var set = SPIFFETrustBundleSet()
        for (index, path) in bundleFiles.enumerated() {
            let named = index < trustDomainNames.count ? try? SPIFFETrustDomain(trustDomainNames[index]) : nil
            let bundle: SPIFFETrustBundle
            do {
                bundle = try Self.load(path, trustDomain: named)
            } catch {
                printError("error: --bundle \(error)")
                throw ExitCode(2)
            }
            for entry in bundle.ignoredEntries where entry.reason != .jwtSVID {
                printError("note: --bundle \(path): \(entry)")
            }
            guard set.insert(bundle) else {
                printError("error: --bundle \(path): a second bundle for trust domain \(bundle.trustDomain)")
                throw ExitCode(2)
            }
        }
        return set
    }

    /// `path` as SPIFFE bundle JSON when it starts with an object, else as PEM (which needs `trustDomain`).
    private static func load(_ path: String, trustDomain: SPIFFETrustDomain?) throws(SPIFFEBundleError) -> SPIFFETrustBundle {
        let data = try SPIFFETrustBundle.read(path, limit: SPIFFETrustBundle.maximumJSONSize)
        if JSONText.startsWithObject(Array(data)) { return try SPIFFETrustBundle(json: data, trustDomain: trustDomain, file: path) }
        guard let trustDomain else {
            throw SPIFFEBundleError(
                file: path, rule: .trustDomainUnknown("a PEM bundle does not carry it: give --trust-domain NAME, one per --bundle in order"))
        }
        return try SPIFFETrustBundle(pem: Array(data), trustDomain: trustDomain, file: path)
    }
}

/// Which bundle a leaf's SPIFFE ID picked, for `verify`'s report.
struct SPIFFESelection: Encodable {
    /// The leaf's SPIFFE ID, when it names one.
    let id: String?
    /// The trust domain whose bundle gave the anchors.
    let trustDomain: String?
    /// Why no bundle was picked (the trust is then anchored at nothing).
    let error: String?

    /// Picks `leaf`'s anchors from `bundles` and sets them on `trust` (none when no bundle fits).
    init(leaf: Certificate, bundles: SPIFFETrustBundleSet, trust: ServerTrust) {
        let id = try? SPIFFETrustBundleSet.spiffeID(of: leaf)
        self.id = id?.description
        do {
            trust.setAnchorCertificates(try bundles.anchors(for: leaf))
            (trustDomain, error) = (id?.trustDomain.name, nil)
        } catch {
            trust.setAnchorCertificates([])
            (trustDomain, self.error) = (nil, error.description)
        }
    }

    /// `SPIFFE ID: spiffe://… (trust bundle example.org)`, or the reason no bundle was picked.
    var line: String {
        if let error { return "SPIFFE: \(error)" }
        return "SPIFFE ID: \(id ?? "?") (trust bundle \(trustDomain ?? "?"))"
    }
}
