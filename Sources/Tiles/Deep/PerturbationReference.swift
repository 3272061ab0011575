/// What every tile sharing one anchor needs: the reference orbit and its BLA table.
public struct PerturbationReference: Sendable {
  /// The orbit of the anchor's centre.
  public let orbit: ReferenceOrbit
  let table: BilinearTable
  /// The reference point rounded to doubles, for the smooth count's last few updates.
  let cx: Double
  let cy: Double

  /// Computes the orbit of `viewport`'s reference point to `maxIterations`, and its table.
  public init(viewport: PerturbationViewport, maxIterations: Int) {
    let (x, y) = viewport.reference
    orbit = ReferenceOrbit(cx: x, cy: y, maxIterations: maxIterations)
    let (mantissa, exponent) = viewport.maxOffset
    table = BilinearTable(orbit: orbit, cMaxMantissa: mantissa, cMaxExponent: exponent)
    cx = x.doubleValue
    cy = y.doubleValue
  }

  /// Bytes held, for the cache's budget.
  public var bytes: Int { 16 * orbit.x.count + table.bytes }
}
