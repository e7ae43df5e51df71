import TrustCore

/// Why ``HTTPRevocationFetcher`` did not fetch a URL: TrustCore's ``FetchFailureReason``, which a
/// fetching evaluation records on the certificate's status (e.g.
/// ``FetchFailureReason/localDestinationRefused(host:address:scope:)`` when every address the URL's
/// host resolves to is local and ``HTTPRevocationFetcher/allowsLocalAddresses`` is false).
public typealias RevocationFetchError = FetchFailureReason
