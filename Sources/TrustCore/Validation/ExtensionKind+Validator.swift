import TrustDER
import TrustX509

extension ExtensionKind {
    /// Whether the path validator processes this extension (so a critical instance is accepted).
    /// TLS feature and SCT lists are parsed but not processed: critical ones are rejected.
    var isProcessedByValidator: Bool { ExtensionKind.unprocessedKinds & bit == 0 }

    /// The kinds the path validator does not process (a critical instance is rejected), as bits.
    static var unprocessedKinds: UInt32 { ExtensionKind.tlsFeature.bit | ExtensionKind.sctList.bit }
}
