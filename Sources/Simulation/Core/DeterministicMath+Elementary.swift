extension DeterministicMath {
  /// ln 2 split as fdlibm does: the high part has 32 significant bits, so k times it is exact
  /// for |k| < 2^20.
  private static let ln2High = 6.931_471_803_691_238_164_90e-01
  private static let ln2Low = 1.908_214_929_270_587_700_02e-10

  /// e^x from plain IEEE arithmetic (a few ulps; 0 below -745, infinity above 709.78).
  static func exp(_ x: Double) -> Double {
    guard !x.isNaN else { return x }
    guard x <= 709.78 else { return .infinity }
    guard x >= -745.2 else { return 0 }
    let k = (x * 1.442_695_040_888_963_4).rounded()
    let r = (x - k * ln2High) - k * ln2Low
    // Taylor series to r^17/17!: the first omitted term is below 2^-60 for |r| ≤ ln 2 / 2.
    var sum = 1.0
    for n in stride(from: 17, through: 1, by: -1) { sum = 1 + sum * r / Double(n) }
    // NB: scaled in two steps so that 2^k never underflows before the product does.
    let exponent = Int(k)
    let half = exponent / 2
    return sum * Double(sign: .plus, exponent: half, significand: 1)
      * Double(sign: .plus, exponent: exponent - half, significand: 1)
  }

  /// ln x for x > 0 (NaN for x < 0 or NaN, -infinity at 0) from plain IEEE arithmetic.
  static func log(_ x: Double) -> Double {
    guard x > 0, x.isFinite else {
      if x == 0 { return -.infinity }
      return x == .infinity ? x : .nan
    }
    // x = m · 2^e with m in [√½, √2); ln m = 2 atanh(s) with s = (m − 1)/(m + 1), |s| < 0.172.
    var m = x.significand
    var e = x.exponent
    if m > 1.414_213_562_373_095_1 {
      m /= 2
      e += 1
    }
    let s = (m - 1) / (m + 1)
    let s2 = s * s
    var sum = 0.0
    for n in stride(from: 25, through: 3, by: -2) { sum = (sum + 1 / Double(n)) * s2 }
    let lnM = 2 * s * (1 + sum)
    let k = Double(e)
    return k * ln2High + (k * ln2Low + lnM)
  }

  /// x^y for x > 0, as e^(y ln x).
  static func pow(_ x: Double, _ y: Double) -> Double {
    exp(y * log(x))
  }

  /// The angle of (x, y) in radians, in (−π, π], from plain IEEE arithmetic.
  static func atan2(_ y: Double, _ x: Double) -> Double {
    guard !x.isNaN, !y.isNaN else { return .nan }
    if x > 0 { return atan(y / x) }
    if x < 0 { return y >= 0 ? atan(y / x) + .pi : atan(y / x) - .pi }
    if y > 0 { return .pi / 2 }
    if y < 0 { return -.pi / 2 }
    return 0
  }

  /// The arc tangent in radians, in [−π/2, π/2].
  static func atan(_ x: Double) -> Double {
    guard !x.isNaN else { return x }
    let magnitude = abs(x)
    // Reduce to [0, 1] by atan(a) = π/2 − atan(1/a), then to |u| ≤ tan(π/12) by
    // atan(t) = π/6 + atan((t√3 − 1)/(t + √3)).
    let reciprocal = magnitude > 1
    let t = reciprocal ? 1 / magnitude : magnitude
    let sqrt3 = 1.732_050_807_568_877_2
    let shifted = t > 0.267_949_192_431_122_7
    let u = shifted ? (t * sqrt3 - 1) / (t + sqrt3) : t
    // Taylor series to u^35: the first omitted term is below 2^-60 for |u| ≤ 0.268.
    let u2 = u * u
    var sum = 0.0
    for n in stride(from: 35, through: 3, by: -2) {
      sum = (1 / Double(n) - sum) * u2
    }
    var angle = u * (1 - sum)
    if shifted { angle += .pi / 6 }
    if reciprocal { angle = .pi / 2 - angle }
    return x < 0 ? -angle : angle
  }
}
