/// xoshiro256** seeded through SplitMix64: the only source of randomness in the models.
///
/// Its output is fixed by the algorithm (Blackman and Vigna), so replays match on every
/// platform. Deliberately not a `RandomNumberGenerator`: the standard library's
/// `random(in:using:)` algorithms are not promised to stay the same across Swift versions.
struct SeededGenerator: Codable, Sendable, Equatable {
  private var s0: UInt64
  private var s1: UInt64
  private var s2: UInt64
  private var s3: UInt64

  /// Expands a 64-bit seed into the 256-bit state with SplitMix64.
  init(seed: UInt64) {
    var mix = seed
    func splitMix() -> UInt64 {
      mix &+= 0x9E37_79B9_7F4A_7C15
      var z = mix
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    s0 = splitMix()
    s1 = splitMix()
    s2 = splitMix()
    s3 = splitMix()
  }

  /// The next 64 random bits.
  mutating func next() -> UInt64 {
    let result = (s1 &* 5).rotatedLeft(by: 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = s3.rotatedLeft(by: 45)
    return result
  }

  /// A uniform double in [0, 1) with 53 random bits.
  mutating func nextUnit() -> Double {
    Double(next() >> 11) * 0x1p-53
  }

  /// A uniform double in `range` (the upper bound is reached only when the range is a point).
  mutating func next(in range: ClosedRange<Double>) -> Double {
    range.lowerBound + (range.upperBound - range.lowerBound) * nextUnit()
  }

  /// A uniform integer in 0..<bound (Lemire's multiply-shift with rejection; bound > 0).
  mutating func next(below bound: Int) -> Int {
    let limit = UInt64(bound)
    var product = next().multipliedFullWidth(by: limit)
    if product.low < limit {
      let threshold = (0 &- limit) % limit
      while product.low < threshold { product = next().multipliedFullWidth(by: limit) }
    }
    return Int(product.high)
  }
}

extension UInt64 {
  fileprivate func rotatedLeft(by count: UInt64) -> UInt64 {
    (self << count) | (self >> (64 - count))
  }
}
