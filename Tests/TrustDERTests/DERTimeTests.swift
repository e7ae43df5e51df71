import TrustDER
import XCTest

/// UTCTime and GeneralizedTime in exact DER form (X.690 §11.7, §11.8; RFC 5280 §4.1.2.5).
final class DERTimeTests: XCTestCase {
    private func utc(_ text: String) throws -> DERTime { try element(tlv(0x17, ascii: text)).time() }
    private func generalized(_ text: String) throws -> DERTime { try element(tlv(0x18, ascii: text)).time() }

    // MARK: - Accepted forms

    func testUTCTimeExactForm() throws {
        let time = try utc("260601000000Z")
        XCTAssertEqual(time.year, 2026)
        XCTAssertEqual(time.month, 6)
        XCTAssertEqual(time.day, 1)
        XCTAssertEqual(time.hour, 0)
        XCTAssertEqual(time.minute, 0)
        XCTAssertEqual(time.second, 0)
        XCTAssertEqual(time.secondsSince1970, 1_780_272_000)
        XCTAssertEqual(time.description, "2026-06-01T00:00:00Z")

        let other = try utc("991231235959Z")
        XCTAssertEqual(
            [other.year, other.month, other.day, other.hour, other.minute, other.second],
            [1999, 12, 31, 23, 59, 59])
    }

    func testGeneralizedTimeExactForm() throws {
        let time = try generalized("20260601000000Z")
        XCTAssertEqual(time.secondsSince1970, 1_780_272_000)
        XCTAssertEqual(time, try utc("260601000000Z"))
        let far = try generalized("99991231235959Z")
        XCTAssertEqual(far.year, 9999)
        XCTAssertEqual(far.secondsSince1970, 253_402_300_799)
        let early = try generalized("00010101000000Z")
        XCTAssertEqual(early.year, 1)
        XCTAssertEqual(early.secondsSince1970, -62_135_596_800)
        let mixed = try generalized("20000229123456Z")
        XCTAssertEqual(
            [mixed.year, mixed.month, mixed.day, mixed.hour, mixed.minute, mixed.second],
            [2000, 2, 29, 12, 34, 56])
        XCTAssertEqual(mixed.secondsSince1970, 951_827_696)
    }

    func testUTCTimeYearPivot() throws {
        XCTAssertEqual(try utc("490101000000Z").year, 2049)
        XCTAssertEqual(try utc("500101000000Z").year, 1950)
        XCTAssertEqual(try utc("000101000000Z").year, 2000)
        XCTAssertEqual(try utc("991231000000Z").year, 1999)
        XCTAssertEqual(try utc("700101000000Z").secondsSince1970, 0)
        XCTAssertEqual(try utc("491231235959Z").secondsSince1970, 2_524_607_999)
        XCTAssertEqual(try utc("500101000000Z").secondsSince1970, -631_152_000)
        // GeneralizedTime has no pivot.
        XCTAssertEqual(try generalized("19490101000000Z").year, 1949)
        XCTAssertEqual(try generalized("20500101000000Z").year, 2050)
    }

    // MARK: - Rejected forms

    private func assertRejectedUTC(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        assertDERError(.invalidTime, at: 0, "UTCTime \(text)", file: file, line: line) { try self.utc(text) }
    }

    private func assertRejectedGeneralized(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        assertDERError(.invalidTime, at: 0, "GeneralizedTime \(text)", file: file, line: line) { try self.generalized(text) }
    }

    func testMissingSecondsIsRejected() {
        assertRejectedUTC("2606010000Z")
        assertRejectedGeneralized("202606010000Z")
        assertRejectedGeneralized("2026060100Z")
    }

    func testFractionalSecondsAreRejected() {
        assertRejectedGeneralized("20260601000000.5Z")
        assertRejectedGeneralized("20260601000000.000Z")
        assertRejectedGeneralized("2026060100000.Z")
        assertRejectedUTC("260601000000.5Z")
    }

    func testOffsetsOtherThanZAreRejected() {
        assertRejectedUTC("260601000000+0000")
        assertRejectedUTC("260601000000-0500")
        assertRejectedUTC("2606010000000")
        assertRejectedUTC("26060100000+00")
        assertRejectedGeneralized("20260601000000+0000")
        assertRejectedGeneralized("20260601000000")
        assertRejectedGeneralized("202606010000000")
    }

    func testLowerCaseZIsRejected() {
        assertRejectedUTC("260601000000z")
        assertRejectedGeneralized("20260601000000z")
    }

    func testWrongTypeLengthsAreRejected() {
        // A GeneralizedTime string in a UTCTime and the reverse.
        assertRejectedUTC("20260601000000Z")
        assertRejectedGeneralized("260601000000Z")
        assertRejectedUTC("")
        assertRejectedUTC("Z")
    }

    func testOutOfRangeFieldsAreRejected() {
        assertRejectedUTC("261301000000Z") // month 13
        assertRejectedUTC("260001000000Z") // month 0
        assertRejectedUTC("260132000000Z") // day 32
        assertRejectedUTC("260100000000Z") // day 0
        assertRejectedUTC("260431000000Z") // 31 April
        assertRejectedUTC("260601240000Z") // hour 24
        assertRejectedUTC("260601006000Z") // minute 60
        assertRejectedUTC("260601000060Z") // second 60 (no leap seconds)
        assertRejectedGeneralized("20261301000000Z")
        assertRejectedGeneralized("20260132000000Z")
        assertRejectedGeneralized("20260601240000Z")
        assertRejectedGeneralized("20260601006000Z")
        assertRejectedGeneralized("20260601000060Z")
        assertRejectedGeneralized("20261231235960Z")
    }

    func testDaysPerMonth() throws {
        let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        for (index, length) in lengths.enumerated() {
            let month = index + 1
            let mm = month < 10 ? "0\(month)" : "\(month)"
            XCTAssertEqual(try utc("26\(mm)\(length)000000Z").day, length, "month \(month)")
            assertRejectedUTC("26\(mm)\(length + 1)000000Z")
            assertRejectedGeneralized("2026\(mm)\(length + 1)000000Z")
        }
    }

    func testFebruary29() throws {
        assertRejectedUTC("250229000000Z") // 2025: not a leap year
        assertRejectedGeneralized("21000229000000Z") // 2100: century, not a leap year
        assertRejectedGeneralized("19000229000000Z")
        assertRejectedUTC("240230000000Z") // never 30 February
        XCTAssertEqual(try utc("240229000000Z").secondsSince1970, 1_709_164_800)
        XCTAssertEqual(try generalized("20000229000000Z").day, 29) // 2000: divisible by 400
        XCTAssertEqual(try generalized("20240229235959Z").day, 29)
        XCTAssertEqual(try utc("250228235959Z").day, 28)
    }

    func testNonDigitsAreRejected() {
        assertRejectedUTC("26O601000000Z") // letter O
        assertRejectedUTC("2606 1000000Z")
        assertRejectedUTC("26060100000 Z")
        assertRejectedUTC("-60601000000Z")
        assertRejectedUTC("+60601000000Z")
        assertRejectedUTC("26060100:000Z")
        assertRejectedUTC("2606010000\u{7F}0Z")
        assertRejectedGeneralized("2026-6-1000000Z")
        assertRejectedGeneralized("2026060100000aZ")
        // Non-ASCII byte in a digit position.
        assertDERError(.invalidTime, at: 0) { try element([0x17, 0x0D] + bytes("26060100000") + [0xB9, 0x5A]).time() }
    }

    func testErrorOffsetIsTheElementOffset() throws {
        var reader = try element(tlv(0x30, [0x05, 0x00] + tlv(0x17, ascii: "261301000000Z"))).children()
        _ = try reader.read(.null)
        let bad = try reader.read(.utcTime)
        assertDERError(.invalidTime, at: 4) { try bad.time() }
    }

    func testTimeRequiresTimeTag() throws {
        let printable = try element(tlv(0x13, ascii: "260601000000Z"))
        assertDERError(.unexpectedTag(expected: "UTCTime or GeneralizedTime", found: "PrintableString"), at: 0) {
            try printable.time()
        }
    }

    // MARK: - secondsSince1970

    func testKnownSecondsSince1970() throws {
        let cases: [((Int, Int, Int, Int, Int, Int), Int64)] = [
            ((1970, 1, 1, 0, 0, 0), 0),
            ((1970, 1, 1, 0, 0, 1), 1),
            ((1970, 1, 2, 0, 0, 0), 86_400),
            ((1969, 12, 31, 23, 59, 59), -1),
            ((1969, 12, 31, 0, 0, 0), -86_400),
            ((1950, 1, 1, 0, 0, 0), -631_152_000),
            ((2000, 2, 29, 12, 34, 56), 951_827_696),
            ((2024, 2, 29, 0, 0, 0), 1_709_164_800),
            ((2026, 6, 1, 0, 0, 0), 1_780_272_000),
            ((2038, 1, 19, 3, 14, 8), 2_147_483_648),
            ((2049, 12, 31, 23, 59, 59), 2_524_607_999),
            ((9999, 12, 31, 23, 59, 59), 253_402_300_799),
            ((1, 1, 1, 0, 0, 0), -62_135_596_800),
            ((0, 1, 1, 0, 0, 0), -62_167_219_200),
        ]
        for ((y, mo, d, h, mi, s), expected) in cases {
            let time = try XCTUnwrap(DERTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s))
            XCTAssertEqual(time.secondsSince1970, expected, time.description)
            let back = try XCTUnwrap(DERTime(secondsSince1970: expected), "\(expected)")
            XCTAssertEqual(back, time)
            XCTAssertEqual([back.year, back.month, back.day, back.hour, back.minute, back.second], [y, mo, d, h, mi, s])
        }
    }

    func testSecondsRoundTrip() throws {
        var values: [Int64] = [
            0, 1, -1, 59, 60, 3599, 3600, 86_399, 86_400, -86_399, -86_400, -86_401,
            1_780_272_000, -631_152_000, 253_402_300_799, -62_167_219_200,
        ]
        // A spread of instants every ~37.3 days from 1600 to 2400, including odd seconds.
        var t: Int64 = -11_676_096_000
        while t < 13_569_465_600 {
            values.append(t)
            t += 3_224_567
        }
        for value in values {
            let time = try XCTUnwrap(DERTime(secondsSince1970: value), "\(value)")
            XCTAssertEqual(time.secondsSince1970, value)
            let rebuilt = try XCTUnwrap(
                DERTime(
                    year: time.year, month: time.month, day: time.day,
                    hour: time.hour, minute: time.minute, second: time.second))
            XCTAssertEqual(rebuilt.secondsSince1970, value)
            // The DER text of the same instant decodes to the same value.
            if (0...9999).contains(time.year) {
                let text = String(time.description.filter { $0.isNumber }) + "Z"
                XCTAssertEqual(try generalized(text).secondsSince1970, value, text)
            }
        }
    }

    func testSecondsOutsideSupportedYearsAreNil() {
        XCTAssertNil(DERTime(secondsSince1970: 2_005_949_145_600)) // 65536-01-01
        XCTAssertNil(DERTime(secondsSince1970: -62_167_219_201)) // before year 0
        XCTAssertNil(DERTime(secondsSince1970: Int64.max))
        XCTAssertNil(DERTime(secondsSince1970: Int64.max - 86_399))
        XCTAssertNil(DERTime(secondsSince1970: Int64.min))
        XCTAssertNil(DERTime(secondsSince1970: Int64.min + 1))
        XCTAssertNil(DERTime(secondsSince1970: -Int64.max + 10))
    }

    // MARK: - timeIntervalSince1970

    func testTimeIntervalIsFlooredToTheSecond() throws {
        let cases: [(Double, Int64)] = [
            (0, 0), (0.999, 0), (-0.5, -1), (-1, -1), (1_780_272_000.7, 1_780_272_000),
            (253_402_300_799.9, 253_402_300_799), (-62_167_219_200, -62_167_219_200),
        ]
        for (interval, expected) in cases {
            XCTAssertEqual(try XCTUnwrap(DERTime(timeIntervalSince1970: interval), "\(interval)").secondsSince1970, expected)
        }
    }

    func testTimeIntervalThatIsNotFiniteOrOutOfRangeIsNil() {
        // Each of these traps `Int64(_:)`, or is finite but outside years 0…65535.
        for interval in [
            Double.infinity, -.infinity, .nan, -.nan, .signalingNaN, 1e300, -1e300, 9.3e18, -9.3e18,
            Double(Int64.max), Double.greatestFiniteMagnitude, 2_005_949_145_600, -62_167_219_200.5,
        ] {
            XCTAssertNil(DERTime(timeIntervalSince1970: interval), "\(interval)")
        }
    }

    func testCalendarInitializerRejectsOutOfRange() {
        XCTAssertNil(DERTime(year: 2026, month: 13, day: 1, hour: 0, minute: 0, second: 0))
        XCTAssertNil(DERTime(year: 2026, month: 0, day: 1, hour: 0, minute: 0, second: 0))
        XCTAssertNil(DERTime(year: 2026, month: 2, day: 29, hour: 0, minute: 0, second: 0))
        XCTAssertNotNil(DERTime(year: 2028, month: 2, day: 29, hour: 0, minute: 0, second: 0))
        XCTAssertNil(DERTime(year: 2026, month: 1, day: 0, hour: 0, minute: 0, second: 0))
        XCTAssertNil(DERTime(year: 2026, month: 1, day: 1, hour: 24, minute: 0, second: 0))
        XCTAssertNil(DERTime(year: 2026, month: 1, day: 1, hour: -1, minute: 0, second: 0))
        XCTAssertNil(DERTime(year: 2026, month: 1, day: 1, hour: 0, minute: 60, second: 0))
        XCTAssertNil(DERTime(year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 60))
        XCTAssertNil(DERTime(year: 65_536, month: 1, day: 1, hour: 0, minute: 0, second: 0))
        XCTAssertNil(DERTime(year: -1, month: 1, day: 1, hour: 0, minute: 0, second: 0))
    }

    func testOrderingAndDescription() throws {
        let a = try utc("491231235959Z")
        let b = try utc("500101000000Z")
        XCTAssertLessThan(b, a, "1950 precedes 2049")
        XCTAssertLessThan(try generalized("20260601000000Z"), try generalized("20260601000001Z"))
        XCTAssertEqual(try generalized("00050307080910Z").description, "0005-03-07T08:09:10Z")
        XCTAssertEqual(a.description, "2049-12-31T23:59:59Z")
    }

    // MARK: - Years past 9999 (verify dates; DER has four digits)

    func testYearsPast9999AreTimesInISO8601ExpandedForm() throws {
        // Apple's VerifyDateTests (testAfterNotAfter) evaluate at 12 January 10000.
        let first = try XCTUnwrap(DERTime(secondsSince1970: 253_402_300_800))
        XCTAssertEqual([first.year, first.month, first.day, first.hour], [10_000, 1, 1, 0])
        XCTAssertEqual(first.description, "+10000-01-01T00:00:00Z")
        XCTAssertGreaterThan(first, try generalized("99991231235959Z"))
        let last = try XCTUnwrap(DERTime(secondsSince1970: 2_005_949_145_599))
        XCTAssertEqual([last.year, last.month, last.day, last.hour, last.minute, last.second], [DERTime.maximumYear, 12, 31, 23, 59, 59])
        XCTAssertEqual(last.description, "+65535-12-31T23:59:59Z")
        XCTAssertNil(DERTime(secondsSince1970: 2_005_949_145_600))
        let calendar = try XCTUnwrap(DERTime(year: 10_000, month: 2, day: 29, hour: 12, minute: 0, second: 0)) // 10000: divisible by 400
        XCTAssertEqual(calendar, DERTime(secondsSince1970: calendar.secondsSince1970))
        XCTAssertEqual(try generalized("99991231235959Z").description, "9999-12-31T23:59:59Z")
    }

    func testGeneralizedTimeStillHasFourDigitYears() {
        assertRejectedGeneralized("100000101000000Z")
    }
}
