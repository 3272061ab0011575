import TestSupport

extension SplitMix64 {
  /// -1, 0 or 1.
  mutating func offset() -> Int {
    Int(next() % 3) - 1
  }
}
