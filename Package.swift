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
        .executable(name: "trustctl", targets: ["trustctl"]),
    ],
    dependencies: [
        // Only the CLI depends on this; the library modules depend on nothing but libcrypto.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
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
        .target(
            name: "SwiftTrust",
            dependencies: ["TrustDER", "TrustX509", "TrustCrypto", "TrustCore", "TrustPinning"]
        ),
        .executableTarget(
            name: "trustctl",
            dependencies: [
                "SwiftTrust",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "TrustDERTests", dependencies: ["TrustDER"]),
        .testTarget(name: "TrustCryptoTests", dependencies: ["TrustCrypto", "TrustDER"]),
        .testTarget(name: "TrustX509Tests", dependencies: ["TrustX509", "TrustDER", "TrustCrypto"]),
        .testTarget(name: "TrustCoreTests", dependencies: ["TrustCore", "TrustX509", "TrustCrypto", "TrustDER"], exclude: ["Golden"]),
        .testTarget(name: "TrustPinningTests", dependencies: ["TrustPinning", "TrustCore", "TrustX509"]),
        // Runs the built trustctl binary (no module dependency: it tests the executable's output).
        .testTarget(name: "TrustCtlTests"),
        .testTarget(name: "trustctlTests", dependencies: ["trustctl"]),
    ],
    swiftLanguageModes: [.v6]
)
