// The one import users write: `import SwiftTrust` brings every layer.
@_exported import TrustDER
@_exported import TrustX509
@_exported import TrustCrypto
@_exported import TrustNames
@_exported import TrustDocuments
@_exported import TrustTransparency
@_exported import TrustCore
@_exported import TrustDiagnostics
@_exported import TrustHTTP
@_exported import TrustPinning
@_exported import TrustSession
