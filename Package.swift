// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SwiftTrust",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SwiftTrust", targets: ["SwiftTrust"]),
        .library(name: "TrustDER", targets: ["TrustDER"]),
        .library(name: "TrustX509", targets: ["TrustX509"]),
        .library(name: "TrustCrypto", targets: ["TrustCrypto"]),
        .library(name: "TrustCore", targets: ["TrustCore"]),
        .library(name: "TrustPinning", targets: ["TrustPinning"]),
        .library(name: "TrustHTTP", targets: ["TrustHTTP"]),
        .library(name: "TrustSession", targets: ["TrustSession"]),
        .library(name: "TrustNIO", targets: ["TrustNIO"]),
        .executable(name: "trustctl", targets: ["trustctl"]),
    ],
    dependencies: [
        // Only the CLI depends on this; the library modules depend on nothing but libcrypto.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Only TrustNIO (and trustctl through it) depends on these: the core modules stay dependency-free.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),   // `swift package generate-documentation` (scripts/docs)
        // Only a test target depends on this: the DER reader's differential test against swift-asn1.
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    ],
    targets: [
        .systemLibrary(
            name: "CTrustOpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .target(name: "TrustDER"),
        .target(name: "TrustCrypto", dependencies: ["CTrustOpenSSL", "TrustDER"]),
        .target(name: "TrustX509", dependencies: ["TrustDER", "TrustCrypto"]),
        .target(name: "TrustCore", dependencies: ["TrustDER", "TrustCrypto", "TrustX509"]),
        .target(name: "TrustPinning", dependencies: ["TrustDER", "TrustCore", "TrustX509", "TrustCrypto"]),
        // The transport-independent decision layer: settings, judge, outcome, challenges, peer record.
        // No NIO: a transport adapter (TrustNIO) turns its verdicts into the transport's.
        // SwiftTrust's one HTTP client (revocation fetching; the messages and URL rules pin reports use
        // too), outside TrustCore, which keeps only the RevocationFetcher protocol. No NIO.
        .target(name: "TrustHTTP", dependencies: ["TrustCore"]),
        .target(name: "TrustSession", dependencies: ["TrustCore", "TrustHTTP", "TrustPinning", "TrustX509"]),
        .target(
            name: "SwiftTrust",
            dependencies: ["TrustDER", "TrustX509", "TrustCrypto", "TrustCore", "TrustHTTP", "TrustPinning", "TrustSession"]
        ),
        .target(
            name: "TrustNIO",
            dependencies: [
                "TrustCore", "TrustHTTP", "TrustPinning", "TrustSession", "TrustX509",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "trustctl",
            dependencies: [
                "SwiftTrust",
                "TrustNIO",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "TrustDERTests", dependencies: ["TrustDER"]),
        .testTarget(name: "TrustDERDifferentialTests",
                    dependencies: ["TrustDER", .product(name: "SwiftASN1", package: "swift-asn1")]),
        .testTarget(name: "TrustCryptoTests", dependencies: ["TrustCrypto", "TrustDER"]),
        .testTarget(name: "TrustX509Tests", dependencies: ["TrustX509", "TrustDER", "TrustCrypto"]),
        .testTarget(name: "TrustCoreTests", dependencies: ["TrustCore", "TrustHTTP", "TrustX509", "TrustCrypto", "TrustDER", "OpenSSLServerSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "TrustPinningTests", dependencies: ["TrustPinning", "TrustCore", "TrustX509", "OpenSSLServerSupport"]),
        .testTarget(name: "TrustHTTPTests", dependencies: ["TrustHTTP", "TrustCore"]),
        .testTarget(name: "TrustSessionTests", dependencies: ["TrustSession", "TrustPinning", "TrustCore", "TrustX509", "OpenSSLServerSupport"]),
        // `openssl s_server` on loopback for the TLS tests (a peer we did not write), and certificate
        // graphs made with the openssl CLI.
        .target(name: "OpenSSLServerSupport", path: "Tests/OpenSSLServerSupport"),
        .testTarget(
            name: "TrustNIOTests",
            dependencies: [
                "TrustNIO", "TrustSession", "TrustPinning", "TrustCore", "TrustX509", "OpenSSLServerSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Runs the built trustctl binary (no trustctl module dependency: it tests the executable's output),
        // against openssl s_server on loopback for `probe`.
        .testTarget(name: "TrustCtlTests", dependencies: ["OpenSSLServerSupport"]),
        .testTarget(name: "TrustCtlUnitTests", dependencies: ["trustctl"]),
    ],
    swiftLanguageModes: [.v6]
)
