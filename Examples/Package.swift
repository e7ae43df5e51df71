// swift-tools-version:6.1
// SwiftTrust with Hummingbird 2, gRPC Swift 2 and Vapor 4: three example servers / clients built on
// the library's integration products (enabled by their package traits, as a user's package enables
// them), and their loopback tests. A package of its own: the library (`..`) gains no dependency.
import PackageDescription

/// What every integration module needs of SwiftTrust and swift-nio(-ssl).
let trust: [Target.Dependency] = [
    .product(name: "TrustNIO", package: "SwiftTrust"),
    .product(name: "TrustSession", package: "SwiftTrust"),
    .product(name: "TrustX509", package: "SwiftTrust"),
    .product(name: "NIOCore", package: "swift-nio"),
    .product(name: "NIOSSL", package: "swift-nio-ssl"),
    .product(name: "Logging", package: "swift-log"),
]
let hummingbirdIntegration = Target.Dependency.product(name: "SwiftTrustHummingbird", package: "SwiftTrust")
let grpcIntegration = Target.Dependency.product(name: "SwiftTrustGRPC", package: "SwiftTrust")
let vaporIntegration = Target.Dependency.product(name: "SwiftTrustVapor", package: "SwiftTrust")
let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")
let grpcCore = Target.Dependency.product(name: "GRPCCore", package: "grpc-swift-2")
let grpcTransport = Target.Dependency.product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport")
let vapor = Target.Dependency.product(name: "Vapor", package: "vapor")

let package = Package(
    name: "SwiftTrustExamples",
    platforms: [.macOS(.v15)],
    dependencies: [
        // As a user's package depends on SwiftTrust: the integrations it uses, by trait.
        // Every trait, as scripts/test builds the main package: in its shared .build nothing is compiled twice.
        .package(name: "SwiftTrust", path: "..", traits: ["Hummingbird", "GRPC", "Vapor", "AsyncHTTPClient"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/grpc/grpc-swift-2.git", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport.git", from: "2.9.2"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // The examples: (a) Hummingbird mutual TLS, (b) gRPC client pinning its server, (c) Vapor mutual TLS.
        .target(
            name: "SwiftTrustExamples",
            dependencies: trust + [hummingbirdIntegration, grpcIntegration, vaporIntegration, hummingbird, grpcCore, grpcTransport, vapor]),
        // Each example on loopback, with a server the test starts and stops.
        .testTarget(
            name: "SwiftTrustExamplesTests",
            dependencies: trust + [
                "SwiftTrustExamples", hummingbirdIntegration, grpcIntegration, vaporIntegration, hummingbird, grpcCore, grpcTransport,
                vapor, .product(name: "SwiftTrust", package: "SwiftTrust"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
