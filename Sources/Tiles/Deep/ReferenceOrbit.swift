/// The orbit Z_0 = 0, Z_(m+1) = Z_m² + C of one reference point C, iterated in `BigFixed` and
/// stored as doubles (|Z| ≤ 2 until the last entry, which may be the first past the bailout).
public struct ReferenceOrbit: Sendable {
  /// Real parts of Z_0 ... Z_last.
  public let x: [Double]
  /// Imaginary parts of Z_0 ... Z_last.
  public let y: [Double]

  /// The index of the last stored value: the cap, or where the orbit left |Z|² ≤ 4.
  public var last: Int { x.count - 1 }

  /// Iterates C = (cx, cy) exactly (truncated products) up to `maxIterations` updates.
  public init(cx: BigFixed, cy: BigFixed, maxIterations: Int) {
    var zx = BigFixed(limbCount: cx.limbCount)
    var zy = zx
    var xs = [0.0]
    var ys = [0.0]
    xs.reserveCapacity(maxIterations + 1)
    ys.reserveCapacity(maxIterations + 1)
    for _ in 0..<maxIterations {
      let real = (zx + zy) * (zx - zy) + cx
      zy = (zx * zy).doubled + cy
      zx = real
      let (dx, dy) = (zx.doubleValue, zy.doubleValue)
      xs.append(dx)
      ys.append(dy)
      if dx * dx + dy * dy > 4 { break }
    }
    x = xs
    y = ys
  }
}
