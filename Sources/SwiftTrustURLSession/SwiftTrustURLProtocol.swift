#if URLSession
import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import Synchronization
import SwiftTrustAsyncHTTPClient
import TrustNIO

/// A `URLProtocol` that sends a `URLSession`'s `https://` requests through a
/// ``SwiftTrustAsyncHTTPClient/TrustedHTTPClient``, so that data, upload and download tasks (and a
/// library built on URLSession, configured with `protocolClasses`) get SwiftTrust's decision on
/// every connection: on Linux, FoundationNetworking never raises a server-trust challenge, so a
/// session delegate (Alamofire's evaluators, AFNetworking-style code) has no hook of its own there.
///
/// ```swift
/// SwiftTrustURLProtocol.use(try TrustedHTTPClient(verifier: TLSTrustVerifier(evaluator: manager)))
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.protocolClasses = [SwiftTrustURLProtocol.self]
/// let session = URLSession(configuration: configuration)
/// // a refused server: the task fails with a TLSTrustError whose `failure` says why
/// ```
///
/// What it cannot do: FoundationNetworking gives a custom protocol neither a download task's file
/// nor an upload task's separate body, so download tasks and `upload(for:from:)` are refused with a
/// typed error (``SwiftTrustURLProtocolError``) — never sent unverified: use data tasks (a POST
/// with `httpBody` for an upload). URLSession's own redirect, cookie, cache and credential
/// handling does not run for these requests (redirects are followed by `TrustedHTTPClient`, each hop decided for its
/// host; a response is delivered with `.notAllowed` cache storage); a request body is sent from
/// `httpBody` or read whole from `httpBodyStream` (at most ``maximumBodyBytes``); `http://`
/// requests are not taken (``canInit(with:)``), so URLSession sends them as it would.
public final class SwiftTrustURLProtocol: URLProtocol, @unchecked Sendable {
    /// The largest request body read from a stream, and the largest response held: 64 MiB.
    public static let maximumBodyBytes = 64 << 20

    private static let shared = Mutex<TrustedHTTPClient?>(nil)
    private let loading = Mutex<Task<Void, Never>?>(nil)

    /// Sends every `https://` request this protocol takes through `client` (process-wide; the last
    /// call wins). Until it is called, requests fail with
    /// ``SwiftTrustURLProtocolError/notConfigured`` (fail closed).
    public static func use(_ client: TrustedHTTPClient) {
        shared.withLock { $0 = client }
    }

    /// Takes `https://` requests only.
    public override class func canInit(with request: URLRequest) -> Bool {
        request.url?.scheme?.lowercased() == "https"
    }

    /// The request as it is.
    public override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// Sends the request through the configured client and reports to URLSession.
    public override func startLoading() {
        let timeout = request.timeoutInterval > 0 ? request.timeoutInterval : 60
        let outgoing: HTTPClientRequest
        do {
            // FoundationNetworking gives a custom protocol neither a download task's file nor an
            // upload task's separate body: refused, never sent without them, never handed to
            // URLSession's own (unverified) protocol.
            if task is URLSessionDownloadTask { throw SwiftTrustURLProtocolError.downloadTasksUnsupported }
            if task is URLSessionUploadTask, request.httpBody == nil, request.httpBodyStream == nil {
                throw SwiftTrustURLProtocolError.uploadBodyUnavailable
            }
            outgoing = try Self.httpClientRequest(request)
        } catch {
            client?.urlProtocol(self, didFailWithError: error)
            return
        }
        // URLProtocol is not Sendable; this instance's own state is its locked `loading`, and
        // URLSession's client callbacks may be made from any thread.
        nonisolated(unsafe) let this = self
        let started = Task { await this.load(outgoing, timeout: timeout) }
        loading.withLock { $0 = started }
    }

    /// Sends `outgoing` and reports the response, its body and its end (or the error) to URLSession.
    private func load(_ outgoing: HTTPClientRequest, timeout: TimeInterval) async {
        do {
            guard let httpClient = Self.shared.withLock({ $0 }) else { throw SwiftTrustURLProtocolError.notConfigured }
            let response = try await httpClient.execute(outgoing, timeout: .milliseconds(Int64(timeout * 1_000)))
            guard let url = URL(string: outgoing.url),
                let head = HTTPURLResponse(
                    url: url, statusCode: Int(response.status.code), httpVersion: "HTTP/\(response.version.major).\(response.version.minor)",
                    headerFields: Dictionary(response.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { "\($0), \($1)" }))
            else {
                throw SwiftTrustURLProtocolError.invalidResponse
            }
            self.client?.urlProtocol(self, didReceive: head, cacheStoragePolicy: .notAllowed)
            var received = 0
            for try await chunk in response.body {
                received += chunk.readableBytes
                guard received <= Self.maximumBodyBytes else { throw SwiftTrustURLProtocolError.bodyTooLarge(limit: Self.maximumBodyBytes) }
                self.client?.urlProtocol(self, didLoad: Data(chunk.readableBytesView))
            }
            self.client?.urlProtocolDidFinishLoading(self)
        } catch {
            self.client?.urlProtocol(self, didFailWithError: error)
        }
    }

    /// Cancels the request.
    public override func stopLoading() {
        loading.withLock { $0 }?.cancel()
    }

    /// `request` as AsyncHTTPClient's request: method, headers, body.
    static func httpClientRequest(_ request: URLRequest) throws -> HTTPClientRequest {
        guard let url = request.url?.absoluteString else { throw SwiftTrustURLProtocolError.invalidRequest }
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        for (name, value) in request.allHTTPHeaderFields ?? [:] { outgoing.headers.add(name: name, value: value) }
        if let body = request.httpBody {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        } else if let stream = request.httpBodyStream {
            outgoing.body = .bytes(ByteBuffer(bytes: try read(stream)))
        }
        return outgoing
    }

    /// The whole of `stream`, at most ``maximumBodyBytes``.
    private static func read(_ stream: InputStream) throws -> [UInt8] {
        stream.open()
        defer { stream.close() }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count < 0 { throw SwiftTrustURLProtocolError.invalidRequest }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
            guard bytes.count <= maximumBodyBytes else { throw SwiftTrustURLProtocolError.bodyTooLarge(limit: maximumBodyBytes) }
        }
    }
}

/// Why ``SwiftTrustURLProtocol`` failed a request before or beside SwiftTrust's decision (a refused
/// server fails it with the `TLSTrustError` itself).
public enum SwiftTrustURLProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// ``SwiftTrustURLProtocol/use(_:)`` was never called: nothing was sent.
    case notConfigured
    /// The request had no URL, or its body stream could not be read.
    case invalidRequest
    /// The response could not be expressed as an `HTTPURLResponse`.
    case invalidResponse
    /// A request or response body exceeded `limit` bytes.
    case bodyTooLarge(limit: Int)
    /// A download task: FoundationNetworking lets only its own protocol write a download's file.
    /// Use a data task and write the data.
    case downloadTasksUnsupported
    /// An upload task whose body was given apart from its request (`upload(for:from:)`,
    /// `uploadTask(with:fromFile:)`): FoundationNetworking does not hand it to a custom protocol.
    /// Set the request's `httpBody` and use a data task.
    case uploadBodyUnavailable

    /// One sentence.
    public var description: String {
        switch self {
        case .notConfigured: return "SwiftTrustURLProtocol.use(_:) was not called: the request was not sent"
        case .invalidRequest: return "the request has no URL, or its body stream could not be read"
        case .invalidResponse: return "the response could not be expressed as an HTTPURLResponse"
        case let .bodyTooLarge(limit): return "a body exceeded \(limit) bytes"
        case .downloadTasksUnsupported:
            return "download tasks cannot go through a custom URLProtocol on Linux: use a data task (nothing was sent)"
        case .uploadBodyUnavailable:
            return "an upload task's separate body does not reach a custom URLProtocol on Linux: set httpBody and use a data task (nothing was sent)"
        }
    }
}
#endif // URLSession
