/// Counts durations in logarithmic buckets to report percentiles cheaply (tick lateness).
struct LatencyHistogram: Sendable {
  /// Bucket `i` holds durations below 2^(i/4) microseconds, about 19% wide.
  private var buckets = [UInt64](repeating: 0, count: 128)
  private(set) var count: UInt64 = 0
  private(set) var maximum: Duration = .zero

  mutating func record(_ duration: Duration) {
    let micros = max(
      1.0,
      Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12)
    let index = min(buckets.count - 1, Int((log2(micros) * 4).rounded(.up)))
    buckets[index] += 1
    count += 1
    maximum = max(maximum, duration)
  }

  /// The upper bound of the bucket holding the `fraction` quantile, in milliseconds.
  func percentile(_ fraction: Double) -> Double {
    guard count > 0 else { return 0 }
    let rank = UInt64((Double(count) * fraction).rounded(.up))
    var seen: UInt64 = 0
    for (index, bucketCount) in buckets.enumerated() {
      seen += bucketCount
      if seen >= rank { return pow(2, Double(index) / 4) / 1000 }
    }
    return Double(maximum.components.seconds) * 1000
  }

  var maximumMilliseconds: Double {
    Double(maximum.components.seconds) * 1000 + Double(maximum.components.attoseconds) / 1e15
  }

  mutating func reset() {
    self = LatencyHistogram()
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
