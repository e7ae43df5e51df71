import ArgumentParser
import Foundation
import SwiftTrust

/// Dates on the command line and in test suites: RFC 3339 timestamps (`2026-06-01T00:00:00Z`, with
/// or without fractional seconds, `Z` or an offset such as `+02:00`), or a date alone
/// (`2026-06-01`) meaning midnight UTC; for years past 9999, which RFC 3339's four digits cannot
/// write, ISO 8601's expanded form (a sign and more digits: `+10000-01-12T00:00:00Z`, as Apple's
/// trustd tests evaluate at 12 January 10000) or seconds since 1970 (`@253402300800`, GNU date's
/// form). Years 0…`DERTime.maximumYear`.
///
/// Parsed by hand: Foundation's `ISO8601DateFormatter` builds an ICU formatter per use, which cost
/// more than a whole chain evaluation when `trustctl limbo` read one date per testcase.
enum ISO8601 {
    /// The forms `--at` accepts, for its help and its usage error.
    static let forms =
        "RFC 3339 (2026-06-01T00:00:00Z or 2026-06-01), an expanded year (+10000-01-01T00:00:00Z) "
        + "or seconds since 1970 (@253402300800)"

    /// `text` as the instant `option` stands for; a usage error naming the accepted forms otherwise.
    static func argument(_ text: String, option: String) throws -> Date {
        guard let date = parse(text) else {
            throw ValidationError("\(option) \(text) is not a date: use \(forms), years 0 to \(DERTime.maximumYear)")
        }
        return date
    }

    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        if bytes.first == UInt8(ascii: "@") { return epoch(bytes.dropFirst()) }
        var position = 0
        func number(_ digits: Int) -> Int? {
            guard position + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<(position + digits)] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            position += digits
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard position < bytes.count, let ascii = character.asciiValue, bytes[position] == ascii else { return false }
            position += 1
            return true
        }
        // ISO 8601's expanded representation: "+" and at least four digits (a year past 9999
        // has five or more). Negative years are not times X.509 has.
        let year: Int
        if expect("+") {
            let start = position
            while position < bytes.count, position - start < 6, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            let digits = position - start
            position = start
            guard digits >= 4, let expanded = number(digits) else { return nil }
            year = expanded
        } else {
            guard let plain = number(4) else { return nil }
            year = plain
        }
        guard expect("-"), let month = number(2), expect("-"), let day = number(2) else { return nil }
        if position == bytes.count {
            return DERTime(year: year, month: month, day: day, hour: 0, minute: 0, second: 0).map {
                Date(timeIntervalSince1970: Double($0.secondsSince1970))
            }
        }
        guard expect("T") || expect("t"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2)
        else { return nil }
        var fraction = 0.0
        if expect(".") {
            var scale = 0.1
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                fraction += Double(bytes[position] - UInt8(ascii: "0")) * scale
                scale /= 10
                position += 1
            }
            guard position > start else { return nil }
        }
        var offsetSeconds = 0
        if expect("Z") || expect("z") {
            offsetSeconds = 0
        } else if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
            let sign = bytes[position] == UInt8(ascii: "-") ? -1 : 1
            position += 1
            guard let hours = number(2), expect(":"), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard position == bytes.count,
            let time = DERTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        return Date(timeIntervalSince1970: Double(time.secondsSince1970 - Int64(offsetSeconds)) + fraction)
    }

    /// `@SECONDS` (after the `@`): an optional `-` and at most 15 digits, within the years
    /// `DERTime` holds.
    private static func epoch(_ bytes: ArraySlice<UInt8>) -> Date? {
        var digits = bytes[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 15,
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        var seconds: Int64 = 0
        for digit in digits { seconds = seconds * 10 + Int64(digit - UInt8(ascii: "0")) }
        guard let time = DERTime(secondsSince1970: negative ? -seconds : seconds) else { return nil }
        return Date(timeIntervalSince1970: Double(time.secondsSince1970))
    }
}
