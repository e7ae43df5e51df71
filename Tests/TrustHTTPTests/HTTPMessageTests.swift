import TrustCore
@testable import TrustHTTP
import XCTest

/// The URL rules and message format every SwiftTrust HTTP request shares (revocation fetches over
/// HTTPClient, pin reports over TrustNIO's uploader).
final class HTTPMessageTests: XCTestCase {
    func testTargetsKeepTheAuthorityTheServerExpects() throws {
        let plain = try HTTPTarget("http://crl.example/ca.crl?x=1", schemes: [.http])
        XCTAssertEqual([plain.host, plain.hostHeader, plain.requestTarget], ["crl.example", "crl.example", "/ca.crl?x=1"])
        XCTAssertEqual(plain.port, 80)
        let ipv6 = try HTTPTarget("https://[2001:db8::1]:8443", schemes: [.https])
        XCTAssertEqual([ipv6.host, ipv6.hostHeader, ipv6.requestTarget], ["2001:db8::1", "[2001:db8::1]:8443", "/"])
        XCTAssertTrue(ipv6.usesTLS)
        XCTAssertEqual(try HTTPTarget("https://collector.example/r", schemes: [.https]).port, 443)
    }

    func testTargetsRefuseWhatARequestCannotCarryOrTheUseDoesNotAllow() {
        func reason(_ url: String, _ schemes: Set<HTTPTarget.Scheme> = [.http, .https]) -> String? {
            do { _ = try HTTPTarget(url, schemes: schemes); return nil } catch { return error.description }
        }
        XCTAssertEqual(reason("https://ca.example/crl", [.http]), "only http:// URLs are fetched: https://ca.example/crl")
        XCTAssertEqual(reason("ftp://ca.example/crl"), "only http:// and https:// URLs are fetched: ftp://ca.example/crl")
        XCTAssertEqual(reason("http://user:secret@ca.example/"), "credentials in the URL: http://user:secret@ca.example/")
        XCTAssertEqual(reason("http:///path"), "no host: http:///path")
        XCTAssertEqual(reason("http://ca.example:70000/"), "port 70000 is outside 1-65535: http://ca.example:70000/")
        // Percent-encoded CR LF stays encoded on the request line: it cannot split the request.
        XCTAssertNil(reason("http://ca.example/a%0D%0AHost:%20evil"))
        XCTAssertNotNil(reason("not a url at all"))
        // The rule is typed, for a caller to match on (FetchFailureReason.invalidURL carries it).
        func problem(_ url: String, _ schemes: Set<HTTPTarget.Scheme> = [.http]) -> FetchURLProblem? {
            do { _ = try HTTPTarget(url, schemes: schemes); return nil } catch { return error.problem }
        }
        XCTAssertEqual(problem("https://ca.example/crl"), .unsupportedScheme("https", supported: ["http"]))
        XCTAssertEqual(problem("http:///path"), .noHost)
        XCTAssertEqual(problem("http://user@ca.example/"), .credentials)
        XCTAssertEqual(problem("http://ca.example:0/"), .portOutOfRange(0))
    }

    func testRequestsCloseTheConnectionAndCarryTheirLength() {
        let target = try? HTTPTarget("http://ocsp.example:8080", schemes: [.http])
        guard let target else { return XCTFail("no target") }
        let post = String(
            decoding: HTTPMessage.request(
                "POST", to: target, version: "HTTP/1.0",
                contentType: "application/ocsp-request", body: [1, 2, 3]), as: UTF8.self)
        XCTAssertEqual(
            post,
            "POST / HTTP/1.0\r\nHost: ocsp.example:8080\r\nUser-Agent: SwiftTrust\r\n"
                + "Content-Type: application/ocsp-request\r\nContent-Length: 3\r\nConnection: close\r\n\r\n\u{1}\u{2}\u{3}")
        let get = String(decoding: HTTPMessage.request("GET", to: target, version: "HTTP/1.0", contentType: nil, body: []), as: UTF8.self)
        XCTAssertFalse(get.contains("Content-Length"), get)
    }

    func testStatusLines() {
        func code(_ line: String) -> Int? { HTTPMessage.statusCode(of: Array(line.utf8)[...]) }
        XCTAssertEqual(code("HTTP/1.1 204 No Content"), 204)
        XCTAssertEqual(code("HTTP/1.0 200"), 200)
        XCTAssertNil(code("HTTP/2 200 OK"))
        XCTAssertNil(code("HTTP/1.1 20 OK"))
        XCTAssertNil(code("HTTP/1.1 700 Odd"))
        XCTAssertNil(code("SSH-2.0-OpenSSH"))
    }

    func testResponseBodiesOnlyFromWhole200Answers() throws {
        func body(_ text: String, cap: Int = 100) -> Result<String, FetchFailureReason> {
            Result { () throws(FetchFailureReason) in
                String(decoding: try HTTPMessage.body(ofResponse: Array(text.utf8), maximumBytes: cap), as: UTF8.self)
            }
        }
        XCTAssertEqual(try body("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA").get(), "ok")
        XCTAssertEqual(try body("HTTP/1.1 200 OK\r\n\r\nall of it").get(), "all of it")
        XCTAssertEqual(body("HTTP/1.0 302 Found\r\nLocation: /x\r\n\r\n"), .failure(.httpStatus(302)))
        XCTAssertEqual(
            body("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"),
            .failure(.invalidResponse(.unsupportedTransferEncoding("chunked"))))
        XCTAssertEqual(body("HTTP/1.0 200 OK\r\nContent-Length: 10\r\n\r\nshort"), .failure(.invalidResponse(.truncated)))
        XCTAssertEqual(body("HTTP/1.0 200 OK\r\n\r\n0123456789", cap: 4), .failure(.responseTooLarge(limit: 4)))
        XCTAssertEqual(body("HTTP/1.0 200 OK no end of headers"), .failure(.invalidResponse(.malformed)))
        XCTAssertEqual(body("SSH-2.0-OpenSSH\r\n\r\n"), .failure(.invalidResponse(.statusLineNotHTTP(line: "SSH-2.0-OpenSSH"))))
    }
}
