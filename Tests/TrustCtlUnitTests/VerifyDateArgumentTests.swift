import ArgumentParser
import Foundation
import SwiftTrust
import XCTest
@testable import trustctl

/// `--at` (issue 43 item 4): RFC 3339 as before, and for years past 9999 (which RFC 3339's four
/// digits cannot write, and Apple's trustd tests evaluate at) ISO 8601's expanded form or seconds
/// since 1970; anything else is a usage error naming the forms.
final class VerifyDateArgumentTests: XCTestCase {
    /// Each text and the instant it stands for, in seconds since 1970.
    private func assertParses(_ cases: KeyValuePairs<String, Double>, file: StaticString = #filePath, line: UInt = #line) {
        for (text, seconds) in cases {
            XCTAssertEqual(ISO8601.parse(text)?.timeIntervalSince1970, seconds, text, file: file, line: line)
        }
    }

    func testRFC3339IsReadAsBefore() {
        assertParses([
            "2026-06-01T00:00:00Z": 1_780_272_000, "2026-06-01": 1_780_272_000,
            "2026-06-01T02:00:00+02:00": 1_780_272_000, "9999-12-31T23:59:59Z": 253_402_300_799,
        ])
    }

    func testExpandedYearsPast9999() {
        assertParses([
            "+10000-01-01T00:00:00Z": 253_402_300_800, "+10000-01-02": 253_402_387_200,
            // Apple's VerifyDateTests testAfterNotAfter: 12 January 10000 (CFAbsoluteTime 252425000000).
            "+10000-01-12T15:33:20Z": 252_425_000_000 + 978_307_200,
            "+010000-01-01T00:00:00Z": 253_402_300_800, "+2026-06-01T00:00:00Z": 1_780_272_000,
            "+65535-12-31T23:59:59Z": 2_005_949_145_599,
        ])
    }

    func testSecondsSince1970() {
        assertParses(["@253402300800": 253_402_300_800, "@0": 0, "@-86400": -86_400, "@2005949145599": 2_005_949_145_599])
    }

    func testOtherTextIsRefused() {
        for text in [
            "10000-01-01T00:00:00Z", "+65536-01-01T00:00:00Z", "+1000000-01-01", "-0001-01-01", "+999-01-01", "+",
            "@", "@-", "@12a", "@2005949145600", "@9999999999999999999999", "@ 1", "@1.5", "yesterday", "",
        ] {
            XCTAssertNil(ISO8601.parse(text), text)
        }
    }

    func testTheUsageErrorNamesTheForms() throws {
        XCTAssertThrowsError(try Verify.parse(["chain.pem", "--at", "10000-01-01T00:00:00Z"])) { error in
            let message = Verify.message(for: error)
            XCTAssertTrue(message.contains("--at 10000-01-01T00:00:00Z is not a date"), message)
            XCTAssertTrue(message.contains("+10000-01-01T00:00:00Z") && message.contains("@253402300800"), message)
        }
        let verify = try Verify.parse(["chain.pem", "--at", "+10000-01-02T00:00:00Z"])
        XCTAssertEqual(verify.input.trust.date.timeIntervalSince1970, 253_402_387_200)
    }
}
