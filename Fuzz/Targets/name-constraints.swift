import TrustCore

// Fuzz target `name-constraints`: RFC 5280 §4.2.1.10 name-constraint matching of DNS names, email
// addresses, URIs and IP addresses (NameConstraintMatching). The input is "name NUL constraint";
// see StringPair. (Constraints inside certificates are fuzzed by the `server-trust` target, whose
// seeds include the name-constrained scenario chains.)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNameConstraints(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let pair = StringPair(Array(UnsafeBufferPointer(start: data, count: size)))
    let name = pair.first, constraint = pair.second

    Sink.keep(NameConstraintMatching.dnsName(name, isWithin: constraint))
    Sink.keep(NameConstraintMatching.email(name, isWithin: constraint))
    Sink.keep(NameConstraintMatching.isValidEmailConstraint(constraint))
    Sink.keep(NameConstraintMatching.uri(name, isWithin: constraint))
    Sink.keep(NameConstraintMatching.ipAddress(pair.firstBytes, isWithin: pair.secondBytes))
    Sink.keep(NameConstraintMatching.isValidIPConstraint(pair.secondBytes))
    if pair.firstBytes.count == 4 || pair.firstBytes.count == 16 {
        // An address is within the constraint made of itself and an all-ones mask (a /32 or /128).
        let own = pair.firstBytes + Array(repeating: 0xFF, count: pair.firstBytes.count)
        guard NameConstraintMatching.ipAddress(pair.firstBytes, isWithin: own) else {
            fatalError("an IP address is outside its own host constraint")
        }
    }
    return 0
}
