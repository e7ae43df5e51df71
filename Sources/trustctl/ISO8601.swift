import Foundation
import SwiftTrust

/// Dates on the command line and in test suites: RFC 3339 timestamps (`2026-06-01T00:00:00Z`, with
/// or without fractional seconds, `Z` or an offset such as `+02:00`), or a date alone
/// (`2026-06-01`) meaning midnight UTC.
///
/// Parsed by hand: Foundation's `ISO8601DateFormatter` builds an ICU formatter per use, which cost
/// more than a whole chain evaluation when `trustctl limbo` read one date per testcase.
enum ISO8601 {
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
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
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2) else { return nil }
        if position == bytes.count {
            return DERTime(year: year, month: month, day: day, hour: 0, minute: 0, second: 0).map { Date(timeIntervalSince1970: Double($0.secondsSince1970)) }
        }
        guard expect("T") || expect("t"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
              let second = number(2) else { return nil }
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
              let time = DERTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else { return nil }
        return Date(timeIntervalSince1970: Double(time.secondsSince1970 - Int64(offsetSeconds)) + fraction)
    }
}
