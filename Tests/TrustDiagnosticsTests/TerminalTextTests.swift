import Foundation
import TrustCore
@testable import TrustDiagnostics
import TrustX509
import TrustTestSupport
import XCTest

/// ``TerminalText`` escapes what must not reach a terminal raw, and ``ChainDiagnostics`` text uses it
/// for every value while keeping its own colour codes.
final class TerminalTextTests: XCTestCase {
    func testControlsDELC1AndBidiControlsAreEscapedAsJSONDoes() {
        XCTAssertEqual(TerminalText.escaped("a\u{1B}[31mb\nc\r\t\u{0}"), #"a\u001b[31mb\u000ac\u000d\u0009\u0000"#)
        XCTAssertEqual(TerminalText.escaped("\u{7F}\u{80}\u{9B}\u{9F}"), #"\u007f\u0080\u009b\u009f"#)
        XCTAssertEqual(
            TerminalText.escaped("\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}"),
            #"\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"#)
        XCTAssertEqual(TerminalText.escaped("\u{200E}\u{200F}\u{061C}\u{2028}\u{2029}"), #"\u200e\u200f\u061c\u2028\u2029"#)
    }

    func testOrdinaryTextIsUnchanged() {
        for text in ["CN=www.example.com,O=Example", "Bücher.example", "例え.テスト", "مثال.إختبار", "👍", "\u{A0}\u{AD}", #"back\slash"#, ""] {
            XCTAssertEqual(TerminalText.escaped(text), text)
        }
    }

    func testEscapingIsIdempotent() {
        let once = TerminalText.escaped("x\u{1B}\u{202E}\ny")
        XCTAssertEqual(TerminalText.escaped(once), once)
        XCTAssertFalse(once.unicodeScalars.contains(where: TerminalText.mustEscape))
    }

    /// The colour report escapes the subject (ESC [31m, newline) before adding its own SGR codes.
    func testColourChainReportEscapesValuesButKeepsItsColours() throws {
        let hostile = "evil\u{1B}[31mred\nline\u{202E}"
        var leaf = EditableCertificate(try TestCertificates.certificate("ecdsa/leaf.pem"))
        let utf8String: UInt8 = 0x0C
        leaf.subject = TestDER.sequence([
            TestDER.tlv(
                0x31,
                TestDER.sequence([
                    TestDER.tlv(0x06, TestDER.commonName),
                    TestDER.tlv(utf8String, Array(hostile.utf8)),
                ]))
        ])
        let certificate = try leaf.parse()
        XCTAssertEqual(certificate.subject.description, "CN=" + hostile)
        let trust = ServerTrust(
            certificates: [certificate, try TestCertificates.certificate("ecdsa/intermediate.pem")],
            policies: [.ssl(server: true, hostname: TestCertificates.host)])
        trust.setAnchorCertificates([try TestCertificates.certificate("ecdsa/root.pem")])
        trust.verifyDate = TestCertificates.verifyDate
        let diagnostics = ChainDiagnostics(trust: trust, host: TestCertificates.host, verifyDate: TestCertificates.verifyDate)

        for style in [ChainDiagnostics.TextStyle.plain, .color] {
            let text = diagnostics.text(style: style)
            XCTAssertTrue(text.contains(#"CN=evil\u001b[31mred\u000aline\u202e"#), text)
            XCTAssertFalse(text.contains("\u{1B}[31mred"), "the certificate's own escape sequence is not written raw")
            // What is left once the report's own SGR codes are removed: text and line breaks only.
            let withoutColours = text.replacingOccurrences(of: "\u{1B}\\[[0-9;]+m", with: "", options: .regularExpression)
            XCTAssertFalse(withoutColours.unicodeScalars.contains { $0 != "\n" && TerminalText.mustEscape($0) }, "\(style)")
        }
        XCTAssertTrue(diagnostics.text(style: .color).contains("\u{1B}[1m"), "colour codes are kept")
        XCTAssertFalse(diagnostics.text(style: .plain).contains("\u{1B}"))
    }
}
