extension PerturbationLanes {
  typealias Vector = SIMD4<Double>
  typealias Indices = SIMD4<Int64>

  /// Runs the SIMD loop over the 16 lanes, specialised for whether `orbit` has radii to check;
  /// returns the counter and a bit per lane that escaped or fell below its radius.
  @inline(__always)
  static func iterate(
    _ values: UnsafeMutablePointer<Double>, _ references: UnsafeMutablePointer<Int64>,
    _ orbit: LaneOrbit, from iteration: Int, until deadline: Int
  ) -> (iteration: Int, stopped: Int) {
    if orbit.hasRadii {
      return iterateFourChecked(
        values, references, orbit.records, last: orbit.last, from: iteration, until: deadline)
    }
    return iterateFour(
      values, references, orbit.records, last: orbit.last, from: iteration, until: deadline)
  }

  /// Plain updates of the 16 lanes as four SIMD4<Double> until a lane escapes or the counter
  /// reaches `deadline`.
  @inline(never)
  static func iterateFour(
    _ values: UnsafeMutablePointer<Double>, _ references: UnsafeMutablePointer<Int64>,
    _ records: UnsafePointer<SIMD4<Double>>, last: Int, from iteration: Int, until deadline: Int
  ) -> (iteration: Int, stopped: Int) {
    advanceFour(
      values, references, records, last: last, radii: false, from: iteration, until: deadline)
  }

  /// `iterateFour` that also stops when a lane's delta falls below its record's radius.
  @inline(never)
  static func iterateFourChecked(
    _ values: UnsafeMutablePointer<Double>, _ references: UnsafeMutablePointer<Int64>,
    _ records: UnsafePointer<SIMD4<Double>>, last: Int, from iteration: Int, until deadline: Int
  ) -> (iteration: Int, stopped: Int) {
    advanceFour(
      values, references, records, last: last, radii: true, from: iteration, until: deadline)
  }

  // NB: concrete SIMD4<Double>, four vectors in flight to hide the dependency chain of one
  // update, as in `LaneBlock.advanceFour`.
  @inline(__always)
  private static func advanceFour(
    _ values: UnsafeMutablePointer<Double>, _ references: UnsafeMutablePointer<Int64>,
    _ records: UnsafePointer<SIMD4<Double>>, last: Int, radii: Bool, from start: Int,
    until deadline: Int
  ) -> (iteration: Int, stopped: Int) {
    func load(_ row: Row, _ index: Int) -> Vector {
      UnsafeRawPointer(values + row.offset + 4 * index).loadUnaligned(as: Vector.self)
    }
    func store(_ vector: Vector, _ row: Row, _ index: Int) {
      UnsafeMutableRawPointer(values + row.offset + 4 * index).storeBytes(
        of: vector, as: Vector.self)
    }
    func loadReferences(_ index: Int) -> Indices {
      UnsafeRawPointer(references + 4 * index).loadUnaligned(as: Indices.self)
    }
    func storeReferences(_ vector: Indices, _ index: Int) {
      UnsafeMutableRawPointer(references + 4 * index).storeBytes(of: vector, as: Indices.self)
    }
    func bits(_ stop: SIMDMask<Indices>, _ index: Int) -> Int {
      Int((stop._storage & Indices(1, 2, 4, 8)).wrappedSum()) << (4 * index)
    }
    var dx0 = load(.dx, 0)
    var dx1 = load(.dx, 1)
    var dx2 = load(.dx, 2)
    var dx3 = load(.dx, 3)
    var dy0 = load(.dy, 0)
    var dy1 = load(.dy, 1)
    var dy2 = load(.dy, 2)
    var dy3 = load(.dy, 3)
    var zx0 = load(.zx, 0)
    var zx1 = load(.zx, 1)
    var zx2 = load(.zx, 2)
    var zx3 = load(.zx, 3)
    var zy0 = load(.zy, 0)
    var zy1 = load(.zy, 1)
    var zy2 = load(.zy, 2)
    var zy3 = load(.zy, 3)
    var m0 = loadReferences(0)
    var m1 = loadReferences(1)
    var m2 = loadReferences(2)
    var m3 = loadReferences(3)
    let dcx0 = load(.dcx, 0)
    let dcx1 = load(.dcx, 1)
    let dcx2 = load(.dcx, 2)
    let dcx3 = load(.dcx, 3)
    let dcy0 = load(.dcy, 0)
    let dcy1 = load(.dcy, 1)
    let dcy2 = load(.dcy, 2)
    let dcy3 = load(.dcy, 3)
    let ends = Indices(repeating: Int64(last))
    let radius0 = Vector(repeating: records[0][2])
    var iteration = start
    while true {
      let stop0 = step(
        &dx0, &dy0, &zx0, &zy0, &m0, dcx: dcx0, dcy: dcy0, records, ends: ends,
        radii: radii, radius0: radius0)
      let stop1 = step(
        &dx1, &dy1, &zx1, &zy1, &m1, dcx: dcx1, dcy: dcy1, records, ends: ends,
        radii: radii, radius0: radius0)
      let stop2 = step(
        &dx2, &dy2, &zx2, &zy2, &m2, dcx: dcx2, dcy: dcy2, records, ends: ends,
        radii: radii, radius0: radius0)
      let stop3 = step(
        &dx3, &dy3, &zx3, &zy3, &m3, dcx: dcx3, dcy: dcy3, records, ends: ends,
        radii: radii, radius0: radius0)
      iteration += 1
      guard any((stop0 .| stop1) .| (stop2 .| stop3)) || iteration == deadline else { continue }
      store(dx0, .dx, 0)
      store(dx1, .dx, 1)
      store(dx2, .dx, 2)
      store(dx3, .dx, 3)
      store(dy0, .dy, 0)
      store(dy1, .dy, 1)
      store(dy2, .dy, 2)
      store(dy3, .dy, 3)
      store(zx0, .zx, 0)
      store(zx1, .zx, 1)
      store(zx2, .zx, 2)
      store(zx3, .zx, 3)
      store(zy0, .zy, 0)
      store(zy1, .zy, 1)
      store(zy2, .zy, 2)
      store(zy3, .zy, 3)
      storeReferences(m0, 0)
      storeReferences(m1, 1)
      storeReferences(m2, 2)
      storeReferences(m3, 3)
      return (iteration, bits(stop0, 0) | bits(stop1, 1) | bits(stop2, 2) | bits(stop3, 3))
    }
  }

  /// One plain update of four lanes, with the scalar loop's operations in its order: z ←
  /// (2·Z_m + z)·z + dc, m ← m + 1, then the rebase (z ← Z_m + z, m ← 0) where |Z_m + z| < |z| or
  /// m is the orbit's end. Returns the lanes that escaped or, with `radii`, whose delta is
  /// below their record's radius.
  // NB: transparent, because the optimizer stops inlining even `@inline(__always)` functions
  // into a caller this large, and three of the four calls stayed calls (measured).
  @_transparent
  private static func step(
    _ dx: inout Vector, _ dy: inout Vector, _ zx: inout Vector, _ zy: inout Vector,
    _ m: inout Indices, dcx: Vector, dcy: Vector, _ records: UnsafePointer<SIMD4<Double>>,
    ends: Indices, radii: Bool, radius0: Vector
  ) -> SIMDMask<Indices> {
    let tx = 2 * zx + dx
    let ty = 2 * zy + dy
    let nx = tx * dx - ty * dy + dcx
    let ny = tx * dy + ty * dx + dcy
    let next = m &+ 1
    let r0 = records[Int(next[0])]
    let r1 = records[Int(next[1])]
    let r2 = records[Int(next[2])]
    let r3 = records[Int(next[3])]
    let gx = Vector(r0[0], r1[0], r2[0], r3[0])
    let gy = Vector(r0[1], r1[1], r2[1], r3[1])
    let fx = gx + nx
    let fy = gy + ny
    let escaped = fx * fx + fy * fy .> 4
    let fNorm = magnitude(fx) + magnitude(fy)
    let nNorm = magnitude(nx) + magnitude(ny)
    let rebase = (fNorm .< nNorm) .| (next .== ends)
    dx = nx.replacing(with: fx, where: rebase)
    dy = ny.replacing(with: fy, where: rebase)
    zx = gx.replacing(with: 0, where: rebase)
    zy = gy.replacing(with: 0, where: rebase)
    m = next.replacing(with: 0, where: rebase)
    guard radii else { return escaped }
    let radius = Vector(r0[2], r1[2], r2[2], r3[2]).replacing(with: radius0, where: rebase)
    let norm = nNorm.replacing(with: fNorm, where: rebase)
    return escaped .| (norm .< radius)
  }

  /// |v| lane by lane: the sign bits cleared, as `abs` does.
  @inline(__always)
  private static func magnitude(_ vector: Vector) -> Vector {
    unsafeBitCast(
      unsafeBitCast(vector, to: SIMD4<UInt64>.self) & 0x7fff_ffff_ffff_ffff, to: Vector.self)
  }
}
