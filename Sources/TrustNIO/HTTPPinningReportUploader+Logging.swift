import Foundation
import Logging
import TrustCore

extension HTTPPinningReportUploader {
    /// Logs how the upload of a report to `uri` ended: a delivery at `debug` level; a collector's
    /// refusal, a failure, a refused URI or a dropped report at `info` level, with the reason.
    func logUpload(to uri: URL, _ outcome: PinReportUpload.Outcome) {
        guard let logger else { return }
        let notDelivered: Logger.Message = "pin report not delivered"
        switch outcome {
        case let .delivered(statusCode):
            logger.debug("pin report delivered", metadata: Self.uploadMetadata(uri, "delivered", statusCode: statusCode))
        case let .rejectedByCollector(statusCode):
            logger.info(notDelivered, metadata: Self.uploadMetadata(uri, "rejected_by_collector", statusCode: statusCode))
        case let .failed(error):
            logger.info(notDelivered, metadata: Self.uploadMetadata(uri, "failed", reason: error))
        case let .refused(error):
            logger.info(notDelivered, metadata: Self.uploadMetadata(uri, "refused", reason: error))
        case let .dropped(error):
            logger.info(notDelivered, metadata: Self.uploadMetadata(uri, "dropped", reason: error))
        }
    }

    /// The metadata of one upload's record (keys of ``TrustLogMetadataKey``).
    private static func uploadMetadata(
        _ uri: URL, _ upload: String, statusCode: Int? = nil,
        reason: PinReportUploadError? = nil
    ) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            TrustLogMetadataKey.reportURI: .string(TerminalText.escaped(uri.absoluteString)),
            TrustLogMetadataKey.upload: .string(upload),
        ]
        if let statusCode { metadata[TrustLogMetadataKey.statusCode] = .stringConvertible(statusCode) }
        // The reason may quote an untrusted collector's certificate subjects: escaped like any
        // text taken from a certificate.
        if let reason { metadata[TrustLogMetadataKey.reason] = .string(TerminalText.escaped(reason.description)) }
        return metadata
    }
}
