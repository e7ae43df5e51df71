import Logging
import TrustCore
import TrustX509

extension TLSTrustVerifier {
    /// Logs one verification's verdict to ``logger``: a trusted peer at `debug` level, a rejected
    /// one at `info` level with the reason (``TrustLogMetadataKey`` lists the metadata) and the
    /// `TLSTrustFailure` itself as the record's error (its description escapes what the peer chose).
    ///
    /// One record per verification, its level chosen by the verdict, rather than a `debug` record
    /// for every verdict plus an `info` one for rejections: a logger at `debug` level then shows each
    /// handshake once. Without a logger nothing is built; with one, the metadata is built only when
    /// the record's level is enabled (swift-log takes it as an autoclosure).
    package func logVerdict(_ outcome: TLSTrustOutcome, presented: [Certificate], role: TLSPeerRole, port: Int?) {
        guard let logger else { return }
        switch outcome {
        case let .trusted(peer):
            logger.debug("TLS peer trusted", metadata: Self.logMetadata(trusted: peer, port: port))
        case let .rejected(failure):
            // The typed failure travels as the record's error too, for handlers that keep errors; its
            // description (and localizedDescription), which quote peer-chosen names, are escaped.
            logger.info(
                "TLS peer rejected", error: failure,
                metadata: Self.logMetadata(rejected: failure, presented: presented, role: role, port: port))
        }
    }

    /// The metadata of a trusted peer's record: who, and the chain that vouched for it.
    private static func logMetadata(trusted peer: TrustedPeer, port: Int?) -> Logger.Metadata {
        var metadata = logMetadata(verdict: "trusted", presented: peer.presentedCertificates, role: peer.role, port: port)
        if let chain = peer.validatedChain {
            metadata[TrustLogMetadataKey.chain] = .array(chain.map(subjectValue))
        }
        return metadata
    }

    /// The metadata of a rejected peer's record: who, and why.
    private static func logMetadata(
        rejected failure: TLSTrustFailure, presented: [Certificate], role: TLSPeerRole,
        port: Int?
    ) -> Logger.Metadata {
        var metadata = logMetadata(verdict: "rejected", presented: presented, role: role, port: port)
        // The description names certificates by their subjects, which the peer chose: TLSTrustFailure
        // escapes them itself.
        metadata[TrustLogMetadataKey.reason] = .string(failure.description)
        return metadata
    }

    /// The metadata every verdict carries.
    private static func logMetadata(
        verdict: String, presented: [Certificate], role: TLSPeerRole,
        port: Int?
    ) -> Logger.Metadata {
        var metadata: Logger.Metadata = [TrustLogMetadataKey.verdict: .string(verdict)]
        switch role {
        case let .server(host):
            metadata[TrustLogMetadataKey.peer] = "server"
            metadata[TrustLogMetadataKey.host] = .string(TerminalText.escaped(host))
        case .client:
            metadata[TrustLogMetadataKey.peer] = "client"
        }
        if let port { metadata[TrustLogMetadataKey.port] = .stringConvertible(port) }
        if let leaf = presented.first {
            metadata[TrustLogMetadataKey.leaf] = subjectValue(leaf)
            metadata[TrustLogMetadataKey.presented] = .array(presented.map(subjectValue))
        }
        return metadata
    }

    /// A certificate's subject (RFC 4514), with the control and bidi characters its issuer may have
    /// put there escaped, so that it cannot forge log lines.
    private static func subjectValue(_ certificate: Certificate) -> Logger.MetadataValue {
        .string(TerminalText.escaped(certificate.subject.description))
    }
}
