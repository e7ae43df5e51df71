// swift-tools-version:6.1
// The SwiftTrust benchmark harness: a separate package so the main package stays light.
// It depends on the main package by path (`..`), on swift-certificates for its columns, and on
// libcrypto directly (the COpenSSLBench C target) for the OpenSSL columns. Run it with `scripts/bench`.
import PackageDescription

// A path dependency's identity is its folder's name (`main` here, but a clone may be named otherwise).
let mainPackage = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "main"

let package = Package(
    name: "SwiftTrustBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The AsyncHTTPClient integration (ahc-bench) is behind its trait.
        .package(path: "..", traits: ["AsyncHTTPClient"]),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-certificates", exact: "1.21.1"),
        // Pinned so the swift-certificates columns stay comparable from run to run.
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        .package(url: "https://github.com/apple/swift-asn1", exact: "1.7.4"),
        // The TLS handshake benchmark (handshake-bench): the versions the main package resolves.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        // The OpenSSL columns: d2i_X509, X509_STORE/X509_verify_cert, EVP_DigestVerify; plus mallinfo2().
        .target(
            name: "COpenSSLBench",
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("crypto")]
        ),
        // The swift-certificates columns, behind byte-array functions (its `Certificate` and
        // `CertificateStore` would clash with ours in one file).
        .target(
            name: "SwiftCertificatesBench",
            dependencies: [
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "swifttrust-bench",
            dependencies: [
                "COpenSSLBench",
                "SwiftCertificatesBench",
                .product(name: "SwiftTrust", package: mainPackage),
            ],
            path: "Sources/SwiftTrustBench"
        ),
        // Loopback TLS handshakes per second: swift-nio-ssl's own verification (BoringSSL) against
        // TrustNIO's, same chain, same anchor. Run it with `scripts/bench-handshakes`.
        .executableTarget(
            name: "handshake-bench",
            dependencies: [
                .product(name: "TrustNIO", package: mainPackage),
                .product(name: "SwiftTrust", package: mainPackage),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Sources/HandshakeBench"
        ),
        // New HTTPS connections per second through AsyncHTTPClient: its own verification against
        // SwiftTrustAsyncHTTPClient's, same server. Run it with `scripts/bench-ahc`.
        .executableTarget(
            name: "ahc-bench",
            dependencies: [
                .product(name: "SwiftTrustAsyncHTTPClient", package: mainPackage),
                .product(name: "SwiftTrust", package: mainPackage),
                .product(name: "TrustNIO", package: mainPackage),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Sources/AHCBench"
        ),
    ],
    swiftLanguageModes: [.v6]
)
