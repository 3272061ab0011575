/// What every tile sharing one anchor needs: the reference orbit, where its point is, and its
/// BLA table.
public struct PerturbationReference: Sendable {
  /// The orbit of the reference point.
  public let orbit: ReferenceOrbit
  /// The reference point as numerators from the anchor's centre (see `PerturbationViewport`).
  let offset: (x: Int, y: Int)
  let table: BilinearTable
  /// The reference point rounded to doubles, for the smooth count's last few updates.
  let cx: Double
  let cy: Double

  /// The reference for `viewport`'s anchor, among `PerturbationViewport.candidates`.
  public init(viewport: PerturbationViewport, maxIterations: Int) {
    self.init(
      viewport: viewport, candidates: PerturbationViewport.candidates,
      maxIterations: maxIterations)
  }

  /// Picks the reference among `candidates` (numerators from the anchor's centre): the first
  /// whose orbit lasts `maxIterations`, else the longest; then builds its table.
  init(viewport: PerturbationViewport, candidates: [(x: Int, y: Int)], maxIterations: Int) {
    var best: (orbit: ReferenceOrbit, offset: (x: Int, y: Int), point: (BigFixed, BigFixed))?
    for candidate in candidates {
      let point = viewport.point(at: candidate)
      let orbit = ReferenceOrbit(cx: point.x, cy: point.y, maxIterations: maxIterations)
      if orbit.last > best?.orbit.last ?? -1 { best = (orbit, candidate, point) }
      if orbit.last == maxIterations { break }
    }
    orbit = best!.orbit
    offset = best!.offset
    let (mantissa, exponent) = viewport.maxOffset
    table = BilinearTable(orbit: orbit, cMaxMantissa: mantissa, cMaxExponent: exponent)
    cx = best!.point.0.doubleValue
    cy = best!.point.1.doubleValue
  }

  /// Bytes held, for the cache's budget.
  public var bytes: Int { 16 * orbit.x.count + table.bytes }
}
