// swift-tools-version:6.1
import PackageDescription

/// What every framework integration needs of SwiftTrust and swift-nio(-ssl).
let integration: [Target.Dependency] = [
    "TrustNIO", "TrustSession", "TrustX509", "TrustCore", "TrustPinning",
    .product(name: "NIOCore", package: "swift-nio"),
    .product(name: "NIOSSL", package: "swift-nio-ssl"),
    .product(name: "Logging", package: "swift-log"),
]

let package = Package(
    name: "SwiftTrust",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SwiftTrust", targets: ["SwiftTrust"]),
        .library(name: "TrustDER", targets: ["TrustDER"]),
        .library(name: "TrustX509", targets: ["TrustX509"]),
        .library(name: "TrustCrypto", targets: ["TrustCrypto"]),
        .library(name: "TrustTransparency", targets: ["TrustTransparency"]),
        .library(name: "TrustNames", targets: ["TrustNames"]),
        .library(name: "TrustCore", targets: ["TrustCore"]),
        .library(name: "TrustDiagnostics", targets: ["TrustDiagnostics"]),
        .library(name: "TrustPinning", targets: ["TrustPinning"]),
        .library(name: "TrustHTTP", targets: ["TrustHTTP"]),
        .library(name: "TrustSession", targets: ["TrustSession"]),
        .library(name: "TrustNIO", targets: ["TrustNIO"]),
        .executable(name: "trustctl", targets: ["trustctl"]),
        // Framework integrations: each compiles to nothing, and pulls in no framework, unless its
        // package trait is enabled (`.package(url: …, from: …, traits: ["Vapor"])`).
        .library(name: "SwiftTrustHummingbird", targets: ["SwiftTrustHummingbird"]),
        .library(name: "SwiftTrustGRPC", targets: ["SwiftTrustGRPC"]),
        .library(name: "SwiftTrustVapor", targets: ["SwiftTrustVapor"]),
        .library(name: "SwiftTrustAsyncHTTPClient", targets: ["SwiftTrustAsyncHTTPClient"]),
        .library(name: "SwiftTrustURLSession", targets: ["SwiftTrustURLSession"]),
    ],
    // One trait per framework integration, none on by default: a consumer that enables none
    // resolves none of the frameworks (every reference to them below is guarded by its trait).
    traits: [
        .trait(name: "Hummingbird", description: "SwiftTrustHummingbird: Hummingbird 2 servers with mutual TLS verified by SwiftTrust."),
        .trait(name: "GRPC", description: "SwiftTrustGRPC: gRPC Swift 2 clients and mutual-TLS servers verified by SwiftTrust."),
        .trait(name: "Vapor", description: "SwiftTrustVapor: Vapor 4 servers with mutual TLS verified by SwiftTrust."),
        .trait(name: "AsyncHTTPClient", description: "SwiftTrustAsyncHTTPClient: AsyncHTTPClient connections verified by SwiftTrust."),
        .trait(
            name: "URLSession", description: "SwiftTrustURLSession: URLSession requests sent through SwiftTrustAsyncHTTPClient.",
            enabledTraits: ["AsyncHTTPClient"]),
        .default(enabledTraits: []),
    ],
    dependencies: [
        // Only the CLI depends on this; the library modules depend on nothing but libcrypto.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Only TrustNIO (and trustctl through it) depends on these (swift-metrics too, below): the core
        // modules stay dependency-free.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"), // `swift package generate-documentation` (scripts/docs)
        // Only a test target depends on this: the DER reader's differential test against swift-asn1.
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        // The framework integrations' dependencies: every reference is guarded by its trait.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/grpc/grpc-swift-2.git", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport.git", from: "2.9.2"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // Only the integration tests' HTTP/2 server (already in AsyncHTTPClient's graph).
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
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
        // Names as RFC 5280, RFC 6125, UTS #46 and SPIFFE-ID read them: IDNA, NFC, Punycode, public
        // suffixes, IP addresses, mailboxes, name-constraint matching (and their generated tables).
        .target(name: "TrustNames", dependencies: ["TrustDER", "TrustCrypto", "TrustX509"]),
        // The bounded document readers every loader shares: JSON text checks, a strict XML reader,
        // binary property lists, duplicate keys; limits on bytes, values and depth.
        .target(name: "TrustDocuments", dependencies: ["TrustDER"]),
        // Certificate Transparency as trustd decides it: log lists, SCTs from the three sources,
        // their signatures, and the compliance rule (a pure function TrustCore can call).
        .target(name: "TrustTransparency", dependencies: ["TrustDER", "TrustCrypto", "TrustX509", "TrustDocuments"]),
        .target(name: "TrustCore", dependencies: ["TrustDER", "TrustCrypto", "TrustX509", "TrustNames", "TrustDocuments", "TrustTransparency"]),
        // Explanations of an evaluation for people (findings per certificate, text and JSON), apart
        // from the engine that decides.
        .target(name: "TrustDiagnostics", dependencies: ["TrustCore", "TrustTransparency", "TrustNames", "TrustX509", "TrustCrypto", "TrustDER"]),
        // SwiftTrust's one HTTP client (revocation fetching; the messages and URL rules pin reports use
        // too), outside TrustCore, which keeps only the RevocationFetcher protocol. No NIO.
        .target(name: "TrustHTTP", dependencies: ["TrustCore", "TrustCrypto"]),
        // The transport-independent decision layer: settings, judge, outcome, challenges, peer record.
        // No NIO: a transport adapter (TrustNIO) turns its verdicts into the transport's. No pinning:
        // other modules supply judges through its TLSTrustJudging and ServerTrustChallengeAuthority.
        .target(name: "TrustSession", dependencies: ["TrustCore", "TrustCrypto", "TrustHTTP", "TrustX509"]),
        // Alamofire-style evaluators, AFNetworking's SecurityPolicy, pin configurations; and their
        // conformances to TrustSession's judge protocols (`TLSTrustJudge.evaluator(_:)`, ...).
        .target(name: "TrustPinning", dependencies: ["TrustDER", "TrustDocuments", "TrustCore", "TrustX509", "TrustCrypto", "TrustSession"]),
        .target(
            name: "SwiftTrust",
            dependencies: [
                "TrustDER", "TrustX509", "TrustCrypto", "TrustNames", "TrustDocuments", "TrustTransparency", "TrustCore", "TrustDiagnostics",
                "TrustHTTP", "TrustPinning",
                "TrustSession",
            ]
        ),
        .target(
            name: "TrustNIO",
            dependencies: [
                "TrustCore", "TrustCrypto", "TrustHTTP", "TrustPinning", "TrustSession", "TrustX509",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
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
        // Framework integrations (sources wrapped in `#if <Trait>`).
        .target(
            name: "SwiftTrustHummingbird",
            dependencies: integration + [
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HummingbirdTLS", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
            ]),
        .target(
            name: "SwiftTrustGRPC",
            dependencies: integration + [
                .product(name: "GRPCCore", package: "grpc-swift-2", condition: .when(traits: ["GRPC"])),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport", condition: .when(traits: ["GRPC"])),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        .target(
            name: "SwiftTrustVapor",
            dependencies: integration + [
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
                // Already in Vapor's graph: its request's validated chain is swift-certificates' type.
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["Vapor"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["Vapor"])),
            ]),
        .target(
            name: "SwiftTrustAsyncHTTPClient",
            dependencies: integration + [
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        .target(
            name: "SwiftTrustURLSession",
            dependencies: integration + [
                "SwiftTrustAsyncHTTPClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["URLSession"])),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        .testTarget(name: "TrustDERTests", dependencies: ["TrustTestSupport", "TrustDER"]),
        .testTarget(
            name: "TrustDERDifferentialTests",
            dependencies: ["TrustDER", .product(name: "SwiftASN1", package: "swift-asn1")]),
        .testTarget(name: "TrustCryptoTests", dependencies: ["TrustTestSupport", "TrustCrypto", "TrustDER"]),
        .testTarget(name: "TrustX509Tests", dependencies: ["TrustTestSupport", "TrustX509", "TrustDER", "TrustCrypto", "OpenSSLServerSupport"]),
        .testTarget(
            name: "TrustTransparencyTests",
            dependencies: ["TrustTestSupport", "TrustTransparency", "TrustDocuments", "TrustX509", "TrustDER", "TrustCrypto"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "TrustCoreTests",
            dependencies: [
                "TrustTestSupport", "TrustCore", "TrustTransparency", "TrustHTTP", "TrustX509", "TrustCrypto", "TrustDER", "OpenSSLServerSupport",
            ],
            exclude: ["Vocabulary/ProfileRuleBitOrder.txt"]),
        .testTarget(
            name: "TrustDiagnosticsTests",
            dependencies: [
                "TrustTestSupport", "OpenSSLServerSupport", "TrustDiagnostics", "TrustCore", "TrustTransparency", "TrustX509", "TrustCrypto",
            ],
            exclude: ["Golden"]),
        .testTarget(name: "TrustDocumentsTests", dependencies: ["TrustDocuments"]),
        .testTarget(name: "TrustNamesTests", dependencies: ["TrustNames", "TrustX509"]),
        .testTarget(name: "TrustPinningTests", dependencies: ["TrustTestSupport", "TrustPinning", "TrustCore", "TrustX509", "OpenSSLServerSupport"]),
        .testTarget(name: "TrustHTTPTests", dependencies: ["TrustTestSupport", "TrustHTTP", "TrustCore", "TrustCrypto"]),
        .testTarget(
            name: "TrustSessionTests",
            dependencies: ["TrustTestSupport", "TrustSession", "TrustPinning", "TrustCore", "TrustX509", "OpenSSLServerSupport"]),
        // `openssl s_server` on loopback for the TLS tests (a peer we did not write), and certificate
        // graphs made with the openssl CLI.
        .target(name: "OpenSSLServerSupport", dependencies: ["TrustX509", "TrustTestSupport"], path: "Tests/OpenSSLServerSupport"),
        // What every test target shares: the committed TestCertificates/ corpus and its facts.
        .target(name: "TrustTestSupport", dependencies: ["TrustX509", "TrustCrypto"], path: "Tests/TrustTestSupport"),
        .testTarget(
            name: "TrustNIOTests",
            dependencies: [
                "TrustNIO", "TrustSession", "TrustPinning", "TrustCore", "TrustX509", "OpenSSLServerSupport", "TrustTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        // Runs the built trustctl binary (no trustctl module dependency: it tests the executable's output),
        // against openssl s_server on loopback for `probe`.
        .testTarget(name: "TrustCtlTests", dependencies: ["TrustTestSupport", "OpenSSLServerSupport"]),
        .testTarget(name: "TrustCtlUnitTests", dependencies: ["TrustTestSupport", "trustctl"]),
        // Each integration on loopback with servers the tests start (compiled per enabled trait;
        // scripts/test enables all of them).
        .testTarget(
            name: "SwiftTrustIntegrationTests",
            dependencies: integration + [
                "SwiftTrust", "SwiftTrustHummingbird", "SwiftTrustGRPC", "SwiftTrustVapor", "SwiftTrustAsyncHTTPClient",
                "SwiftTrustURLSession",
                "OpenSSLServerSupport", "TrustTestSupport",
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "GRPCCore", package: "grpc-swift-2", condition: .when(traits: ["GRPC"])),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport", condition: .when(traits: ["GRPC"])),
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "NIOHTTP2", package: "swift-nio-http2", condition: .when(traits: ["AsyncHTTPClient"])),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
