/// Closed-form tests for the two largest components of the set, whose points never escape.
enum InteriorTest {
  /// The squared bound on the multiplier of the attracting cycle, 1 - 2e-6: points whose cycle
  /// is that close to neutral are iterated like any other.
  ///
  /// NB: near a component's boundary the attracting cycle is nearly neutral (|λ| = 1 - η), and
  /// for η below about 1e-8 the rounding of a plain double loop can push the orbit out through
  /// the pinched basin, so the loop the counts must match could escape. A margin on |λ| itself
  /// keeps every shortcut answer far from that.
  static let multiplierBound = 1 - 2e-6

  /// Per lane, whether c lies inside the main cardioid or the period-2 bulb with
  /// |λ|² ≤ `multiplierBound`, so that its count is exactly the maximum without iterating.
  @inline(__always)
  static func contains(
    real x: SIMD4<Double>, imaginary y: SIMD4<Double>
  ) -> SIMDMask<SIMD4<Int64>> {
    let y2 = y * y
    // Period-2 bulb: the 2-cycle's multiplier is 4(c + 1).
    let xb = x + 1
    let bulb = xb * xb + y2 .<= SIMD4(repeating: multiplierBound / 16)
    // The classic cardioid test, q(q + x - 1/4) ≤ y²/4, holds iff |λ| ≤ 1.
    let xq = x - 0.25
    let q = xq * xq + y2
    let cardioid = q * (q + xq) .<= 0.25 * y2
    guard any(cardioid) else { return bulb }
    // The fixed point's multiplier is λ = 1 - w with w = sqrt(u), u = 1 - 4c, so
    // |λ|² = 1 - 2 Re w + |u| and Re w = sqrt((|u| + Re u) / 2): one square root, no branch cut.
    let ux = 1 - 4 * x
    let uy = -4 * y
    let modulus = (ux * ux + uy * uy).squareRoot()
    let t = 1 + modulus - multiplierBound
    let margin = t .<= 0 .| (2 * (modulus + ux) .>= t * t)
    return bulb .| (cardioid .& margin)
  }

  /// `contains` for one point.
  static func contains(real x: Double, imaginary y: Double) -> Bool {
    contains(real: SIMD4(repeating: x), imaginary: SIMD4(repeating: y))[0]
  }
}
