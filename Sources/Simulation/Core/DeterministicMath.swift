/// Sine and cosine computed with plain IEEE arithmetic, so results are identical on every
/// platform (libm's differ in the last bit between Glibc and Darwin, which would break golden
/// hashes). Square roots need nothing special: IEEE 754 rounds them correctly everywhere.
enum DeterministicMath {
  /// sin(x); accurate to a few ulps for |x| up to about 1e6.
  static func sin(_ x: Double) -> Double {
    let (quadrant, r) = reduce(x)
    switch quadrant {
    case 0: return sinKernel(r)
    case 1: return cosKernel(r)
    case 2: return -sinKernel(r)
    default: return -cosKernel(r)
    }
  }

  /// cos(x); accurate to a few ulps for |x| up to about 1e6.
  static func cos(_ x: Double) -> Double {
    let (quadrant, r) = reduce(x)
    switch quadrant {
    case 0: return cosKernel(r)
    case 1: return -sinKernel(r)
    case 2: return -cosKernel(r)
    default: return sinKernel(r)
    }
  }

  /// Writes x = k·π/2 + r with |r| ≤ π/4 (Cody–Waite with fdlibm's split of π/2: the first two
  /// parts have 33 significant bits, so k times them is exact for |k| < 2^20).
  private static func reduce(_ x: Double) -> (quadrant: Int, r: Double) {
    let k = (x * 0x1.45f306dc9c883p-1).rounded()
    let r = ((x - k * 0x1.921fb544p0) - k * 0x1.0b4611a6p-34) - k * 2.022_266_248_795_950_6e-21
    guard k.isFinite else { return (0, .nan) }
    // NB: past |k| = 2^20 the split is no longer exact, and `Int(k)` traps past Int.max (a
    // restored angle of 1e300, found by fuzzing): fold x into one turn first (an exact
    // remainder, so still deterministic; no model gets there in years of ticks).
    guard abs(k) < 0x1p20 else { return reduce(x.truncatingRemainder(dividingBy: 2 * .pi)) }
    return (Int(k) & 3, r)
  }

  // Taylor series to the 17th power: the first omitted term is below 2^-54 on |r| ≤ π/4.
  private static func sinKernel(_ r: Double) -> Double {
    let r2 = r * r
    var sum = 1.0 / 355_687_428_096_000.0
    sum = sum * -r2 + 1.0 / 1_307_674_368_000.0
    sum = sum * -r2 + 1.0 / 6_227_020_800.0
    sum = sum * -r2 + 1.0 / 39_916_800.0
    sum = sum * -r2 + 1.0 / 362_880.0
    sum = sum * -r2 + 1.0 / 5_040.0
    sum = sum * -r2 + 1.0 / 120.0
    sum = sum * -r2 + 1.0 / 6.0
    sum = sum * -r2 + 1.0
    return r * sum
  }

  private static func cosKernel(_ r: Double) -> Double {
    let r2 = r * r
    var sum = 1.0 / 6_402_373_705_728_000.0
    sum = sum * -r2 + 1.0 / 20_922_789_888_000.0
    sum = sum * -r2 + 1.0 / 87_178_291_200.0
    sum = sum * -r2 + 1.0 / 479_001_600.0
    sum = sum * -r2 + 1.0 / 3_628_800.0
    sum = sum * -r2 + 1.0 / 40_320.0
    sum = sum * -r2 + 1.0 / 720.0
    sum = sum * -r2 + 1.0 / 24.0
    sum = sum * -r2 + 0.5
    return 1.0 - r2 * sum
  }
}
