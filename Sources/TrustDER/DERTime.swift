/// A UTC instant decoded from a DER UTCTime or GeneralizedTime, or a verify date, with second
/// precision.
///
/// DER gives years 0…9999 (GeneralizedTime has four digits); the type holds years up to
/// ``maximumYear`` so that a verify date past 9999 can be compared with them, as Apple's trustd
/// compares any `CFAbsoluteTime` (`SecCertificateIsValid`; its VerifyDateTests evaluate at
/// 12 January 10000). Comparisons use `secondsSince1970`, computed once at decode time. Stored in 16
/// bytes (every certificate holds two, a CRL one or two per entry): the calendar fields in their
/// ranges' widths.
public struct DERTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z (negative before).
    public let secondsSince1970: Int64
    private let storedYear: UInt16
    private let storedMonth: UInt8, storedDay: UInt8, storedHour: UInt8, storedMinute: UInt8, storedSecond: UInt8

    /// The latest year a time can have: the widest the 16-bit year field holds.
    public static let maximumYear = Int(UInt16.max)

    /// Calendar year, 0…``maximumYear`` (0…9999 when decoded from DER).
    public var year: Int { Int(storedYear) }
    /// Month, 1…12.
    public var month: Int { Int(storedMonth) }
    /// Day of month, 1…31 (checked against the month and leap years).
    public var day: Int { Int(storedDay) }
    /// Hour, 0…23.
    public var hour: Int { Int(storedHour) }
    /// Minute, 0…59.
    public var minute: Int { Int(storedMinute) }
    /// Second, 0…59 (leap seconds are not representable in X.509 validity).
    public var second: Int { Int(storedSecond) }

    /// Creates a time from calendar fields; nil when a field is out of range.
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        guard (0...DERTime.maximumYear).contains(year), (1...12).contains(month), (0...23).contains(hour),
            (0...59).contains(minute), (0...59).contains(second),
            day >= 1, day <= DERTime.daysIn(month: month, year: year)
        else { return nil }
        // Each field was checked to fit its width just above.
        storedYear = UInt16(truncatingIfNeeded: year)
        storedMonth = UInt8(truncatingIfNeeded: month)
        storedDay = UInt8(truncatingIfNeeded: day)
        storedHour = UInt8(truncatingIfNeeded: hour)
        storedMinute = UInt8(truncatingIfNeeded: minute)
        storedSecond = UInt8(truncatingIfNeeded: second)
        let days = DERTime.daysFromCivil(year: year, month: month, day: day)
        self.secondsSince1970 = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Creates a time from seconds since 1970 (UTC); nil outside years 0…``maximumYear``.
    public init?(secondsSince1970 seconds: Int64) {
        // 0000-01-01T00:00:00Z … 65535-12-31T23:59:59Z; checked first so the arithmetic below cannot
        // overflow (negating Int64.min, or flooring values near it, would trap).
        guard seconds >= -62_167_219_200, seconds <= 2_005_949_145_599 else { return nil }
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let rest = Int(seconds - days * 86_400)
        let (y, m, d) = DERTime.civilFromDays(days)
        self.init(year: y, month: m, day: d, hour: rest / 3600, minute: (rest / 60) % 60, second: rest % 60)
    }

    /// The whole second at or before an instant given as floating-point seconds since 1970 (what
    /// Foundation's `Date.timeIntervalSince1970` returns); nil when it is not finite or outside
    /// years 0…``maximumYear``.
    ///
    /// Use this, never `Int64(interval)`, to turn a caller's `Date` into a `DERTime`: the integer
    /// conversion traps on NaN, infinities and magnitudes of 2⁶³ or more, which a caller can pass.
    public init?(timeIntervalSince1970 interval: Double) {
        // `Int64(exactly:)` is nil for NaN, ±∞ and anything not representable: no trap.
        guard let seconds = Int64(exactly: interval.rounded(.down)) else { return nil }
        self.init(secondsSince1970: seconds)
    }

    /// ISO 8601 in UTC, e.g. `2026-06-01T00:00:00Z`; a year past 9999 in ISO 8601's expanded
    /// form, signed (`+10000-01-12T00:00:00Z`).
    public var description: String {
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(year > 9999 ? "+" : "")\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))Z"
    }

    /// Orders by instant.
    public static func < (lhs: DERTime, rhs: DERTime) -> Bool { lhs.secondsSince1970 < rhs.secondsSince1970 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64(month > 2 ? month - 3 : month + 9)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int64) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d))
    }
}

extension DERElement {
    /// Decodes a UTCTime (`YYMMDDHHMMSSZ`) or GeneralizedTime (`YYYYMMDDHHMMSSZ`) in exact DER form
    /// (see ``DERIndexedElement/time(in:)``).
    public func time() throws(DERError) -> DERTime { try indexed.time(in: encoded) }
}

extension DERIndexedElement {
    /// Decodes a UTCTime (`YYMMDDHHMMSSZ`) or GeneralizedTime (`YYYYMMDDHHMMSSZ`) in exact DER form;
    /// `bytes` are the bytes the element was read from.
    ///
    /// UTCTime years 50–99 are 19xx and 00–49 are 20xx (RFC 5280 §4.1.2.5.1). Fractional
    /// seconds, missing seconds, and offsets other than `Z` are rejected.
    public func time(in bytes: ArraySlice<UInt8>) throws(DERError) -> DERTime {
        let content = bytes[contentRange]
        let isUTC: Bool
        switch tag {
        case .utcTime: isUTC = true
        case .generalizedTime: isUTC = false
        default:
            throw DERError(.unexpectedTag(expected: "UTCTime or GeneralizedTime", found: tag.description), at: offset)
        }
        let digitCount = isUTC ? 12 : 14
        guard content.count == digitCount + 1, content.last == UInt8(ascii: "Z") else {
            throw DERError(.invalidTime, at: offset)
        }
        var digits = content.startIndex
        func take(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                let byte = content[digits]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
                digits += 1
            }
            return value
        }
        guard var year = take(isUTC ? 2 : 4), let month = take(2), let day = take(2),
            let hour = take(2), let minute = take(2), let second = take(2)
        else {
            throw DERError(.invalidTime, at: offset)
        }
        if isUTC { year += year >= 50 ? 1900 : 2000 }
        guard let time = DERTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
            throw DERError(.invalidTime, at: offset)
        }
        return time
    }
}
