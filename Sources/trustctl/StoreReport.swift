import Foundation
import SwiftTrust

/// What `trustctl store` reports about the system trust store, as text or JSON: built from the record
/// of the discovery every evaluation runs (``SystemTrustStoreDiscovery``), never from a second reading.
///
/// The JSON shape (docs/trust-store.md) is stable: keys are only added. Optional keys are left out when
/// they have no value.
struct StoreReport: Encodable {
    /// The anchor-free window: an anchor whose notAfter is this close is reported as expiring.
    static let expiringWithinDays = 90

    /// A place a certificate was read: its file and the line of its PEM block's BEGIN marker (none for DER).
    struct Copy: Encodable, Hashable {
        let path: String
        let line: Int?

        /// `path:line`, or the path alone for a DER file.
        var text: String { path + (line.map { ":\($0)" } ?? "") }
    }

    /// Whether an anchor is valid at ``StoreReport/at``.
    enum Validity: String, Encodable {
        case valid, expiring, expired
        case notYetValid = "not-yet-valid"
    }

    /// How evaluations trust an anchor (``SystemTrustStore``'s `source(of:)`).
    enum Trust: String, Encodable {
        case system, administrator
        /// Not a member of the store: never the case for an anchor of it.
        case caller
    }

    /// What came of consulting a location.
    enum Status: String, Encodable {
        case used, empty, unreadable
        case notConsulted = "not-consulted"
    }

    /// Why several copies or certificates are listed together.
    enum DuplicateKind: String, Encodable {
        /// The same DER from different files or blocks.
        case identical
        /// One file and block read under several names (OpenSSL hash links).
        case linked
        /// Distinct certificates with one subject and one key.
        case sameSubjectAndKey = "same-subject-and-key"
    }

    /// The variables the discovery read.
    struct Environment: Encodable {
        let SSL_CERT_FILE: String?
        let SSL_CERT_DIR: String?
    }

    /// One location consulted, in order.
    struct Location: Encodable {
        /// `SSL_CERT_FILE`, `SSL_CERT_DIR`, `bundle`, `directory` (anchor sources), `administrator`,
        /// `distribution` (read to classify the anchors).
        let kind: String
        let path: String
        let status: Status
        /// Why it is unreadable.
        let problem: String?
        /// Certificates read there, duplicates included.
        let certificates: Int
        /// How many distinct anchors were read there.
        let anchors: Int
        /// Blocks and files there that are not readable certificates.
        let skipped: Int
    }

    /// One anchor (distinct certificate) of the store, in the store's order.
    struct Anchor: Encodable {
        let index: Int
        let subject: String
        let issuer: String
        let serialNumber: String
        let notBefore: String
        let notAfter: String
        /// Whole days from ``StoreReport/at`` to notAfter, rounded towards the past (negative when expired).
        let daysLeft: Int
        /// `expiring`: within ``StoreReport/expiringWithinDays``.
        let validity: Validity
        let trust: Trust
        let sha256Fingerprint: String
        let spkiPin: String
        /// Where it was read as an anchor (several places: a duplicate).
        let copies: [Copy]
        /// Where it was found in an administrators' directory.
        let installedAt: [Copy]
    }

    /// Anchors read more than once, or distinct anchors with one subject and key.
    struct Duplicate: Encodable {
        let kind: DuplicateKind
        let subject: String
        /// The ``Anchor/index`` of each anchor involved.
        let anchors: [Int]
        /// Every copy of them.
        let copies: [Copy]
    }

    /// A block or file that is not a readable certificate.
    struct Skipped: Encodable {
        /// The ``Location/kind`` of the location it is in.
        let location: String
        let path: String
        /// The line of its PEM block's BEGIN marker, when the block decoded.
        let line: Int?
        let reason: String
    }

    /// A certificate in an administrators' directory that is not an anchor (not yet added to the
    /// bundle: `update-ca-certificates` or `update-ca-trust` was not run).
    struct NotAnchor: Encodable {
        let subject: String
        let sha256Fingerprint: String
        let copy: Copy
    }

    /// The totals.
    struct Counts: Encodable {
        let anchors: Int
        let system: Int
        let administrator: Int
        let expired: Int
        let expiring: Int
        let notYetValid: Int
        let duplicates: Int
        let skipped: Int
        let installedNotAnchors: Int
    }

    /// The instant validity is judged at (ISO 8601).
    let at: String
    /// The prefix the well-known locations were read under (`--root`).
    let root: String?
    let environment: Environment
    /// The store's own summary of where its anchors came from (none when nothing was found).
    let source: String?
    /// Why the configured `SSL_CERT_FILE` / `SSL_CERT_DIR` cannot be used (evaluations fail the same way).
    let error: String?
    let expiringWithinDays: Int
    let counts: Counts
    let locations: [Location]
    let anchors: [Anchor]
    let duplicates: [Duplicate]
    let skipped: [Skipped]
    let installedNotAnchors: [NotAnchor]

    /// The report of `discovery`, judged at `now`.
    init(_ discovery: SystemTrustStoreDiscovery, environment: [String: String], root: String?, now: DERTime) {
        let loaded = try? discovery.result.get()
        let members = loaded?.store.certificates ?? []
        let anchorSources: Set<SystemTrustStoreDiscovery.Location.Kind> = [.sslCertFile, .sslCertDir, .bundleFile, .certificateDirectory]
        let sourceLocations = loaded == nil ? [] : discovery.locations.filter { anchorSources.contains($0.kind) && $0.status == .used }
        let installing = discovery.locations.filter { $0.kind == .administratorDirectory }
        let copies = Dictionary(grouping: sourceLocations.flatMap(\.entries), by: \.certificate)
        let installed = Dictionary(grouping: installing.flatMap(\.entries), by: \.certificate)
        let indexOf = Dictionary(members.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let instant = now.secondsSince1970

        at = now.description
        self.root = root
        self.environment = Environment(SSL_CERT_FILE: environment["SSL_CERT_FILE"], SSL_CERT_DIR: environment["SSL_CERT_DIR"])
        source = loaded?.source
        if case let .failure(failure) = discovery.result { error = failure.description } else { error = nil }
        expiringWithinDays = Self.expiringWithinDays
        locations = discovery.locations.map { location in
            Location(location, anchors: Set(location.entries.map(\.certificate).filter { indexOf[$0] != nil }).count)
        }
        anchors = members.enumerated().map { index, certificate in
            Anchor(
                certificate, index: index, instant: instant, trust: loaded?.source(of: certificate) ?? .caller,
                copies: (copies[certificate] ?? []).map(Copy.init), installedAt: (installed[certificate] ?? []).map(Copy.init))
        }
        duplicates = Self.duplicates(of: anchors, members: members)
        skipped = discovery.locations.flatMap { location in
            location.skipped.map { Skipped(location: location.kind.rawValue, path: $0.path, line: $0.line, reason: $0.reason.description) }
        }
        var seen: Set<Certificate> = []
        installedNotAnchors = installing.flatMap(\.entries).compactMap { entry in
            guard indexOf[entry.certificate] == nil, seen.insert(entry.certificate).inserted else { return nil }
            return NotAnchor(
                subject: entry.certificate.subject.description,
                sha256Fingerprint: Certificate.hex(entry.certificate.sha256Fingerprint, separator: ":"), copy: Copy(entry))
        }
        let anchors = anchors
        counts = Counts(
            anchors: anchors.count, system: anchors.count { $0.trust == .system },
            administrator: anchors.count { $0.trust == .administrator },
            expired: anchors.count { $0.validity == .expired }, expiring: anchors.count { $0.validity == .expiring },
            notYetValid: anchors.count { $0.validity == .notYetValid }, duplicates: duplicates.count,
            skipped: skipped.count, installedNotAnchors: installedNotAnchors.count)
    }

    /// Anchors read more than once (`identical`, or `linked` when every copy is one file and block
    /// reached under several names), then groups of distinct anchors sharing subject and key.
    private static func duplicates(of anchors: [Anchor], members: [Certificate]) -> [Duplicate] {
        var found: [Duplicate] = []
        for anchor in anchors where anchor.copies.count > 1 {
            let targets = Set(anchor.copies.map { Copy(path: URL(fileURLWithPath: $0.path).resolvingSymlinksInPath().path, line: $0.line) })
            found.append(
                Duplicate(
                    kind: targets.count == 1 ? .linked : .identical, subject: anchor.subject, anchors: [anchor.index],
                    copies: anchor.copies))
        }
        struct NameAndKey: Hashable {
            let subject: [UInt8]
            let key: [UInt8]
        }
        var groups: [NameAndKey: [Int]] = [:]
        var order: [NameAndKey] = []
        for (index, certificate) in members.enumerated() {
            let key = NameAndKey(subject: certificate.subject.normalizedKey, key: certificate.spkiSHA256)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(index)
        }
        for key in order {
            guard let indices = groups[key], indices.count > 1 else { continue }
            found.append(
                Duplicate(
                    kind: .sameSubjectAndKey, subject: anchors[indices[0]].subject, anchors: indices,
                    copies: indices.flatMap { anchors[$0].copies }))
        }
        return found
    }
}

extension StoreReport.Copy {
    /// Where `entry` was read.
    init(_ entry: SystemTrustStoreDiscovery.Entry) {
        self.init(path: entry.path, line: entry.line)
    }
}

extension StoreReport.Location {
    /// The report of `location`, of whose certificates `anchors` distinct ones are anchors.
    init(_ location: SystemTrustStoreDiscovery.Location, anchors: Int) {
        kind = location.kind.rawValue
        path = location.path
        switch location.status {
        case .used: status = .used
        case .empty: status = .empty
        case .unreadable: status = .unreadable
        case .notConsulted: status = .notConsulted
        }
        if case let .unreadable(problem) = location.status { self.problem = problem.description } else { problem = nil }
        certificates = location.entries.count
        self.anchors = anchors
        skipped = location.skipped.count
    }
}

extension StoreReport.Anchor {
    /// The report of the anchor `certificate`, judged at `instant` (seconds since 1970).
    init(
        _ certificate: Certificate, index: Int, instant: Int64, trust: AnchorSource, copies: [StoreReport.Copy],
        installedAt: [StoreReport.Copy]
    ) {
        self.index = index
        subject = certificate.subject.description
        issuer = certificate.issuer.description
        serialNumber = certificate.serialNumberHex
        notBefore = certificate.notBefore.description
        notAfter = certificate.notAfter.description
        let seconds = certificate.notAfter.secondsSince1970 - instant
        daysLeft = Int(seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400))
        if instant > certificate.notAfter.secondsSince1970 {
            validity = .expired
        } else if instant < certificate.notBefore.secondsSince1970 {
            validity = .notYetValid
        } else if seconds <= Int64(StoreReport.expiringWithinDays) * 86_400 {
            validity = .expiring
        } else {
            validity = .valid
        }
        switch trust {
        case .system: self.trust = .system
        case .administrator: self.trust = .administrator
        case .caller: self.trust = .caller
        }
        sha256Fingerprint = Certificate.hex(certificate.sha256Fingerprint, separator: ":")
        spkiPin = certificate.spkiPin
        self.copies = copies
        self.installedAt = installedAt
    }
}
