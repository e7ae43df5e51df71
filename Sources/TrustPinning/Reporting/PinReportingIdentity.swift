import Foundation

/// Who sends pin-failure reports: the application-identity fields of TrustKit's report
/// (`app-bundle-id`, `app-version`, `app-platform`, `app-platform-version`, `app-vendor-id`,
/// `trustkit-version`).
///
/// The defaults describe the running process without reading anything that identifies the
/// machine or its user (no host name, machine id, MAC address or user name):
///
/// ```swift
/// var identity = PinReportingIdentity()          // processName, "", "LINUX", "6.8.0", random UUID
/// identity.appBundleId = "com.example.backend"
/// identity.appVersion = "2.4.1"
/// ```
public struct PinReportingIdentity: Sendable, Hashable {
    /// `trustkit-version`'s default: names the sender as SwiftTrust and the revision of this report
    /// format (1), not a TrustKit release. A collector that branches on TrustKit versions sees
    /// that the report did not come from TrustKit.
    public static let defaultReporterVersion = "SwiftTrust/1"

    /// `app-bundle-id`: the application's identifier. Default: the process name
    /// (`ProcessInfo.processName`), as Linux has no bundle identifier.
    public var appBundleId: String
    /// `app-version`: the application's version. Default: empty, which is what TrustKit sends when
    /// the bundle has no `CFBundleShortVersionString`.
    public var appVersion: String
    /// `app-platform`: the operating system, upper case as TrustKit writes `IOS` or `MACOS`.
    /// Default: the platform compiled for (`LINUX`, `MACOS`, `WINDOWS`, …).
    public var appPlatform: String
    /// `app-platform-version`: the operating system's version as `major.minor.patch`, from
    /// `ProcessInfo.operatingSystemVersion` (the kernel release on Linux), as TrustKit sends it.
    public var appPlatformVersion: String
    /// `app-vendor-id`: TrustKit sends Apple's `identifierForVendor`, which Linux has no
    /// equivalent of. Default: a random UUID made when this identity is created, so a collector
    /// can group one process's reports without learning which machine sent them.
    public var appVendorId: String
    /// `trustkit-version`: the sending library. Default ``defaultReporterVersion``.
    public var trustkitVersion: String

    /// An identity with every field given.
    public init(
        appBundleId: String, appVersion: String, appPlatform: String, appPlatformVersion: String,
        appVendorId: String, trustkitVersion: String = PinReportingIdentity.defaultReporterVersion
    ) {
        self.appBundleId = appBundleId
        self.appVersion = appVersion
        self.appPlatform = appPlatform
        self.appPlatformVersion = appPlatformVersion
        self.appVendorId = appVendorId
        self.trustkitVersion = trustkitVersion
    }

    /// The running process's identity (see each property for its default).
    public init() {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        self.init(
            appBundleId: ProcessInfo.processInfo.processName,
            appVersion: "",
            appPlatform: Self.compiledPlatform,
            appPlatformVersion: "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)",
            appVendorId: UUID().uuidString)
    }

    /// The platform name, in TrustKit's upper-case style.
    static var compiledPlatform: String {
        #if os(Linux)
        return "LINUX"
        #elseif os(macOS)
        return "MACOS"
        #elseif os(iOS)
        return "IOS"
        #elseif os(tvOS)
        return "TVOS"
        #elseif os(watchOS)
        return "WATCHOS"
        #elseif os(Windows)
        return "WINDOWS"
        #elseif os(Android)
        return "ANDROID"
        #else
        return "UNKNOWN"
        #endif
    }
}
