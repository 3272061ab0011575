extension PerturbationLoop {
  /// Where `settle` leaves a pixel.
  enum Settled {
    /// The pixel is done: its count (the cap when it never escaped) and the full z there.
    case finished(count: Int, x: Double, y: Double)
    /// The pixel's next update is a plain one, from n updates at reference index m with delta
    /// (dx, dy), whose escape has been checked.
    case plain(n: Int, m: Int, dx: Double, dy: Double)
  }

  /// Takes the steps of `iterate` that the lane loop leaves to scalar code (BLA steps, and
  /// deltas in extended form when `small` is given) from a pixel that has n updates at
  /// reference index m, until its next update would be a plain one or it is done. The result
  /// is the same as `iterate` reaching that state.
  func settle(
    n: Int, m: Int, dx: Double, dy: Double, small: ExtendedComplex?, dcx: Double, dcy: Double,
    extendedOffset: ExtendedComplex
  ) -> Settled {
    let last = zx.count - 1
    var (n, m, dx, dy, small) = (n, m, dx, dy, small)
    while n < maxIterations {
      if let start = small {
        (n, m, dx, dy) = extendedLeg(start, from: n, reference: m, dc: extendedOffset)
        small = nil
        let (fx, fy) = (zx[m] + dx, zy[m] + dy)
        if fx * fx + fy * fy > 4 { return .finished(count: n, x: fx, y: fy) }
        continue
      }
      guard let step = bilinearStep(from: n, reference: m, dx: dx, dy: dy, dcx: dcx, dcy: dcy)
      else { return .plain(n: n, m: m, dx: dx, dy: dy) }
      (n, m, dx, dy) = step
      let fx = zx[m] + dx
      let fy = zy[m] + dy
      if fx * fx + fy * fy > 4 { return .finished(count: n, x: fx, y: fy) }
      if abs(fx) + abs(fy) < abs(dx) + abs(dy) || m == last {
        (dx, dy, m) = (fx, fy, 0)
        if extended && abs(dx) + abs(dy) < Self.extendedCeiling {
          small = ExtendedComplex(dx, dy)
        }
      }
    }
    return .finished(count: maxIterations, x: zx[m] + dx, y: zy[m] + dy)
  }
}
