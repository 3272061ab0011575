/// What every tile sharing one anchor needs: the reference orbit, where its point is, and its
/// BLA table.
public struct PerturbationReference: Sendable {
  /// How the reference point is chosen.
  public enum Search: Sendable, Equatable {
    /// The anchor's centre if its orbit lasts the cap, else the nucleus `NucleusSearch` finds,
    /// else the grid: what renders use.
    case nucleus
    /// The anchor's centre, then an 8 x 8 grid over the anchor, the first to last the cap or
    /// else the longest-lived (the search before the nucleus, kept to compare the two).
    case grid
  }

  /// Which point became the reference.
  public enum Choice: Sendable, Equatable {
    /// The anchor's centre, whose orbit lasts the cap.
    case centre
    /// The nucleus of a minibrot of this period: its orbit is one period of a cycle.
    case nucleus(period: Int)
    /// The grid point of this index (0 is the centre) among the candidates.
    case candidate(Int)
  }

  /// The orbit of the reference point.
  public let orbit: ReferenceOrbit
  /// The reference point as fine numerators from the anchor's centre (see
  /// `PerturbationViewport.fineBits`).
  let offset: (x: Int, y: Int)
  let table: BilinearTable
  /// The reference point rounded to doubles, for the smooth count's last few updates.
  let cx: Double
  let cy: Double
  /// How the point was found.
  public let choice: Choice
  /// `BigFixed` updates the search took, over every orbit it tried (the work that
  /// `NucleusSearch` saves).
  public let updates: Int

  /// Whether the orbit is one period of a cycle (Z_last is as good as 0), which pixels go
  /// round again and again, so that none outlives it.
  public var isPeriodic: Bool {
    if case .nucleus = choice { return true }
    return false
  }

  /// The reference for `viewport`'s anchor, found by `search`.
  public init(
    viewport: PerturbationViewport, maxIterations: Int, search: Search = .nucleus
  ) {
    // NB: without a cancellation the search cannot stop early, so it never throws.
    try! self.init(
      viewport: viewport, maxIterations: maxIterations, search: search, cancellation: nil)
  }

  /// The same, stopping with `RenderStopped` when `cancellation` says so.
  init(
    viewport: PerturbationViewport, maxIterations: Int, search: Search,
    cancellation: RenderCancellation?
  ) throws(RenderStopped) {
    let centre = viewport.point(at: (0, 0))
    let orbit = try ReferenceOrbit(
      cx: centre.x, cy: centre.y, maxIterations: maxIterations, cancellation: cancellation)
    if orbit.last == maxIterations {
      self.init(
        viewport: viewport, orbit: orbit, offset: (0, 0), point: centre, choice: .centre,
        updates: orbit.last)
      return
    }
    if search == .nucleus,
      let (offset, periodic, updates) = try NucleusSearch(viewport: viewport, centre: orbit).find(
        cancellation: cancellation)
    {
      self.init(
        viewport: viewport, orbit: periodic, offset: offset, point: viewport.point(at: offset),
        choice: .nucleus(period: periodic.last), updates: orbit.last + updates)
      return
    }
    try self.init(
      viewport: viewport, candidates: PerturbationViewport.candidates,
      maxIterations: maxIterations, first: (orbit, centre), cancellation: cancellation)
  }

  /// Picks the reference among `candidates` (fine numerators from the anchor's centre): the
  /// first whose orbit lasts `maxIterations`, else the longest; then builds its table. With
  /// `first`, the first candidate's orbit and point are already at hand.
  init(
    viewport: PerturbationViewport, candidates: [(x: Int, y: Int)], maxIterations: Int,
    first: (ReferenceOrbit, (x: BigFixed, y: BigFixed))? = nil,
    cancellation: RenderCancellation? = nil
  ) throws(RenderStopped) {
    var best: (orbit: ReferenceOrbit, index: Int, point: (x: BigFixed, y: BigFixed))?
    var updates = 0
    for (index, candidate) in candidates.enumerated() {
      let orbit: ReferenceOrbit
      let point: (x: BigFixed, y: BigFixed)
      if index == 0, let first {
        (orbit, point) = first
      } else {
        point = viewport.point(at: candidate)
        orbit = try ReferenceOrbit(
          cx: point.x, cy: point.y, maxIterations: maxIterations, cancellation: cancellation)
      }
      updates += orbit.last
      if orbit.last > best?.orbit.last ?? -1 { best = (orbit, index, point) }
      if orbit.last == maxIterations { break }
    }
    self.init(
      viewport: viewport, orbit: best!.orbit, offset: candidates[best!.index], point: best!.point,
      choice: .candidate(best!.index), updates: updates)
  }

  private init(
    viewport: PerturbationViewport, orbit: ReferenceOrbit, offset: (x: Int, y: Int),
    point: (x: BigFixed, y: BigFixed), choice: Choice, updates: Int
  ) {
    self.orbit = orbit
    self.offset = offset
    self.choice = choice
    self.updates = updates
    let (mantissa, exponent) = viewport.maxOffset(from: offset)
    table = BilinearTable(orbit: orbit, cMaxMantissa: mantissa, cMaxExponent: exponent)
    cx = point.x.doubleValue
    cy = point.y.doubleValue
  }

  /// Bytes held, for the cache's budget.
  public var bytes: Int { 16 * orbit.x.count + table.bytes }
}
