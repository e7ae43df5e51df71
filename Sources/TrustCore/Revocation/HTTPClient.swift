#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A deliberately small HTTP/1.0 client for fetching CRLs and OCSP responses, which are served
/// over plain `http://` (RFC 5280 §4.2.1.13, RFC 6960 Appendix A): no TLS, no redirects, a
/// connect/read deadline and a response-size cap, so a slow or hostile server costs bounded time
/// and memory. Blocking socket calls run on a dedicated thread, never on the concurrency pool.
enum HTTPClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Target {
        let host: String
        let port: UInt16
        let path: String

        /// Parses `http://host[:port]/path`; other schemes are refused.
        init(_ url: String) throws {
            guard url.lowercased().hasPrefix("http://") else { throw Failure(description: "only http:// URLs are fetched: \(url)") }
            let rest = url.dropFirst(7)
            let authority = rest.prefix { $0 != "/" && $0 != "?" }
            let pathPart = rest.dropFirst(authority.count)
            var host = Substring(authority)
            var port: UInt16 = 80
            if host.hasPrefix("[") {
                guard let close = host.firstIndex(of: "]") else { throw Failure(description: "bad host in \(url)") }
                let after = host[host.index(after: close)...]
                host = host[host.index(after: host.startIndex)..<close]
                if after.hasPrefix(":") { guard let p = UInt16(after.dropFirst()) else { throw Failure(description: "bad port in \(url)") }; port = p }
            } else if let colon = host.lastIndex(of: ":") {
                guard let p = UInt16(host[host.index(after: colon)...]) else { throw Failure(description: "bad port in \(url)") }
                port = p
                host = host[..<colon]
            }
            guard !host.isEmpty, !host.contains("@") else { throw Failure(description: "bad host in \(url)") }
            let path = pathPart.isEmpty ? "/" : String(pathPart)
            guard !path.contains(where: { $0 == "\r" || $0 == "\n" || $0 == " " }) else { throw Failure(description: "bad path in \(url)") }
            self.host = String(host)
            self.port = port
            self.path = path.hasPrefix("/") ? path : "/" + path
        }

        /// The Host header value: the URL's authority (RFC 7230 §5.4), an IPv6 literal in brackets,
        /// and the port unless it is the default 80.
        var hostHeader: String {
            let name = host.contains(":") ? "[\(host)]" : host
            return port == 80 ? name : "\(name):\(port)"
        }
    }

    /// Performs one request on a dedicated thread.
    static func request(_ url: String, method: String, contentType: String?, body: [UInt8],
                        timeout: Double, maximumBytes: Int) async throws -> [UInt8] {
        let target = try Target(url)
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do {
                    continuation.resume(returning: try perform(target, method: method, contentType: contentType, body: body,
                                                               timeout: timeout, maximumBytes: maximumBytes))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    static func perform(_ target: Target, method: String, contentType: String?, body: [UInt8],
                        timeout: Double, maximumBytes: Int) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(timeout)
        let fd = try openConnection(target, deadline: deadline)
        defer { close(fd) }
        var head = "\(method) \(target.path) HTTP/1.0\r\nHost: \(target.hostHeader)\r\nUser-Agent: SwiftTrust\r\nConnection: close\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try send(fd, Array(head.utf8) + body, deadline: deadline)
        let raw = try receive(fd, deadline: deadline, maximumBytes: maximumBytes + 16 * 1024)
        return try parseResponse(raw, maximumBytes: maximumBytes)
    }

    static func parseResponse(_ raw: [UInt8], maximumBytes: Int) throws -> [UInt8] {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let split = raw.indices.first(where: { raw[$0...].starts(with: separator) }) else {
            throw Failure(description: "malformed HTTP response")
        }
        let header = String(decoding: raw[..<split], as: UTF8.self)
        let lines = header.components(separatedBy: "\r\n")
        let status = lines.first?.split(separator: " ") ?? []
        guard status.count >= 2, status[0].hasPrefix("HTTP/1."), status[1] == "200" else {
            throw Failure(description: "HTTP status \(lines.first ?? "?")")
        }
        var body = Array(raw[(split + 4)...])
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            switch parts[0].lowercased() {
            case "transfer-encoding" where parts[1].lowercased() != "identity":
                throw Failure(description: "unsupported transfer encoding \(parts[1])")
            case "content-length":
                guard let length = Int(parts[1]), length >= 0, length <= body.count else {
                    throw Failure(description: "truncated HTTP body")
                }
                body = Array(body.prefix(length))
            default:
                continue
            }
        }
        guard body.count <= maximumBytes else { throw Failure(description: "response larger than \(maximumBytes) bytes") }
        return body
    }

    private static func remaining(_ deadline: Date) throws -> Int32 {
        let left = deadline.timeIntervalSinceNow
        guard left > 0 else { throw Failure(description: "timed out") }
        return Int32(min(left * 1000, Double(Int32.max)))
    }

    private static func openConnection(_ target: Target, deadline: Date) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(target.host, String(target.port), &hints, &list) == 0, let first = list else {
            throw Failure(description: "cannot resolve \(target.host)")
        }
        defer { freeaddrinfo(list) }
        var node: UnsafeMutablePointer<addrinfo>? = first
        var lastError = "cannot connect to \(target.host):\(target.port)"
        while let current = node {
            node = current.pointee.ai_next
            let fd = socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            let flags = fcntl(fd, F_GETFL, 0)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            if connect(fd, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                var pollFD = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&pollFD, 1, try remaining(deadline))
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if ready == 1, getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 {
                    return fd
                }
                lastError = ready == 0 ? "connect to \(target.host):\(target.port) timed out" : "connection to \(target.host):\(target.port) refused"
            }
            close(fd)
        }
        throw Failure(description: lastError)
    }

    private static func send(_ fd: Int32, _ bytes: [UInt8], deadline: Date) throws {
        var offset = 0
        while offset < bytes.count {
            var pollFD = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&pollFD, 1, try remaining(deadline)) == 1 else { throw Failure(description: "send timed out") }
            let sent = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard sent > 0 else { throw Failure(description: "send failed") }
            offset += sent
        }
    }

    private static func receive(_ fd: Int32, deadline: Date, maximumBytes: Int) throws -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pollFD, 1, try remaining(deadline)) == 1 else { throw Failure(description: "read timed out") }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return result }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw Failure(description: "read failed")
            }
            result.append(contentsOf: buffer[0..<count])
            guard result.count <= maximumBytes else { throw Failure(description: "response larger than \(maximumBytes) bytes") }
        }
    }
}
