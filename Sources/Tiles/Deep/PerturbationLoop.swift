/// One pixel's escape count by perturbation: z is the pixel's difference from the reference
/// orbit Z, updated as z ← (2·Z_m + z)·z + dc. When Z_m + z gets smaller than z (or the
/// reference ends) the pixel rebases onto the start of the reference, z ← Z_m + z, m ← 0, so
/// one reference serves the whole view with no glitches to detect (Zhuoran, 2021). BLA steps
/// skip iterations while z is small. Deltas too small for doubles run in extended form until
/// they grow past 2^-500.
struct PerturbationLoop {
  let zx: UnsafeBufferPointer<Double>
  let zy: UnsafeBufferPointer<Double>
  let table: BilinearTable?
  let maxIterations: Int
  /// Whether deltas may leave the double range, so must start (and may return) in extended form.
  let extended: Bool

  /// A delta at least this large (as |re| + |im|) stays in doubles.
  static let doubleFloor = 0x1p-500
  /// A double delta below this, after a rebase in an extended render, returns to extended form.
  static let extendedCeiling = 0x1p-600

  /// The escape count of the pixel at offset dc and the full z where it stopped.
  @inline(__always)
  func iterate(dcx: Double, dcy: Double, extendedOffset: ExtendedComplex) -> (
    count: Int, x: Double, y: Double
  ) {
    let last = zx.count - 1
    var n = 0
    var m = 0
    var dx = 0.0
    var dy = 0.0
    var small = extended ? ExtendedComplex.zero : nil
    while n < maxIterations {
      if let start = small {
        (n, m, dx, dy) = extendedLeg(start, from: n, reference: m, dc: extendedOffset)
        small = nil
        let (fx, fy) = (zx[m] + dx, zy[m] + dy)
        if fx * fx + fy * fy > 4 { return (n, fx, fy) }
        continue
      }
      if let step = bilinearStep(from: n, reference: m, dx: dx, dy: dy, dcx: dcx, dcy: dcy) {
        (n, m, dx, dy) = step
      } else {
        let tx = 2 * zx[m] + dx
        let ty = 2 * zy[m] + dy
        (dx, dy) = (tx * dx - ty * dy + dcx, tx * dy + ty * dx + dcy)
        m += 1
        n += 1
      }
      let fx = zx[m] + dx
      let fy = zy[m] + dy
      if fx * fx + fy * fy > 4 { return (n, fx, fy) }
      if abs(fx) + abs(fy) < abs(dx) + abs(dy) || m == last {
        dx = fx
        dy = fy
        m = 0
        if extended && abs(dx) + abs(dy) < Self.extendedCeiling {
          small = ExtendedComplex(dx, dy)
        }
      }
    }
    return (maxIterations, zx[m] + dx, zy[m] + dy)
  }

  /// The longest valid BLA step from iteration n at reference index m with delta (dx, dy), as
  /// the new n, m and delta; nil when none is valid (or BLA is off).
  @inline(__always)
  func bilinearStep(
    from n: Int, reference m: Int, dx: Double, dy: Double, dcx: Double, dcy: Double
  ) -> (Int, Int, Double, Double)? {
    guard let table, m > 0,
      let (step, length) = table.step(
        from: m, norm: abs(dx) + abs(dy), log2Norm: -.infinity, remaining: maxIterations - n)
    else { return nil }
    return (
      n + length, m + length,
      step.ax * dx - step.ay * dy + step.bx * dcx - step.by * dcy,
      step.ax * dy + step.ay * dx + step.bx * dcy + step.by * dcx
    )
  }

  /// `iterateExtended` with its delta returned as doubles.
  func extendedLeg(
    _ start: ExtendedComplex, from n: Int, reference m: Int, dc: ExtendedComplex
  ) -> (Int, Int, Double, Double) {
    let (count, reference, delta) = iterateExtended(start, from: n, reference: m, dc: dc)
    let (dx, dy) = delta.doubles
    return (count, reference, dx, dy)
  }

  /// Iterates an extended delta from iteration n at reference index m until it is large enough
  /// for doubles, the cap is reached, or it rebases; returns the new n, m and delta.
  private func iterateExtended(
    _ start: ExtendedComplex, from n: Int, reference m: Int, dc: ExtendedComplex
  ) -> (Int, Int, ExtendedComplex) {
    let last = zx.count - 1
    var n = n
    var m = m
    var z = start
    while n < maxIterations && (z.isZero || z.log2Norm < -500) {
      if let table, m > 0, !z.isZero,
        let (step, length) = table.step(
          from: m, norm: 0, log2Norm: z.log2Norm, remaining: maxIterations - n)
      {
        z = z.scaled(step.ax, step.ay) + dc.scaled(step.bx, step.by)
        m += length
        n += length
      } else {
        let twice = ExtendedComplex(2 * zx[m], 2 * zy[m]) + z
        z = twice * z + dc
        m += 1
        n += 1
      }
      let full = ExtendedComplex(zx[m], zy[m]) + z
      if m == last || full.log2Norm < z.log2Norm {
        z = full
        m = 0
      }
    }
    return (n, m, z)
  }
}
