// TrustCore's API speaks in TrustNames' types (host names, mailboxes, public suffixes, SPIFFE IDs),
// in TrustDocuments' (a JSON document's encoding problem, in SPIFFE bundle errors) and in
// TrustTransparency's (log lists and the Certificate Transparency result of an evaluation):
// importing TrustCore brings them.
@_exported import TrustNames
@_exported import TrustDocuments
@_exported import TrustTransparency
