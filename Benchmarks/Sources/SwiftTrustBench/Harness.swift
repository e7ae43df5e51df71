// A small benchmark harness: warm-up, auto-calibrated batches (~10 ms a sample), N samples per
// contender, contenders of a group interleaved sample by sample (rotating the order) so that
// ratios can be taken pair by pair within one run, on a `ContinuousClock`.

/// Something to time: `run(n)` performs `n` iterations and returns how many succeeded
/// (a failed iteration marks the measurement as failed instead of timing an error path).
struct Contender: Sendable {
    let id: String
    let run: @Sendable (Int) async -> Int
    /// Runs untimed after each of this contender's samples (e.g. to restore state it disturbed).
    var after: (@Sendable () async -> Void)? = nil

    init(id: String, after: (@Sendable () async -> Void)? = nil, run: @escaping @Sendable (Int) async -> Int) {
        self.id = id
        self.run = run
        self.after = after
    }
}

/// Summary statistics of a set of per-iteration times, in microseconds.
struct Stats: Sendable, Codable {
    let median: Double
    let p10: Double
    let p90: Double
    let min: Double
    let count: Int

    init(_ values: [Double]) {
        let sorted = values.sorted()
        func quantile(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            let position = q * Double(sorted.count - 1)
            let lower = Int(position.rounded(.down)), upper = Int(position.rounded(.up))
            let fraction = position - Double(lower)
            return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
        }
        median = quantile(0.5)
        p10 = quantile(0.1)
        p90 = quantile(0.9)
        min = sorted.first ?? .nan
        count = sorted.count
    }
}

/// The outcome of timing one contender.
struct Measurement: Sendable, Codable {
    let id: String
    /// Per-iteration times (µs), one per sample.
    let samples: [Double]
    let batch: Int
    let failure: String?
    var stats: Stats { Stats(samples) }
    var ok: Bool { failure == nil && !samples.isEmpty }
}

struct HarnessConfiguration: Sendable {
    var samples = 51
    var sampleTarget: Duration = .milliseconds(10)
    var warmUp: Duration = .milliseconds(40)
}

func microseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
}

/// Times the contenders of one group, interleaved, and returns one measurement per contender.
func measureGroup(_ contenders: [Contender], configuration: HarnessConfiguration) async -> [String: Measurement] {
    let clock = ContinuousClock()
    var batches: [String: Int] = [:]
    var failures: [String: String] = [:]

    // Check, warm up and calibrate each contender.
    for contender in contenders {
        let succeeded = await contender.run(1)
        await contender.after?()
        guard succeeded == 1 else {
            failures[contender.id] = "operation failed"
            continue
        }
        var n = 1
        var perIteration = 0.0
        let warmUpEnd = clock.now.advanced(by: configuration.warmUp)
        while true {
            let start = clock.now
            let done = await contender.run(n)
            let elapsed = clock.now - start
            await contender.after?()
            if done != n { failures[contender.id] = "operation failed during warm-up"; break }
            perIteration = microseconds(elapsed) / Double(n)
            if elapsed >= configuration.sampleTarget / 4 && clock.now >= warmUpEnd { break }
            if elapsed < configuration.sampleTarget / 4 { n = min(n * 4, 1 << 24) }
        }
        let target = microseconds(configuration.sampleTarget)
        batches[contender.id] = max(1, Int((target / max(perIteration, 1e-3)).rounded()))
    }

    var samples: [String: [Double]] = [:]
    let active = contenders.filter { failures[$0.id] == nil }
    for sample in 0..<configuration.samples {
        for offset in 0..<active.count {
            let contender = active[(sample + offset) % active.count]
            guard failures[contender.id] == nil, let batch = batches[contender.id] else { continue }
            let start = clock.now
            let done = await contender.run(batch)
            let elapsed = clock.now - start
            await contender.after?()
            if done != batch {
                failures[contender.id] = "operation failed while sampling"
                continue
            }
            samples[contender.id, default: []].append(microseconds(elapsed) / Double(batch))
        }
    }
    var result: [String: Measurement] = [:]
    for contender in contenders {
        result[contender.id] = Measurement(
            id: contender.id, samples: samples[contender.id] ?? [],
            batch: batches[contender.id] ?? 0, failure: failures[contender.id])
    }
    return result
}

/// Ratios taken sample by sample: `numerator[i] / denominator[i]` (both measured in the same
/// round of the same group), summarised.
func pairedRatio(_ numerator: Measurement?, _ denominator: Measurement?) -> Stats? {
    guard let numerator, let denominator, numerator.ok, denominator.ok else { return nil }
    let count = min(numerator.samples.count, denominator.samples.count)
    guard count > 0 else { return nil }
    return Stats((0..<count).map { numerator.samples[$0] / denominator.samples[$0] })
}

/// `numerator[i] / (a[i] + b[i])`, pair by pair.
func pairedRatio(_ numerator: Measurement?, sumOf a: Measurement?, _ b: Measurement?) -> Stats? {
    guard let numerator, let a, let b, numerator.ok, a.ok, b.ok else { return nil }
    let count = min(numerator.samples.count, a.samples.count, b.samples.count)
    guard count > 0 else { return nil }
    return Stats((0..<count).map { numerator.samples[$0] / (a.samples[$0] + b.samples[$0]) })
}

/// A sink the optimiser cannot see through.
@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
