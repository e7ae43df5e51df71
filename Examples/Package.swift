// swift-tools-version:6.0
// SwiftTrust with Hummingbird 2, gRPC Swift 2 and Vapor 4: integration modules (the one-call TLS
// routes, the typed reason per connection, the peer's identity in handlers), three example servers /
// clients, and their loopback tests. A package of its own: the library (`..`) gains no dependency.
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
let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")
let hummingbirdTLS = Target.Dependency.product(name: "HummingbirdTLS", package: "hummingbird")
let grpcCore = Target.Dependency.product(name: "GRPCCore", package: "grpc-swift-2")
let grpcTransport = Target.Dependency.product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport")
let vapor = Target.Dependency.product(name: "Vapor", package: "vapor")
let x509 = Target.Dependency.product(name: "X509", package: "swift-certificates")
let asn1 = Target.Dependency.product(name: "SwiftASN1", package: "swift-asn1")

let package = Package(
    name: "SwiftTrustExamples",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SwiftTrustHummingbird", targets: ["SwiftTrustHummingbird"]),
        .library(name: "SwiftTrustGRPC", targets: ["SwiftTrustGRPC"]),
        .library(name: "SwiftTrustVapor", targets: ["SwiftTrustVapor"]),
    ],
    dependencies: [
        .package(name: "SwiftTrust", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/grpc/grpc-swift-2.git", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport.git", from: "2.9.2"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // Already in the graph through Vapor: its request's validated chain is swift-certificates' type.
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    ],
    targets: [
        // Integration modules: what needs a framework's types.
        .target(name: "SwiftTrustHummingbird", dependencies: trust + [hummingbird, hummingbirdTLS]),
        .target(name: "SwiftTrustGRPC", dependencies: trust + [grpcCore, grpcTransport, .product(name: "NIOPosix", package: "swift-nio")]),
        .target(name: "SwiftTrustVapor", dependencies: trust + [vapor, x509, asn1]),
        // The examples: (a) Hummingbird mutual TLS, (b) gRPC client pinning its server, (c) Vapor mutual TLS.
        .target(name: "SwiftTrustExamples",
                dependencies: trust + ["SwiftTrustHummingbird", "SwiftTrustGRPC", "SwiftTrustVapor", hummingbird, grpcCore, grpcTransport, vapor]),
        // Each example on loopback, with a server the test starts and stops.
        .testTarget(
            name: "SwiftTrustExamplesTests",
            dependencies: trust + [
                "SwiftTrustExamples", "SwiftTrustHummingbird", "SwiftTrustGRPC", "SwiftTrustVapor", hummingbird, grpcCore, grpcTransport,
                vapor, .product(name: "SwiftTrust", package: "SwiftTrust"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
