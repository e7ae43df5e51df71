import Foundation

extension CTPolicy {
    /// 2021-04-21T00:00:00Z: certificates issued from then on are counted by seconds of lifetime
    /// (`verify_embedded_sct_policy_v2`), those before by months (`_v1`); trustd's `apr_21_2021`.
    public static let lifetimeInSecondsFrom = Date(timeIntervalSince1970: 1_618_963_200)

    /// How many logs must have embedded SCTs in a leaf valid from `notBefore` to `notAfter`
    /// (trustd's A1 threshold).
    ///
    /// Issued before 2021-04-21, by whole calendar months of lifetime (UTC): fewer than 15 → 2,
    /// up to 27 → 3, up to 39 → 4, more → 5. From then on, by seconds: up to 180 days → 2, up to
    /// 825 days → 3, more → 4.
    public static func requiredEmbeddedLogCount(notBefore: Date, notAfter: Date) -> Int {
        if notBefore < lifetimeInSecondsFrom {
            // trustd's default when its calendar cannot say: 60 months.
            let months = lifetimeInMonths(from: notBefore, to: notAfter) ?? 60
            if months < 15 { return 2 }
            if months <= 27 { return 3 }
            if months <= 39 { return 4 }
            return 5
        }
        let lifetime = notAfter.timeIntervalSince(notBefore)
        if lifetime <= 180 * 86_400 { return 2 }
        if lifetime <= 825 * 86_400 { return 3 }
        return 4
    }

    /// Whole months from `start` to `end` in the Gregorian calendar, UTC (what
    /// `CFCalendarGetComponentDifference(zuluCalendar, …, "M")` answers).
    static func lifetimeInMonths(from start: Date, to end: Date) -> Int? {
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        return calendar.dateComponents([.month], from: start, to: end).month
    }
}
