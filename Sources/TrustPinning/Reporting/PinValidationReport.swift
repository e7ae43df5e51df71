import Foundation
import TrustDER
import TrustX509

/// A pin-failure report in TrustKit's JSON format (`TSKPinFailureReport`, itself modelled on the
/// HPKP report of RFC 7469 §3): what a collector written for TrustKit receives, field for field.
///
/// ```json
/// {"app-bundle-id":"backend","app-platform":"LINUX","app-platform-version":"6.8.0",
///  "app-vendor-id":"…","app-version":"","date-time":"2026-06-01T00:00:00Z",
///  "enforce-pinning":true,"hostname":"www.example.com","include-subdomains":false,
///  "known-pins":["pin-sha256=\"…\""],"known-pins-expiration-date":null,
///  "noted-hostname":"example.com","port":443,"trustkit-version":"SwiftTrust/1",
///  "validated-certificate-chain":["-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----"],
///  "validation-result":1}
/// ```
///
/// ``jsonData()`` encodes with sorted keys, so equal reports give equal bytes.
public struct PinValidationReport: Sendable, Hashable, Codable {
    /// `hostname`: the host connected to (the SNI name / the name validated).
    public let hostname: String
    /// `port`: the port connected to; 0 when unknown, as TrustKit sends then.
    public let port: Int
    /// `noted-hostname`: the configured domain whose pins applied (`example.com` for
    /// `www.example.com` under include-subdomains).
    public let notedHostname: String
    /// `include-subdomains`: whether the noted domain's pins cover its subdomains.
    public let includeSubdomains: Bool
    /// `enforce-pinning`: whether the failure rejected the connection (false: report-only).
    public let enforcePinning: Bool
    /// `validated-certificate-chain`: the chain as PEM blocks (64-character base64 lines, no
    /// trailing newline, as TrustKit writes them), leaf first.
    public let validatedCertificateChain: [String]
    /// `known-pins`: the configured pins in HPKP's `pin-sha256="BASE64"` form (RFC 7469 §2.1.1).
    public let knownPins: [String]
    /// `validation-result`: why validation failed.
    public let validationResult: PinValidationResult
    /// `date-time`: when the failure happened, in whole seconds (the format has no fractions).
    public let dateTime: Date
    /// `known-pins-expiration-date`: the day after which the pins are no longer enforced, or nil
    /// (sent as JSON `null`) when the pin set does not expire.
    public let knownPinsExpirationDate: Date?
    /// The sending application (`app-*` and `trustkit-version` fields).
    public let identity: PinReportingIdentity

    /// A report of a pin failure on a validated chain.
    ///
    /// - Parameters:
    ///   - hostname: The host connected to.
    ///   - port: The port connected to (0 when unknown).
    ///   - notedHostname: The configured domain whose pins applied.
    ///   - includeSubdomains: Whether that domain's pins cover its subdomains.
    ///   - enforcePinning: Whether the failure rejected the connection.
    ///   - validatedChain: The chain as validated, leaf first (encoded as PEM from each certificate's DER).
    ///   - knownPins: The domain's configured pins, in their configured order.
    ///   - result: Why validation failed.
    ///   - date: When it failed; truncated to whole seconds.
    ///   - identity: The sending application (a ``PinningReporter``'s ``PinningReporter/identity``).
    ///   - knownPinsExpirationDate: When the pin set stops being enforced; reported as its UTC day.
    public init(
        hostname: String, port: Int, notedHostname: String, includeSubdomains: Bool, enforcePinning: Bool,
        validatedChain: [Certificate], knownPins: [SPKIPin], result: PinValidationResult, date: Date,
        identity: PinReportingIdentity, knownPinsExpirationDate: Date? = nil
    ) {
        self.hostname = hostname
        self.port = port
        self.notedHostname = notedHostname
        self.includeSubdomains = includeSubdomains
        self.enforcePinning = enforcePinning
        validatedCertificateChain = validatedChain.map(Self.pem)
        self.knownPins = knownPins.map(Self.hpkpPin)
        validationResult = result
        dateTime = Self.wholeSeconds(date)
        self.knownPinsExpirationDate = knownPinsExpirationDate.map(Self.startOfUTCDay)
        self.identity = identity
    }

    /// The report's JSON, keys sorted: the body POSTed to report URIs.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// TrustKit's JSON field names.
    enum CodingKeys: String, CodingKey {
        case hostname
        case port
        case notedHostname = "noted-hostname"
        case includeSubdomains = "include-subdomains"
        case enforcePinning = "enforce-pinning"
        case validatedCertificateChain = "validated-certificate-chain"
        case knownPins = "known-pins"
        case validationResult = "validation-result"
        case dateTime = "date-time"
        case knownPinsExpirationDate = "known-pins-expiration-date"
        case appBundleId = "app-bundle-id"
        case appVersion = "app-version"
        case appPlatform = "app-platform"
        case appPlatformVersion = "app-platform-version"
        case appVendorId = "app-vendor-id"
        case trustkitVersion = "trustkit-version"
    }

    /// Decodes TrustKit's JSON (a report we or TrustKit sent).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        hostname = try container.decode(String.self, forKey: .hostname)
        port = try container.decode(Int.self, forKey: .port)
        notedHostname = try container.decode(String.self, forKey: .notedHostname)
        includeSubdomains = try container.decode(Bool.self, forKey: .includeSubdomains)
        enforcePinning = try container.decode(Bool.self, forKey: .enforcePinning)
        validatedCertificateChain = try container.decode([String].self, forKey: .validatedCertificateChain)
        knownPins = try container.decode([String].self, forKey: .knownPins)
        validationResult = try container.decode(PinValidationResult.self, forKey: .validationResult)
        dateTime = try Self.decodeDate(container, .dateTime, Self.dateTimeFormat)
        knownPinsExpirationDate =
            try container.decodeNil(forKey: .knownPinsExpirationDate)
            ? nil : try Self.decodeDate(container, .knownPinsExpirationDate, Self.dayFormat)
        identity = PinReportingIdentity(
            appBundleId: try container.decode(String.self, forKey: .appBundleId),
            appVersion: try container.decode(String.self, forKey: .appVersion),
            appPlatform: try container.decode(String.self, forKey: .appPlatform),
            appPlatformVersion: try container.decode(String.self, forKey: .appPlatformVersion),
            appVendorId: try container.decode(String.self, forKey: .appVendorId),
            trustkitVersion: try container.decode(String.self, forKey: .trustkitVersion))
    }

    /// Encodes TrustKit's JSON; `known-pins-expiration-date` is `null` when there is none, as
    /// TrustKit sends it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hostname, forKey: .hostname)
        try container.encode(port, forKey: .port)
        try container.encode(notedHostname, forKey: .notedHostname)
        try container.encode(includeSubdomains, forKey: .includeSubdomains)
        try container.encode(enforcePinning, forKey: .enforcePinning)
        try container.encode(validatedCertificateChain, forKey: .validatedCertificateChain)
        try container.encode(knownPins, forKey: .knownPins)
        try container.encode(validationResult, forKey: .validationResult)
        try container.encode(dateTime.formatted(Self.dateTimeFormat), forKey: .dateTime)
        if let knownPinsExpirationDate {
            try container.encode(knownPinsExpirationDate.formatted(Self.dayFormat), forKey: .knownPinsExpirationDate)
        } else {
            try container.encodeNil(forKey: .knownPinsExpirationDate)
        }
        try container.encode(identity.appBundleId, forKey: .appBundleId)
        try container.encode(identity.appVersion, forKey: .appVersion)
        try container.encode(identity.appPlatform, forKey: .appPlatform)
        try container.encode(identity.appPlatformVersion, forKey: .appPlatformVersion)
        try container.encode(identity.appVendorId, forKey: .appVendorId)
        try container.encode(identity.trustkitVersion, forKey: .trustkitVersion)
    }

    /// `yyyy-MM-dd'T'HH:mm:ss'Z'` in UTC: TrustKit's `date-time`.
    static let dateTimeFormat = Date.ISO8601FormatStyle(timeZone: .gmt)
    /// `yyyy-MM-dd` in UTC: TrustKit's `known-pins-expiration-date` (the day, as configured).
    static let dayFormat = Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day()

    private static func decodeDate(
        _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys,
        _ format: Date.ISO8601FormatStyle
    ) throws -> Date {
        let text = try container.decode(String.self, forKey: key)
        guard let date = try? format.parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "not a TrustKit date: \(QuotedValue.capped(text))")
        }
        return date
    }

    /// TrustKit's PEM: `-----BEGIN CERTIFICATE-----\n` + base64 in 64-character lines +
    /// `\n-----END CERTIFICATE-----`, with no trailing newline.
    static func pem(_ certificate: Certificate) -> String {
        String(certificate.pemEncoded.dropLast())
    }

    /// RFC 7469 §2.1.1's `pin-sha256="BASE64"`.
    static func hpkpPin(_ pin: SPKIPin) -> String { "pin-sha256=\"\(Base64.encode(pin.digest))\"" }

    private static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    private static func startOfUTCDay(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
    }
}
