// TrustCore's API speaks in TrustNames' types (host names, mailboxes, public suffixes, SPIFFE IDs)
// and in TrustDocuments' (a JSON document's encoding problem, in SPIFFE bundle errors): importing
// TrustCore brings them.
@_exported import TrustNames
@_exported import TrustDocuments
