/// A reference orbit laid out for `PerturbationLanes`: one record (Z_m.x, Z_m.y, radius, 0) per
/// m, so one 32-byte load per lane fetches all a plain step needs.
///
/// A lane whose delta is below its index's radius (as |re| + |im|) must leave the SIMD loop:
/// at m ≥ 1 the radius is the single BLA step's (0 with BLA off), so every longer step the
/// scalar loop would take is found; at m = 0, just after a rebase, it is
/// `PerturbationLoop.extendedCeiling` in renders whose deltas may need extended form, else 0.
// NB: a class so that the threads of a pass share one copy; it never changes after init.
final class LaneOrbit: @unchecked Sendable {
  let records: UnsafeMutablePointer<SIMD4<Double>>
  /// The index of the last record.
  let last: Int
  /// Whether some radius is above 0, so lanes may have to leave the loop for a scalar step.
  let hasRadii: Bool

  init(_ loop: PerturbationLoop) {
    last = loop.zx.count - 1
    records = .allocate(capacity: last + 1)
    let singles = loop.table?.levels.first ?? []
    var hasRadii = loop.extended
    for m in 0...last {
      var radius = 0.0
      if m == 0 {
        radius = loop.extended ? PerturbationLoop.extendedCeiling : 0
      } else if m - 1 < singles.count {
        radius = singles[m - 1].radius
        hasRadii = hasRadii || radius > 0
      }
      (records + m).initialize(to: SIMD4(loop.zx[m], loop.zy[m], radius, 0))
    }
    self.hasRadii = hasRadii
  }

  deinit {
    records.deallocate()
  }
}
