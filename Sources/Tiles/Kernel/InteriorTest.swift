/// Closed-form tests for the two largest components of the set, whose points never escape.
enum InteriorTest {
  /// Whether c lies well inside the main cardioid or the period-2 bulb, so its count is exactly
  /// the maximum without iterating.
  ///
  /// NB: the tests keep a relative margin of 1e-6 from the boundary. Right at the boundary the
  /// attracting cycle is nearly neutral (multiplier 1 - η), and for η below about 1e-8 the
  /// rounding of a plain double loop can push the orbit out, so the loop the counts must match
  /// could escape. Points inside the margin are iterated like any other; they cost a few pixels.
  @inline(__always)
  static func contains(real x: Double, imaginary y: Double) -> Bool {
    let y2 = y * y
    let xq = x - 0.25
    let q = xq * xq + y2
    let lhs = q * (q + xq)
    let rhs = 0.25 * y2
    if lhs - rhs <= -1e-6 * (lhs.magnitude + rhs) { return true }
    let xb = x + 1
    return xb * xb + y2 <= 0.0625 * (1 - 1e-6)
  }
}
