import TrustCore

// Fuzz target `names`: reference identities and the matching of host names, IP addresses and
// email addresses (HostnameMatcher, IDNA, Punycode, IPAddress, EmailAddress, ServerIdentity).
// The input is "reference NUL presented-name"; see StringPair.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNames(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let pair = StringPair(Array(UnsafeBufferPointer(start: data, count: size)))
    let reference = pair.first, presented = pair.second

    Sink.keep(IDNA.isValidASCIIHostname(reference))
    if let ascii = IDNA.toASCII(reference) {
        // UTS #46 ToASCII is idempotent on its own output (a valid A-label name maps to itself).
        guard IDNA.toASCII(ascii) == ascii else { fatalError("IDNA.toASCII is not idempotent on \(ascii)") }
        Sink.keep(HostnameMatcher.matchesDNSName(ascii, pattern: presented))
    }
    Sink.keep(HostnameMatcher.matchesDNSName(reference, pattern: presented))

    let presentedIP = IPAddress(presented)
    if let address = IPAddress(reference) {
        // What an address prints as (RFC 5952 for IPv6) parses back to the same address.
        guard IPAddress(address.description) == address else { fatalError("IPAddress does not re-parse \(address)") }
        Sink.keep(address.isIPv4)
    }
    if let address = IPAddress(bytes: pair.firstBytes) { Sink.keep(address.description) }

    if let identity = ServerIdentity(reference) {
        Sink.describe(identity)
        Sink.keep(HostnameMatcher.matches(identity, dnsNames: [presented], ipAddresses: presentedIP.map { [$0] } ?? []))
        Sink.keep(HostnameMatcher.matchesCommonName(identity, commonNames: [presented]))
    }
    if let identity = ServerIdentity(emailAddress: reference) { Sink.describe(identity) }
    if let email = EmailAddress(reference) {
        Sink.describe(email)
        Sink.keep(email.matches(rfc822Name: presented))
    }
    return 0
}
