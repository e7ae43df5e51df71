// The decision layer TrustNIO adapts: `import TrustNIO` brings its settings, judges and outcomes too.
@_exported import TrustSession
