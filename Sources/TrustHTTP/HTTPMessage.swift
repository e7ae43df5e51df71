import Foundation
import TrustCore
/// The HTTP/1.x messages SwiftTrust sends and the parts of answers it reads, for every transport:
/// one request format, one status-line reader, one response reader with its caps.
package enum HTTPMessage {
    /// A request with `Connection: close` (one request per connection, never kept alive), the
    /// URL's authority as Host, and a Content-Length whenever there is a body or the method is POST.
    package static func request(
        _ method: String, to target: HTTPTarget, version: String, contentType: String?,
        body: [UInt8]
    ) -> [UInt8] {
        var head = "\(method) \(target.requestTarget) \(version)\r\nHost: \(target.hostHeader)\r\nUser-Agent: SwiftTrust\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// Bytes allowed for a status line; a peer that sends more without a line end is not an HTTP server.
    package static let maximumStatusLineBytes = 4096

    /// The end of the first line (the index of its CR), once `bytes` hold a whole line.
    package static func lineEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        return (0..<(bytes.count - 1)).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 }
    }

    /// The status code of an `HTTP/1.0` or `HTTP/1.1` status line (RFC 7230 §3.1.2), or nil.
    package static func statusCode(of line: ArraySlice<UInt8>) -> Int? {
        let text = String(decoding: line, as: UTF8.self)
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0",
            parts[1].count == 3, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let code = Int(parts[1]),
            (100...599).contains(code)
        else { return nil }
        return code
    }

    /// Bytes allowed for the status line and headers on top of a body cap.
    package static let headerAllowance = 16 * 1024

    /// The body of a whole `200` response (`raw` read until the server closed), at most `maximumBytes`.
    /// Anything else — another status (redirects are not followed), a transfer coding other than
    /// identity, a body shorter than its Content-Length — is an error naming it.
    package static func body(ofResponse raw: [UInt8], maximumBytes: Int) throws(FetchFailureReason) -> [UInt8] {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let split = raw.indices.first(where: { raw[$0...].starts(with: separator) }) else {
            throw .invalidResponse(.malformed)
        }
        let header = String(decoding: raw[..<split], as: UTF8.self)
        let lines = header.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.first ?? "?"
        let code = statusCode(of: raw[..<(lineEnd(in: raw) ?? split)])
        guard let code else { throw .invalidResponse(.statusLineNotHTTP(line: statusLine)) }
        guard code == 200 else { throw .httpStatus(code) }
        var body = Array(raw[(split + 4)...])
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            switch parts[0].lowercased() {
            case "transfer-encoding" where parts[1].lowercased() != "identity":
                throw .invalidResponse(.unsupportedTransferEncoding(parts[1]))
            case "content-length":
                guard let length = Int(parts[1]), length >= 0, length <= body.count else {
                    throw .invalidResponse(.truncated)
                }
                body = Array(body.prefix(length))
            default:
                continue
            }
        }
        guard body.count <= maximumBytes else { throw .responseTooLarge(limit: maximumBytes) }
        return body
    }
}
