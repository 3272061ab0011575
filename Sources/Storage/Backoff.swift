/// Exponential backoff: `base` seconds with nothing failed, then 2^n times `base` after n
/// failures in a row, never more than `maximum`.
struct Backoff: Equatable {
  /// The wait with no failure (seconds).
  let base: Double
  /// The longest wait (seconds); never shorter than `base`.
  let maximum: Double

  init(base: Double, maximum: Double) {
    self.base = base
    self.maximum = max(base, maximum)
  }

  /// The wait after `failures` failures in a row.
  func delay(afterFailures failures: Int) -> Double {
    guard failures > 0 else { return base }
    return min(maximum, base * Double(1 << min(failures, 30)))
  }
}
