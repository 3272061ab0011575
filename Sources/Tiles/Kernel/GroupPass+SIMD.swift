extension GroupPass {
  /// Iterates the 16 lanes as four SIMD4<Double> for at most `limit` updates, counting each
  /// lane's updates while |z|² ≤ 4; leaves z and the counts in `values`.
  @inline(never)
  static func iterateFour(_ values: UnsafeMutablePointer<Double>, limit: Int) {
    typealias Vector = SIMD4<Double>
    typealias Mask = SIMD4<Int64>
    func load(_ row: LaneValues.Row, _ index: Int) -> Vector { LaneValues.load(values, row, index) }
    func store(_ vector: Vector, _ row: LaneValues.Row, _ index: Int) {
      LaneValues.store(vector, values, row, index)
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
    var n0 = Vector()
    var n1 = Vector()
    var n2 = Vector()
    var n3 = Vector()
    let four = Vector(repeating: 4)
    let one = Vector(repeating: 1)
    // NB: 1.0 in active lanes by masking its bits: a select here compiles to mask shuffles.
    func ones(where active: Mask) -> Vector {
      unsafeBitCast(unsafeBitCast(one, to: Mask.self) & active, to: Vector.self)
    }
    // NB: a lane still counts iff its count equals the updates done so far, so no mask has to
    // be carried from one iteration to the next (a carried mask makes `any` a slow reduction).
    var done = Vector()
    for _ in 0..<limit {
      let xx0 = x0 * x0
      let xx1 = x1 * x1
      let xx2 = x2 * x2
      let xx3 = x3 * x3
      let yy0 = y0 * y0
      let yy1 = y1 * y1
      let yy2 = y2 * y2
      let yy3 = y3 * y3
      let active0 = (xx0 + yy0 .<= four)._storage & (n0 .== done)._storage
      let active1 = (xx1 + yy1 .<= four)._storage & (n1 .== done)._storage
      let active2 = (xx2 + yy2 .<= four)._storage & (n2 .== done)._storage
      let active3 = (xx3 + yy3 .<= four)._storage & (n3 .== done)._storage
      if (active0 | active1) | (active2 | active3) == Mask() { break }
      n0 += ones(where: active0)
      n1 += ones(where: active1)
      n2 += ones(where: active2)
      n3 += ones(where: active3)
      done += one
      let xy0 = x0 * y0
      let xy1 = x1 * y1
      let xy2 = x2 * y2
      let xy3 = x3 * y3
      y0 = xy0 + xy0 + cy0
      y1 = xy1 + xy1 + cy1
      y2 = xy2 + xy2 + cy2
      y3 = xy3 + xy3 + cy3
      x0 = xx0 - yy0 + cx0
      x1 = xx1 - yy1 + cx1
      x2 = xx2 - yy2 + cx2
      x3 = xx3 - yy3 + cx3
    }
    store(x0, .x, 0)
    store(x1, .x, 1)
    store(x2, .x, 2)
    store(x3, .x, 3)
    store(y0, .y, 0)
    store(y1, .y, 1)
    store(y2, .y, 2)
    store(y3, .y, 3)
    store(n0, .count, 0)
    store(n1, .count, 1)
    store(n2, .count, 2)
    store(n3, .count, 3)
  }

  /// `iterateFour` as two SIMD8<Double> vectors, for AVX-512.
  @inline(never)
  static func iterateEight(_ values: UnsafeMutablePointer<Double>, limit: Int) {
    typealias Vector = SIMD8<Double>
    typealias Mask = SIMD8<Int64>
    func load(_ row: LaneValues.Row, _ index: Int) -> Vector { LaneValues.load(values, row, index) }
    func store(_ vector: Vector, _ row: LaneValues.Row, _ index: Int) {
      LaneValues.store(vector, values, row, index)
    }
    var x0 = load(.x, 0)
    var x1 = load(.x, 1)
    var y0 = load(.y, 0)
    var y1 = load(.y, 1)
    let cx0 = load(.cx, 0)
    let cx1 = load(.cx, 1)
    let cy0 = load(.cy, 0)
    let cy1 = load(.cy, 1)
    var n0 = Vector()
    var n1 = Vector()
    let four = Vector(repeating: 4)
    let one = Vector(repeating: 1)
    // NB: 1.0 in active lanes by masking its bits: a select here compiles to mask shuffles.
    func ones(where active: Mask) -> Vector {
      unsafeBitCast(unsafeBitCast(one, to: Mask.self) & active, to: Vector.self)
    }
    // NB: a lane still counts iff its count equals the updates done so far, so no mask has to
    // be carried from one iteration to the next (a carried mask makes `any` a slow reduction).
    var done = Vector()
    for _ in 0..<limit {
      let xx0 = x0 * x0
      let xx1 = x1 * x1
      let yy0 = y0 * y0
      let yy1 = y1 * y1
      let active0 = (xx0 + yy0 .<= four)._storage & (n0 .== done)._storage
      let active1 = (xx1 + yy1 .<= four)._storage & (n1 .== done)._storage
      if active0 | active1 == Mask() { break }
      n0 += ones(where: active0)
      n1 += ones(where: active1)
      done += one
      let xy0 = x0 * y0
      let xy1 = x1 * y1
      y0 = xy0 + xy0 + cy0
      y1 = xy1 + xy1 + cy1
      x0 = xx0 - yy0 + cx0
      x1 = xx1 - yy1 + cx1
    }
    store(x0, .x, 0)
    store(x1, .x, 1)
    store(y0, .y, 0)
    store(y1, .y, 1)
    store(n0, .count, 0)
    store(n1, .count, 1)
  }
}
