// Punycode.swift
// RFC 3492 Punycode: a bootstring encoding of Unicode for IDNA.

/// RFC 3492 Punycode encoder and decoder.
///
/// This is the raw Bootstring transformation with the Punycode parameters;
/// it neither adds nor strips the IDNA `xn--` ACE prefix (see ``IDNA``).
///
/// Both directions are total functions that never trap: arithmetic overflow,
/// invalid digits, non-basic code points where only basic ones are allowed,
/// values that are not Unicode scalar values and over-long inputs all
/// produce `nil`. Work is bounded by ``maximumInputLength``: the algorithm is
/// quadratic in the input length, so longer inputs are refused up front.
///
/// The mixed-case annotation of RFC 3492 Appendix A is not used: the encoder
/// copies basic code points unchanged and emits lowercase digits, and the
/// decoder accepts digits in either case.
package enum Punycode {
    /// The largest number of input elements (Unicode scalars for
    /// ``encode(_:)``, characters for ``decode(_:)``) that is processed.
    ///
    /// Longer inputs make the functions return `nil`. The limit is far above
    /// anything usable in DNS (a label is at most 63 octets).
    package static let maximumInputLength = 4096

    // RFC 3492 section 5 parameter values for Punycode.
    private static let base: UInt32 = 36
    private static let tMin: UInt32 = 1
    private static let tMax: UInt32 = 26
    private static let skew: UInt32 = 38
    private static let damp: UInt32 = 700
    private static let initialBias: UInt32 = 72
    private static let initialN: UInt32 = 0x80
    private static let delimiter: UInt8 = UInt8(ascii: "-")

    /// Encodes a sequence of Unicode scalars as Punycode (RFC 3492 §6.3).
    ///
    /// Basic (ASCII) code points are copied to the output unchanged, followed
    /// by a `-` delimiter if there were any, followed by the encoded
    /// insertions of the non-basic code points, using lowercase digits.
    ///
    /// - Parameter unicodeScalars: The string to encode.
    /// - Returns: The Punycode string (without any `xn--` prefix), or `nil`
    ///   if the input is longer than ``maximumInputLength`` scalars or the
    ///   computation would overflow.
    package static func encode(_ unicodeScalars: some Sequence<Unicode.Scalar>) -> String? {
        var input: [UInt32] = []
        for scalar in unicodeScalars {
            guard input.count < maximumInputLength else { return nil }
            input.append(scalar.value)
        }

        var output: [UInt8] = []
        output.reserveCapacity(input.count * 2)
        for codePoint in input where codePoint < initialN {
            output.append(UInt8(truncatingIfNeeded: codePoint))
        }
        let basicCount = UInt32(truncatingIfNeeded: output.count)
        var handled = basicCount
        if basicCount > 0 {
            output.append(delimiter)
        }

        var n = initialN
        var delta: UInt32 = 0
        var bias = initialBias
        let total = UInt32(truncatingIfNeeded: input.count)

        while handled < total {
            // The smallest code point >= n still to be handled; one exists
            // because handled < total.
            var m = UInt32.max
            for codePoint in input where codePoint >= n && codePoint < m {
                m = codePoint
            }
            // delta += (m - n) * (handled + 1), checking for overflow.
            let (step, stepOverflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !stepOverflow else { return nil }
            let (newDelta, deltaOverflow) = delta.addingReportingOverflow(step)
            guard !deltaOverflow else { return nil }
            delta = newDelta
            n = m

            for codePoint in input {
                if codePoint < n {
                    let (incremented, overflow) = delta.addingReportingOverflow(1)
                    guard !overflow else { return nil }
                    delta = incremented
                }
                if codePoint == n {
                    // Represent delta as a generalized variable-length integer.
                    var q = delta
                    var k = base
                    while true {
                        let t = threshold(k: k, bias: bias)
                        if q < t { break }
                        let digit = t + (q - t) % (base - t)
                        output.append(encodeDigit(digit))
                        q = (q - t) / (base - t)
                        let (nextK, kOverflow) = k.addingReportingOverflow(base)
                        guard !kOverflow else { return nil }
                        k = nextK
                    }
                    output.append(encodeDigit(q))
                    bias = adapt(delta: delta, numPoints: handled + 1, firstTime: handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            let (nextDelta, overflow1) = delta.addingReportingOverflow(1)
            let (nextN, overflow2) = n.addingReportingOverflow(1)
            guard !overflow1, !overflow2 else { return nil }
            delta = nextDelta
            n = nextN
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes a Punycode string into Unicode scalars (RFC 3492 §6.2).
    ///
    /// Everything before the last `-` delimiter must be basic (ASCII) code
    /// points and is copied verbatim; the rest is decoded as generalized
    /// variable-length integers, with digits accepted in either case.
    ///
    /// - Parameter string: The Punycode string, without any `xn--` prefix.
    /// - Returns: The decoded scalars, or `nil` if the input is malformed
    ///   (non-basic code points, invalid or truncated digits, arithmetic
    ///   overflow, a result that is not a Unicode scalar value) or longer
    ///   than ``maximumInputLength``.
    package static func decode(_ string: Substring) -> [Unicode.Scalar]? {
        var input: [UInt8] = []
        for scalar in string.unicodeScalars {
            guard input.count < maximumInputLength, scalar.isASCII else { return nil }
            input.append(UInt8(truncatingIfNeeded: scalar.value))
        }

        var output: [UInt32] = []
        var position = 0
        if let lastDelimiter = input.lastIndex(of: delimiter) {
            if lastDelimiter > 0 {
                output = input[0..<lastDelimiter].map { UInt32($0) }
                position = lastDelimiter + 1
            }
        }

        var n = initialN
        var i: UInt32 = 0
        var bias = initialBias

        while position < input.count {
            let oldI = i
            var w: UInt32 = 1
            var k = base
            while true {
                guard position < input.count,
                    let digit = decodeDigit(input[position])
                else { return nil }
                position += 1
                // i += digit * w, checking for overflow.
                let (product, productOverflow) = digit.multipliedReportingOverflow(by: w)
                guard !productOverflow else { return nil }
                let (sum, sumOverflow) = i.addingReportingOverflow(product)
                guard !sumOverflow else { return nil }
                i = sum
                let t = threshold(k: k, bias: bias)
                if digit < t { break }
                // w *= (base - t), checking for overflow.
                let (newW, wOverflow) = w.multipliedReportingOverflow(by: base - t)
                guard !wOverflow else { return nil }
                w = newW
                let (nextK, kOverflow) = k.addingReportingOverflow(base)
                guard !kOverflow else { return nil }
                k = nextK
            }
            let length = UInt32(truncatingIfNeeded: output.count) + 1
            bias = adapt(delta: i - oldI, numPoints: length, firstTime: oldI == 0)
            // n += i / length, checking for overflow.
            let (newN, nOverflow) = n.addingReportingOverflow(i / length)
            guard !nOverflow else { return nil }
            n = newN
            i %= length
            // Basic code points must only appear in the literal portion.
            guard n >= initialN, Unicode.Scalar(n) != nil else { return nil }
            output.insert(n, at: Int(i))
            i += 1
        }

        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(output.count)
        for value in output {
            guard let scalar = Unicode.Scalar(value) else { return nil }
            scalars.append(scalar)
        }
        return scalars
    }

    /// The Bootstring threshold `t(k)`, clamped to `tMin...tMax`.
    private static func threshold(k: UInt32, bias: UInt32) -> UInt32 {
        if k <= bias { return tMin }
        if k >= bias + tMax { return tMax }
        return k - bias
    }

    /// The bias adaptation function of RFC 3492 §6.1.
    private static func adapt(delta: UInt32, numPoints: UInt32, firstTime: Bool) -> UInt32 {
        var delta = firstTime ? delta / damp : delta / 2
        delta += delta / numPoints
        var k: UInt32 = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (((base - tMin + 1) * delta) / (delta + skew))
    }

    /// Maps a digit value 0...35 to `a`...`z`, `0`...`9`.
    private static func encodeDigit(_ digit: UInt32) -> UInt8 {
        if digit < 26 {
            return UInt8(ascii: "a") + UInt8(truncatingIfNeeded: digit)
        }
        return UInt8(ascii: "0") + UInt8(truncatingIfNeeded: digit &- 26)
    }

    /// Maps `A`...`Z`/`a`...`z` to 0...25 and `0`...`9` to 26...35.
    private static func decodeDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"):
            return UInt32(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return UInt32(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return UInt32(byte - UInt8(ascii: "0")) + 26
        default:
            return nil
        }
    }
}
