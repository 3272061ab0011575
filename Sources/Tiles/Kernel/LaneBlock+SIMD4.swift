extension LaneBlock {
  /// Iterates the 16 lanes as four SIMD4<Double> until a lane escapes or the counter reaches
  /// `deadline`; returns the counter and a bit per lane that escaped.
  @inline(never)
  static func iterateFour(
    _ values: UnsafeMutablePointer<Double>, from iteration: Int, until deadline: Int
  ) -> (iteration: Int, stopped: Int) {
    var unused = Int.max
    return advanceFour(
      values, periodic: false, from: iteration, until: deadline, nextSave: &unused, savePeriod: 0)
  }

  /// `iterateFour` that also stops when a lane's x equals its saved x (the caller checks y),
  /// and saves every lane's z each time the counter reaches `nextSave`.
  @inline(never)
  static func iterateFourPeriodic(
    _ values: UnsafeMutablePointer<Double>, from iteration: Int, until deadline: Int,
    nextSave: inout Int, savePeriod: Int
  ) -> (iteration: Int, stopped: Int) {
    advanceFour(
      values, periodic: true, from: iteration, until: deadline, nextSave: &nextSave,
      savePeriod: savePeriod)
  }
  // NB: written against the concrete SIMD4<Double>, four vectors interleaved to hide the
  // nine-cycle dependency chain of one update; generic SIMD code was measured 3 to 6 times slower.
  // The periodic loop compares x alone and keeps the saved y in memory: fewer live registers.
  @inline(__always)
  private static func advanceFour(
    _ values: UnsafeMutablePointer<Double>, periodic: Bool, from start: Int, until deadline: Int,
    nextSave: inout Int, savePeriod: Int
  ) -> (iteration: Int, stopped: Int) {
    typealias Vector = SIMD4<Double>
    typealias Mask = SIMD4<Int64>
    func load(_ row: LaneValues.Row, _ index: Int) -> Vector { LaneValues.load(values, row, index) }
    func store(_ vector: Vector, _ row: LaneValues.Row, _ index: Int) {
      LaneValues.store(vector, values, row, index)
    }
    func bits(_ stop: SIMDMask<Mask>, _ index: Int) -> Int {
      Int((stop._storage & Mask(1, 2, 4, 8)).wrappedSum()) << (4 * index)
    }
    var x0 = load(.x, 0)
    var x1 = load(.x, 1)
    var x2 = load(.x, 2)
    var x3 = load(.x, 3)
    var y0 = load(.y, 0)
    var y1 = load(.y, 1)
    var y2 = load(.y, 2)
    var y3 = load(.y, 3)
    let cx0 = load(.cx, 0)
    let cx1 = load(.cx, 1)
    let cx2 = load(.cx, 2)
    let cx3 = load(.cx, 3)
    let cy0 = load(.cy, 0)
    let cy1 = load(.cy, 1)
    let cy2 = load(.cy, 2)
    let cy3 = load(.cy, 3)
    var sx0 = load(.savedX, 0)
    var sx1 = load(.savedX, 1)
    var sx2 = load(.savedX, 2)
    var sx3 = load(.savedX, 3)
    let four = Vector(repeating: 4)
    var iteration = start
    while true {
      let xx0 = x0 * x0
      let xx1 = x1 * x1
      let xx2 = x2 * x2
      let xx3 = x3 * x3
      let yy0 = y0 * y0
      let yy1 = y1 * y1
      let yy2 = y2 * y2
      let yy3 = y3 * y3
      var stop0 = xx0 + yy0 .> four
      var stop1 = xx1 + yy1 .> four
      var stop2 = xx2 + yy2 .> four
      var stop3 = xx3 + yy3 .> four
      if periodic {
        stop0 .|= x0 .== sx0
        stop1 .|= x1 .== sx1
        stop2 .|= x2 .== sx2
        stop3 .|= x3 .== sx3
      }
      if any((stop0 .| stop1) .| (stop2 .| stop3)) || iteration == deadline { break }
      if periodic && iteration == nextSave {
        (sx0, sx1, sx2, sx3) = (x0, x1, x2, x3)
        store(y0, .savedY, 0)
        store(y1, .savedY, 1)
        store(y2, .savedY, 2)
        store(y3, .savedY, 3)
        nextSave += savePeriod
      }
      let xy0 = x0 * y0
      let xy1 = x1 * y1
      let xy2 = x2 * y2
      let xy3 = x3 * y3
      // NB: (xy + xy) + cy and (xx - yy) + cx, exactly the scalar loop's operations and order.
      y0 = xy0 + xy0 + cy0
      y1 = xy1 + xy1 + cy1
      y2 = xy2 + xy2 + cy2
      y3 = xy3 + xy3 + cy3
      x0 = xx0 - yy0 + cx0
      x1 = xx1 - yy1 + cx1
      x2 = xx2 - yy2 + cx2
      x3 = xx3 - yy3 + cx3
      iteration += 1
    }
    store(x0, .x, 0)
    store(x1, .x, 1)
    store(x2, .x, 2)
    store(x3, .x, 3)
    store(y0, .y, 0)
    store(y1, .y, 1)
    store(y2, .y, 2)
    store(y3, .y, 3)
    store(sx0, .savedX, 0)
    store(sx1, .savedX, 1)
    store(sx2, .savedX, 2)
    store(sx3, .savedX, 3)
    // NB: recomputed here rather than kept from the loop, which then stays free of mask moves.
    var stop0 = x0 * x0 + y0 * y0 .> four
    if periodic { stop0 .|= x0 .== sx0 }
    var stop1 = x1 * x1 + y1 * y1 .> four
    if periodic { stop1 .|= x1 .== sx1 }
    var stop2 = x2 * x2 + y2 * y2 .> four
    if periodic { stop2 .|= x2 .== sx2 }
    var stop3 = x3 * x3 + y3 * y3 .> four
    if periodic { stop3 .|= x3 .== sx3 }
    return (iteration, bits(stop0, 0) | bits(stop1, 1) | bits(stop2, 2) | bits(stop3, 3))
  }
}
