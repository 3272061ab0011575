extension LaneBlock {
  /// Iterates the 16 lanes as two SIMD8<Double> until a lane escapes or the counter reaches
  /// `deadline`; returns the counter and a bit per lane that escaped.
  @inline(never)
  static func iterateEight(
    _ values: UnsafeMutablePointer<Double>, from iteration: Int, until deadline: Int
  ) -> (iteration: Int, stopped: Int) {
    var unused = Int.max
    return advanceEight(
      values, periodic: false, from: iteration, until: deadline, nextSave: &unused, savePeriod: 0)
  }

  /// `iterateEight` that also stops when a lane's x equals its saved x (the caller checks y),
  /// and saves every lane's z each time the counter reaches `nextSave`.
  @inline(never)
  static func iterateEightPeriodic(
    _ values: UnsafeMutablePointer<Double>, from iteration: Int, until deadline: Int,
    nextSave: inout Int, savePeriod: Int
  ) -> (iteration: Int, stopped: Int) {
    advanceEight(
      values, periodic: true, from: iteration, until: deadline, nextSave: &nextSave,
      savePeriod: savePeriod)
  }
  // NB: the AVX-512 shape of `advanceFour`: two SIMD8<Double> vectors interleaved.
  @inline(__always)
  private static func advanceEight(
    _ values: UnsafeMutablePointer<Double>, periodic: Bool, from start: Int, until deadline: Int,
    nextSave: inout Int, savePeriod: Int
  ) -> (iteration: Int, stopped: Int) {
    typealias Vector = SIMD8<Double>
    typealias Mask = SIMD8<Int64>
    func load(_ row: LaneValues.Row, _ index: Int) -> Vector { LaneValues.load(values, row, index) }
    func store(_ vector: Vector, _ row: LaneValues.Row, _ index: Int) {
      LaneValues.store(vector, values, row, index)
    }
    func bits(_ stop: SIMDMask<Mask>, _ index: Int) -> Int {
      Int((stop._storage & Mask(1, 2, 4, 8, 16, 32, 64, 128)).wrappedSum()) << (8 * index)
    }
    var x0 = load(.x, 0)
    var x1 = load(.x, 1)
    var y0 = load(.y, 0)
    var y1 = load(.y, 1)
    let cx0 = load(.cx, 0)
    let cx1 = load(.cx, 1)
    let cy0 = load(.cy, 0)
    let cy1 = load(.cy, 1)
    var sx0 = load(.savedX, 0)
    var sx1 = load(.savedX, 1)
    let four = Vector(repeating: 4)
    var iteration = start
    while true {
      let xx0 = x0 * x0
      let xx1 = x1 * x1
      let yy0 = y0 * y0
      let yy1 = y1 * y1
      var stop0 = xx0 + yy0 .> four
      var stop1 = xx1 + yy1 .> four
      if periodic {
        stop0 .|= x0 .== sx0
        stop1 .|= x1 .== sx1
      }
      if any(stop0 .| stop1) || iteration == deadline { break }
      if periodic && iteration == nextSave {
        (sx0, sx1) = (x0, x1)
        store(y0, .savedY, 0)
        store(y1, .savedY, 1)
        nextSave += savePeriod
      }
      let xy0 = x0 * y0
      let xy1 = x1 * y1
      y0 = xy0 + xy0 + cy0
      y1 = xy1 + xy1 + cy1
      x0 = xx0 - yy0 + cx0
      x1 = xx1 - yy1 + cx1
      iteration += 1
    }
    store(x0, .x, 0)
    store(x1, .x, 1)
    store(y0, .y, 0)
    store(y1, .y, 1)
    store(sx0, .savedX, 0)
    store(sx1, .savedX, 1)
    // NB: recomputed here rather than kept from the loop, which then stays free of mask moves.
    var stop0 = x0 * x0 + y0 * y0 .> four
    if periodic { stop0 .|= x0 .== sx0 }
    var stop1 = x1 * x1 + y1 * y1 .> four
    if periodic { stop1 .|= x1 .== sx1 }
    return (iteration, bits(stop0, 0) | bits(stop1, 1))
  }
}
