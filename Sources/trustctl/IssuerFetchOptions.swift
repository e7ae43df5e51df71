import ArgumentParser
import SwiftTrust

/// The network options `verify` and `chain` share: fetching intermediates the chain lacks, and
/// whether fetches may go to local addresses.
struct IssuerFetchOptions: ParsableArguments {
    @Flag(
        help:
            "Download an intermediate the chain lacks from its certificate's caIssuers URL (http only, as Apple's trustd does; at most 3 per evaluation)."
    )
    var fetchIssuers = false

    @OptionGroup var localAddresses: LocalAddressOption

    /// The fetcher for this run: the shared one, or one that may reach local addresses.
    var fetcher: HTTPRevocationFetcher { localAddresses.fetcher }
}
