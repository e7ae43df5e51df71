import TrustNames
import XCTest

/// SPIFFE ID parsing, rule by rule (spiffe/spiffe standards/SPIFFE-ID.md §2), with go-spiffe's
/// `spiffeid` test cases (the reference implementation) among the tables.
final class SPIFFEIDTests: XCTestCase {
    func testValidIDs() throws {
        let cases: [(text: String, trustDomain: String, path: String)] = [
            ("spiffe://example.org/ns/prod/sa/api", "example.org", "/ns/prod/sa/api"),
            ("spiffe://trustdomain", "trustdomain", ""),
            ("spiffe://trust-domain_name.example.com/payments/mysql", "trust-domain_name.example.com", "/payments/mysql"),
            // §2.1: an IPv4 address is a trust domain name like any other.
            ("spiffe://192.168.1.1/workload", "192.168.1.1", "/workload"),
            // §2.2: segments that hold dots but are not dot segments.
            ("spiffe://trustdomain/.path", "trustdomain", "/.path"),
            ("spiffe://trustdomain/..path", "trustdomain", "/..path"),
            ("spiffe://trustdomain/...", "trustdomain", "/..."),
            // §2.4: the path is case-sensitive, and may hold uppercase letters.
            (
                "spiffe://example.com/9eebccd2-12bf-40a6-b262-65fe0487d453/Upper_Case", "example.com",
                "/9eebccd2-12bf-40a6-b262-65fe0487d453/Upper_Case"
            ),
        ]
        for (text, trustDomain, path) in cases {
            let id = try SPIFFEID(text)
            XCTAssertEqual(id.trustDomain.name, trustDomain, text)
            XCTAssertEqual(id.path, path, text)
            XCTAssertEqual(id.description, text, text)
            XCTAssertEqual(id.isTrustDomainID, path.isEmpty, text)
        }
        XCTAssertEqual(try SPIFFEID("spiffe://example.org/ns/prod/sa/api").segments, ["ns", "prod", "sa", "api"])
        XCTAssertNotEqual(try SPIFFEID("spiffe://example.org/API"), try SPIFFEID("spiffe://example.org/api"))
    }

    /// One table per rule: every text breaks exactly that rule (the first one parsing meets).
    func testEachRuleRefusesItsCases() {
        let cases: [(text: String, error: SPIFFEIDError)] = [
            // §2: empty, scheme, authority.
            ("", .empty),
            ("s", .wrongScheme),
            ("spiffe:/", .wrongScheme),
            ("spiffe:/example.org/path", .wrongScheme),
            ("Spiffe://example.org", .wrongScheme),
            ("SPIFFE://example.org/path", .wrongScheme),
            ("https://example.org/path", .wrongScheme),
            ("spiffe://", .missingTrustDomain),
            ("spiffe:///", .missingTrustDomain),
            ("spiffe:///path", .missingTrustDomain),
            // §2.1: userinfo, port, case, percent-encoding, characters.
            ("spiffe://user@example.org/path", .trustDomainWithUserinfo(offset: 13)),
            ("spiffe://user:secret@example.org/path", .trustDomainWithUserinfo(offset: 20)),
            ("spiffe://example.org:8443/path", .trustDomainWithPort(offset: 20)),
            ("spiffe://Example.org/path", .trustDomainNotLowercase(offset: 9)),
            ("spiffe://example.ORG", .trustDomainNotLowercase(offset: 17)),
            ("spiffe://exa%6Dple.org/path", .trustDomainPercentEncoded(offset: 12)),
            ("spiffe://[::1]/path", .invalidTrustDomainCharacter(offset: 9, character: "[")),
            ("spiffe://exam ple.org", .invalidTrustDomainCharacter(offset: 13, character: " ")),
            ("spiffe://exämple.org", .invalidTrustDomainCharacter(offset: 11, character: "ä")),
            // §2: no query, no fragment.
            ("spiffe://example.org?query", .queryOrFragment(offset: 20)),
            ("spiffe://example.org/path?query", .queryOrFragment(offset: 25)),
            ("spiffe://example.org/path#fragment", .queryOrFragment(offset: 25)),
            ("spiffe://example.org#fragment", .queryOrFragment(offset: 20)),
            // §2.2: path percent-encoding, characters, segments, trailing slash.
            ("spiffe://example.org/pa%74h", .pathPercentEncoded(offset: 23)),
            ("spiffe://example.org/pa th", .invalidPathCharacter(offset: 23, character: " ")),
            ("spiffe://example.org/path:8080", .invalidPathCharacter(offset: 25, character: ":")),
            ("spiffe://example.org/p@th", .invalidPathCharacter(offset: 22, character: "@")),
            ("spiffe://example.org/wörk", .invalidPathCharacter(offset: 22, character: "ö")),
            ("spiffe://example.org/line\u{1B}[2J", .invalidPathCharacter(offset: 25, character: "\u{1B}")),
            ("spiffe://trustdomain//", .emptySegment),
            ("spiffe://trustdomain//path", .emptySegment),
            ("spiffe://trustdomain/path//other", .emptySegment),
            ("spiffe://trustdomain/.", .dotSegment),
            ("spiffe://trustdomain/./path", .dotSegment),
            ("spiffe://trustdomain/path/./other", .dotSegment),
            ("spiffe://trustdomain/path/..", .dotSegment),
            ("spiffe://trustdomain/..", .dotSegment),
            ("spiffe://trustdomain/../path", .dotSegment),
            ("spiffe://trustdomain/path/../other", .dotSegment),
            ("spiffe://trustdomain/", .trailingSlash),
            ("spiffe://trustdomain/path/", .trailingSlash),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try SPIFFEID(text), text) { error in
                XCTAssertEqual(error as? SPIFFEIDError, expected, text)
            }
        }
    }

    /// go-spiffe's sweep of every byte: what the trust domain and the path allow, and nothing else.
    func testEveryCharacterOfTheTrustDomainAndThePath() throws {
        let trustDomainCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789.-_".unicodeScalars)
        let pathCharacters = trustDomainCharacters.union("ABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)
        for value in UInt32(1)...255 {
            guard let scalar = Unicode.Scalar(value), scalar != "/" else { continue }
            let character = String(scalar)
            let inTrustDomain = "spiffe://trustdomain\(character)/path"
            if trustDomainCharacters.contains(scalar) {
                XCTAssertEqual(try SPIFFEID(inTrustDomain).trustDomain.name, "trustdomain\(character)")
            } else {
                XCTAssertThrowsError(try SPIFFEID(inTrustDomain), "U+\(String(value, radix: 16))") { error in
                    switch error as? SPIFFEIDError {
                    case .invalidTrustDomainCharacter?, .trustDomainNotLowercase?, .trustDomainPercentEncoded?, .trustDomainWithPort?,
                        .trustDomainWithUserinfo?, .queryOrFragment?:
                        break
                    default:
                        XCTFail("U+\(String(value, radix: 16)): \(error)")
                    }
                }
            }
            let inPath = "spiffe://trustdomain/path\(character)"
            if pathCharacters.contains(scalar) {
                XCTAssertEqual(try SPIFFEID(inPath).path, "/path\(character)")
            } else {
                XCTAssertThrowsError(try SPIFFEID(inPath), "U+\(String(value, radix: 16))") { error in
                    switch error as? SPIFFEIDError {
                    case .invalidPathCharacter?, .pathPercentEncoded?, .queryOrFragment?:
                        break
                    default:
                        XCTFail("U+\(String(value, radix: 16)): \(error)")
                    }
                }
            }
        }
    }

    /// §2.3: IDs up to 2048 bytes, trust domain names up to 255.
    func testMaximumLengths() throws {
        let prefix = "spiffe://example.org/"
        let longest = prefix + String(repeating: "a", count: SPIFFEID.maximumLength - prefix.utf8.count)
        XCTAssertEqual(try SPIFFEID(longest).description.utf8.count, 2048)
        XCTAssertThrowsError(try SPIFFEID(longest + "a")) { error in
            XCTAssertEqual(error as? SPIFFEIDError, .tooLong(bytes: 2049))
        }
        let name255 = String(repeating: "a", count: 255)
        XCTAssertEqual(try SPIFFEID("spiffe://\(name255)/path").trustDomain.name, name255)
        XCTAssertEqual(try SPIFFETrustDomain(name255).name, name255)
        XCTAssertThrowsError(try SPIFFEID("spiffe://\(name255)a/path")) { error in
            XCTAssertEqual(error as? SPIFFEIDError, .trustDomainTooLong(bytes: 256))
        }
        XCTAssertThrowsError(try SPIFFETrustDomain(name255 + "a")) { error in
            XCTAssertEqual(error as? SPIFFEIDError, .trustDomainTooLong(bytes: 256))
        }
        // Far longer input is refused by its length alone.
        XCTAssertThrowsError(try SPIFFEID(String(repeating: "%", count: 100_000))) { error in
            XCTAssertEqual(error as? SPIFFEIDError, .tooLong(bytes: 100_000))
        }
    }

    func testTrustDomainNames() throws {
        let domain = try SPIFFETrustDomain("example.org")
        XCTAssertEqual(domain.id.description, "spiffe://example.org")
        XCTAssertTrue(domain.id.isTrustDomainID)
        XCTAssertEqual(try SPIFFEID("spiffe://example.org/a").trustDomain, domain)
        let refused: [(String, SPIFFEIDError)] = [
            ("", .missingTrustDomain),
            ("Example.org", .trustDomainNotLowercase(offset: 0)),
            ("example.org:443", .trustDomainWithPort(offset: 11)),
            ("user@example.org", .trustDomainWithUserinfo(offset: 4)),
            ("example.org/path", .invalidTrustDomainCharacter(offset: 11, character: "/")),
            ("ex%41mple", .trustDomainPercentEncoded(offset: 2)),
        ]
        for (name, expected) in refused {
            XCTAssertThrowsError(try SPIFFETrustDomain(name), name) { error in
                XCTAssertEqual(error as? SPIFFEIDError, expected, name)
            }
        }
    }

    func testIDFromTrustDomainAndPath() throws {
        let domain = try SPIFFETrustDomain("example.org")
        XCTAssertEqual(try SPIFFEID(trustDomain: domain, path: "/ns/prod").description, "spiffe://example.org/ns/prod")
        XCTAssertEqual(try SPIFFEID(trustDomain: domain, path: ""), domain.id)
        XCTAssertThrowsError(try SPIFFEID(trustDomain: domain, path: "ns")) { error in
            XCTAssertEqual(error as? SPIFFEIDError, .pathWithoutLeadingSlash)
        }
        XCTAssertThrowsError(try SPIFFEID(trustDomain: domain, path: "?q")) { error in
            XCTAssertEqual(error as? SPIFFEIDError, .queryOrFragment(offset: 0))
        }
        XCTAssertThrowsError(try SPIFFEID(trustDomain: domain, path: "/a/../b")) { error in
            XCTAssertEqual(error as? SPIFFEIDError, .dotSegment)
        }
    }

    /// Each description names its rule's section, and a peer's control characters never reach it raw.
    func testDescriptionsNameTheRuleAndEscapePeerText() {
        XCTAssertThrowsError(try SPIFFEID("spiffe://example.org/a\u{1B}[31m")) { error in
            let text = String(describing: error)
            XCTAssertFalse(text.unicodeScalars.contains("\u{1B}"), text)
            XCTAssertTrue(text.contains("\\u001b"), text)
            XCTAssertTrue(text.contains("SPIFFE-ID §2.2"), text)
        }
        let sections: [(SPIFFEIDError, String)] = [
            (.empty, "§2)"), (.tooLong(bytes: 3000), "§2.3"), (.wrongScheme, "§2)"), (.missingTrustDomain, "§2.1"),
            (.trustDomainTooLong(bytes: 300), "§2.3"), (.trustDomainWithUserinfo(offset: 1), "§2.1"),
            (.trustDomainWithPort(offset: 1), "§2.1"), (.trustDomainNotLowercase(offset: 1), "§2.1"),
            (.trustDomainPercentEncoded(offset: 1), "§2.1"), (.invalidTrustDomainCharacter(offset: 1, character: "!"), "§2.1"),
            (.queryOrFragment(offset: 1), "§2)"), (.pathWithoutLeadingSlash, "§2.2"), (.pathPercentEncoded(offset: 1), "§2.2"),
            (.invalidPathCharacter(offset: 1, character: "!"), "§2.2"), (.emptySegment, "§2.2"), (.dotSegment, "§2.2"),
            (.trailingSlash, "§2.2"),
        ]
        for (error, section) in sections {
            XCTAssertTrue(error.description.contains("SPIFFE-ID " + section), error.description)
        }
    }
}
