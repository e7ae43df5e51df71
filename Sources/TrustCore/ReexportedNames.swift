// TrustCore's API speaks in TrustNames' types (host names, mailboxes, public suffixes, SPIFFE IDs):
// importing TrustCore brings them.
@_exported import TrustNames
