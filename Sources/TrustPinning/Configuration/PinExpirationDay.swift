import Foundation

/// The `yyyy-MM-dd` day every format writes pin expirations in (Android's `pin-set expiration`,
/// TrustKit's `kTSKExpirationDate`, our JSON), read as midnight UTC at the start of that day.
enum PinExpirationDay {
    /// The instant the day starts, or nil when `text` is not a valid calendar day.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        let components = DateComponents(year: year, month: month, day: day)
        // Reject days that do not exist (2026-02-30) instead of letting the calendar roll them over.
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return date
    }

    /// `yyyy-MM-dd` of the UTC day `date` falls in.
    static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let year = parts.year ?? 0, month = parts.month ?? 0, day = parts.day ?? 0
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// `yyyy-MM-dd` when `date` is exactly the start of a UTC day (so writing it as a day keeps
    /// its meaning), else nil.
    static func exactDay(_ date: Date) -> String? {
        let text = format(date)
        return parse(text) == date ? text : nil
    }
}
