/// Sixteen pixels' perturbation deltas in flight, updated together by a SIMD loop and refilled
/// one lane at a time as their pixels finish, like the plain kernel's `LaneBlock`.
///
/// Each lane has its own reference index m (rebasing sets it to 0 at different times), so the
/// loop gathers one `LaneOrbit` record per lane and step. It does plain updates only, with the
/// scalar loop's operations in its order, and stops as soon as a lane escapes, reaches the cap,
/// or has a delta below its record's radius; the scalar `PerturbationLoop.settle` then takes
/// that lane's BLA steps (or extended-range leg) and hands it back. So every pixel gets the
/// same count and z as `PerturbationLoop.iterate`, bit for bit.
struct PerturbationLanes: ~Copyable {
  static let lanes = 16

  /// The quantities kept per lane.
  enum Row: Int, CaseIterable {
    /// The delta z.
    case dx = 0
    case dy
    /// Z_m for the lane's m.
    case zx
    case zy
    /// The pixel's offset from the reference.
    case dcx
    case dcy

    var offset: Int { rawValue * PerturbationLanes.lanes }
  }

  /// The rows, one after another.
  let values: UnsafeMutablePointer<Double>
  /// The reference index m of each lane.
  let references: UnsafeMutablePointer<Int64>
  /// The iteration counter's value when each lane's count was 0.
  let starts: UnsafeMutablePointer<Int>
  /// The pixel in each lane, -1 when the lane is idle.
  let pixels: UnsafeMutablePointer<Int>

  init() {
    let count = Row.allCases.count * Self.lanes
    values = .allocate(capacity: count)
    values.initialize(repeating: 0, count: count)
    references = .allocate(capacity: Self.lanes)
    references.initialize(repeating: 0, count: Self.lanes)
    starts = .allocate(capacity: Self.lanes)
    starts.initialize(repeating: Int.max / 2, count: Self.lanes)
    pixels = .allocate(capacity: Self.lanes)
    pixels.initialize(repeating: -1, count: Self.lanes)
  }

  deinit {
    values.deallocate()
    references.deallocate()
    starts.deallocate()
    pixels.deallocate()
  }

  /// The value of `row` in `lane`.
  @inline(__always)
  subscript(row: Row, lane: Int) -> Double {
    get { values[row.offset + lane] }
    nonmutating set { values[row.offset + lane] = newValue }
  }

  /// What a lane's pixel needs from the render: its offset from the reference, in doubles and in
  /// extended form.
  struct Offsets {
    var dcx: Double
    var dcy: Double
    var extended: ExtendedComplex
  }

  /// Iterates every pixel `next` hands out to its end, against `orbit`, and hands each to
  /// `finish` with its count and the full z where it stopped (`iterate`'s results).
  mutating func run(
    _ loop: PerturbationLoop, orbit: LaneOrbit, next: () -> Int?,
    offsets: (Int) -> Offsets,
    finish: (_ pixel: Int, _ count: Int, _ x: Double, _ y: Double) -> Void
  ) {
    var iteration = 0
    var live = 0
    for lane in 0..<Self.lanes {
      if fill(lane, at: iteration, loop, orbit, next, offsets, finish) {
        live += 1
      } else {
        idle(lane)
      }
    }
    while live > 0 {
      let deadline = earliestStart() + loop.maxIterations
      var stopped: Int
      (iteration, stopped) = Self.iterate(
        values, references, orbit, from: iteration, until: deadline)
      if iteration == deadline {
        for lane in 0..<Self.lanes where starts[lane] + loop.maxIterations == iteration {
          stopped |= 1 << lane
        }
      }
      while stopped != 0 {
        let lane = stopped.trailingZeroBitCount
        stopped &= stopped - 1
        if resume(lane, at: iteration, loop, orbit, offsets, finish) { continue }
        if !fill(lane, at: iteration, loop, orbit, next, offsets, finish) {
          idle(lane)
          live -= 1
        }
      }
    }
  }

  /// Loads pixels from `next` into `lane` until one needs plain updates (pixels that `settle`
  /// finishes at once are written out); false when `next` runs dry.
  private func fill(
    _ lane: Int, at iteration: Int, _ loop: PerturbationLoop, _ orbit: LaneOrbit,
    _ next: () -> Int?, _ offsets: (Int) -> Offsets,
    _ finish: (Int, Int, Double, Double) -> Void
  ) -> Bool {
    while let pixel = next() {
      let offset = offsets(pixel)
      let settled = loop.settle(
        n: 0, m: 0, dx: 0, dy: 0, small: loop.extended ? .zero : nil, dcx: offset.dcx,
        dcy: offset.dcy, extendedOffset: offset.extended)
      self[.dcx, lane] = offset.dcx
      self[.dcy, lane] = offset.dcy
      pixels[lane] = pixel
      if place(lane, settled, at: iteration, orbit, finish) { return true }
    }
    return false
  }

  /// Takes over a lane the SIMD loop stopped: writes its pixel out if it escaped or reached the
  /// cap, else settles it and puts it back; true when the lane holds a pixel again.
  private func resume(
    _ lane: Int, at iteration: Int, _ loop: PerturbationLoop, _ orbit: LaneOrbit,
    _ offsets: (Int) -> Offsets, _ finish: (Int, Int, Double, Double) -> Void
  ) -> Bool {
    let pixel = pixels[lane]
    let count = iteration - starts[lane]
    let m = Int(references[lane])
    let (dx, dy) = (self[.dx, lane], self[.dy, lane])
    let record = orbit.records[m]
    // NB: after a rebase m = 0 and Z_0 = 0, so this is the z the loop tested in either case.
    let (fx, fy) = (record[0] + dx, record[1] + dy)
    // NB: the order follows the scalar loop, which stops at the cap before anything else.
    if count >= loop.maxIterations {
      finish(pixel, loop.maxIterations, fx, fy)
      return false
    }
    if fx * fx + fy * fy > 4 {
      finish(pixel, count, fx, fy)
      return false
    }
    let small =
      m == 0 && abs(dx) + abs(dy) < record[2] ? ExtendedComplex(dx, dy) : nil
    let settled = loop.settle(
      n: count, m: m, dx: dx, dy: dy, small: small, dcx: self[.dcx, lane],
      dcy: self[.dcy, lane], extendedOffset: loop.extended ? offsets(pixel).extended : .zero)
    return place(lane, settled, at: iteration, orbit, finish)
  }

  /// Puts a settled pixel into `lane` as if it had been iterating since `iteration - n`, or
  /// writes it out when it is finished; true when the lane holds it.
  private func place(
    _ lane: Int, _ settled: PerturbationLoop.Settled, at iteration: Int,
    _ orbit: LaneOrbit, _ finish: (Int, Int, Double, Double) -> Void
  ) -> Bool {
    switch settled {
    case .finished(let count, let x, let y):
      finish(pixels[lane], count, x, y)
      return false
    case .plain(let n, let m, let dx, let dy):
      let record = orbit.records[m]
      self[.dx, lane] = dx
      self[.dy, lane] = dy
      self[.zx, lane] = record[0]
      self[.zy, lane] = record[1]
      references[lane] = Int64(m)
      starts[lane] = iteration - n
      return true
    }
  }

  /// Parks `lane`: a NaN delta never escapes nor falls below a radius, index 0 keeps its
  /// gathers in the orbit, and a start far in the future keeps it out of the deadline.
  private func idle(_ lane: Int) {
    self[.dx, lane] = .nan
    self[.dy, lane] = .nan
    self[.zx, lane] = 0
    self[.zy, lane] = 0
    self[.dcx, lane] = 0
    self[.dcy, lane] = 0
    references[lane] = 0
    starts[lane] = Int.max / 2
    pixels[lane] = -1
  }

  /// The smallest start of a live lane; idle lanes start at `Int.max / 2`.
  @inline(__always)
  private func earliestStart() -> Int {
    var earliest = starts[0]
    for lane in 1..<Self.lanes {
      earliest = min(earliest, starts[lane])
    }
    return earliest
  }
}
