import Foundation
import TrustDER

/// The times Certificate Transparency reads and writes: RFC 3339 text in log lists, milliseconds
/// since 1970 in SCTs (RFC 6962 §3.2).
enum CTTime {
    /// `2018-01-01T00:00:00Z`, with optional fractional seconds and a `Z` or `±hh:mm` offset
    /// (RFC 3339 §5.6); nil for anything else.
    static func date(rfc3339 text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 64 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x74, bytes[13] == 0x3A, bytes[16] == 0x3A,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            let time = DERTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        var position = 19
        var fraction = 0.0
        if bytes[position] == 0x2E {
            var scale = 0.1
            position += 1
            let start = position
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                fraction += Double(bytes[position] - 0x30) * scale
                scale /= 10
                position += 1
            }
            guard position > start else { return nil }
        }
        guard position < bytes.count else { return nil }
        var offset = 0
        switch bytes[position] {
        case 0x5A, 0x7A:
            guard position + 1 == bytes.count else { return nil }
        case 0x2B, 0x2D:
            guard position + 6 == bytes.count, bytes[position + 3] == 0x3A,
                let hours = number((position + 1)..<(position + 3)), let minutes = number((position + 4)..<(position + 6)),
                hours < 24, minutes < 60
            else { return nil }
            offset = (hours * 60 + minutes) * 60 * (bytes[position] == 0x2B ? 1 : -1)
        default:
            return nil
        }
        return Date(timeIntervalSince1970: Double(time.secondsSince1970 - Int64(offset)) + fraction)
    }

    /// A date in ISO 8601 (UTC), to the second.
    static func text(_ date: Date) -> String {
        DERTime(timeIntervalSince1970: date.timeIntervalSince1970).map(\.description) ?? "\(date.timeIntervalSince1970) s since 1970"
    }
}
