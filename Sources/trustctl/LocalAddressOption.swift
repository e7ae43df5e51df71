import ArgumentParser
import SwiftTrust

/// `--fetch-local-addresses`, which every command that fetches (`verify`, `chain`, `probe`, `serve`) takes.
struct LocalAddressOption: ParsableArguments {
    @Flag(
        help:
            "Let fetches (caIssuers, CRLs, OCSP) reach loopback, link-local and private addresses (refused by default; a client chain validated to --anchors alone has its CRL and OCSP URLs fetched from them anyway)."
    )
    var fetchLocalAddresses = false

    /// The fetcher for this run: the shared one, or one that may reach local addresses (either with
    /// `FetchCache.shared`, which `blockingEvaluate` and `probe` give the evaluation beside it).
    var fetcher: HTTPRevocationFetcher {
        fetchLocalAddresses ? HTTPRevocationFetcher.shared.allowing(localAddresses: true) : .shared
    }
}
