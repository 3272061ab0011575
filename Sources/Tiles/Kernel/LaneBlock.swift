/// Sixteen orbits in flight, iterated together by a SIMD loop and refilled one lane at a time
/// as their pixels finish, so the vectors stay full whatever the mix of counts.
///
/// The SIMD loop keeps no per-lane counter: a lane's count is the block's iteration counter
/// minus the value it had when the lane was loaded. The loop stops as soon as any lane escapes
/// (or, in the periodic phase, repeats a saved point) or the oldest lane reaches the limit, and
/// says which lanes stopped; the scalar code here writes those out and loads new orbits.
struct LaneBlock: ~Copyable {
  /// x, y, cx, cy and the saved point of every lane.
  let values = LaneValues()
  /// The iteration counter's value when each lane's count was 0.
  let starts: UnsafeMutablePointer<Int>
  /// The pixel in each lane, -1 when the lane is idle.
  let pixels: UnsafeMutablePointer<Int>

  init() {
    starts = .allocate(capacity: LaneValues.lanes)
    pixels = .allocate(capacity: LaneValues.lanes)
    starts.initialize(repeating: 0, count: LaneValues.lanes)
    pixels.initialize(repeating: -1, count: LaneValues.lanes)
  }

  deinit {
    starts.deallocate()
    pixels.deallocate()
  }

  /// Puts `orbit` into `lane` as if it had been iterating since `iteration - orbit.count`.
  private func load(_ orbit: Orbit, into lane: Int, at iteration: Int) {
    values[.x, lane] = orbit.x
    values[.y, lane] = orbit.y
    values[.cx, lane] = orbit.cx
    values[.cy, lane] = orbit.cy
    // NB: NaN never equals anything, so a fresh lane cannot match a saved point of another orbit.
    values[.savedX, lane] = .nan
    values[.savedY, lane] = .nan
    starts[lane] = iteration - orbit.count
    pixels[lane] = orbit.pixel
  }

  /// Parks `lane`: z = NaN never escapes (NaN > 4 is false) nor matches a saved point, and a
  /// start far in the future keeps it out of the deadline.
  private func idle(_ lane: Int) {
    values[.x, lane] = .nan
    values[.y, lane] = .nan
    values[.cx, lane] = 0
    values[.cy, lane] = 0
    starts[lane] = Int.max / 2
    pixels[lane] = -1
  }

  /// Iterates every orbit `source` hands out until it has escaped, been proved periodic, or
  /// reached `limit` updates.
  ///
  /// Orbits that reach `limit` below `writer.maxIterations` go to `survivors` for the next
  /// phase; at `limit == maxIterations` they are inside. With `periodic`, lanes also compare z
  /// with a point saved every `savePeriod` iterations: an orbit that repeats a value bit for bit
  /// repeats forever and never escapes, so its count is exactly the maximum.
  mutating func run(
    _ source: inout SurvivorSource, shape: VectorShape, limit: Int, periodic: Bool, savePeriod: Int,
    writer: FieldWriter, survivors: inout [Orbit]
  ) {
    var iteration = 0
    var live = 0
    for lane in 0..<LaneValues.lanes {
      if let orbit = source.next() {
        load(orbit, into: lane, at: iteration)
        live += 1
      } else {
        idle(lane)
      }
    }
    var nextSave = savePeriod
    while live > 0 {
      let deadline = earliestStart() + limit
      var stopped: Int
      (iteration, stopped) = Self.iterate(
        values.base, shape: shape, periodic: periodic, from: iteration, until: deadline,
        nextSave: &nextSave, savePeriod: savePeriod)
      if iteration == deadline {
        for lane in 0..<LaneValues.lanes where starts[lane] + limit == iteration {
          stopped |= 1 << lane
        }
      }
      while stopped != 0 {
        let lane = stopped.trailingZeroBitCount
        stopped &= stopped - 1
        guard finish(lane, at: iteration, limit: limit, writer, &survivors) else { continue }
        if let orbit = source.next() {
          load(orbit, into: lane, at: iteration)
        } else {
          idle(lane)
          live -= 1
        }
      }
    }
  }

  /// Writes out the pixel of `lane` if its orbit has escaped, repeated its saved point, or
  /// reached `limit`, and says whether it did. The periodic loop stops on x alone, so a lane
  /// whose y differs from the saved y is not finished: it forgets its saved point (until the
  /// next save) so that the loop can go on.
  @inline(__always)
  private func finish(
    _ lane: Int, at iteration: Int, limit: Int, _ writer: FieldWriter, _ survivors: inout [Orbit]
  ) -> Bool {
    let pixel = pixels[lane]
    let count = iteration - starts[lane]
    let x = values[.x, lane]
    let y = values[.y, lane]
    let cx = values[.cx, lane]
    let cy = values[.cy, lane]
    // NB: the order follows the scalar loop, which stops at the cap before testing |z|.
    if count == limit {
      if limit == writer.maxIterations {
        writer.inside(pixel)
      } else {
        survivors.append(Orbit(pixel: pixel, cx: cx, cy: cy, x: x, y: y, count: count))
      }
    } else if x * x + y * y > 4 {
      writer.escaped(pixel, count: count, x: x, y: y, cx: cx, cy: cy)
    } else if y == values[.savedY, lane] {
      writer.inside(pixel)
    } else {
      values[.savedX, lane] = .nan
      return false
    }
    return true
  }

  /// The smallest start of a live lane; idle lanes start at `Int.max / 2`.
  @inline(__always)
  private func earliestStart() -> Int {
    var earliest = starts[0]
    for lane in 1..<LaneValues.lanes {
      earliest = min(earliest, starts[lane])
    }
    return earliest
  }

  /// Runs the SIMD loop for `shape`, specialised for `periodic`; returns the counter and a bit
  /// per lane that escaped or repeated its saved point.
  @inline(__always)
  private static func iterate(
    _ values: UnsafeMutablePointer<Double>, shape: VectorShape, periodic: Bool,
    from iteration: Int, until deadline: Int, nextSave: inout Int, savePeriod: Int
  ) -> (iteration: Int, stopped: Int) {
    switch (shape, periodic) {
    case (.four, false):
      return iterateFour(values, from: iteration, until: deadline)
    case (.four, true):
      return iterateFourPeriodic(
        values, from: iteration, until: deadline, nextSave: &nextSave, savePeriod: savePeriod)
    case (.eight, false):
      return iterateEight(values, from: iteration, until: deadline)
    case (.eight, true):
      return iterateEightPeriodic(
        values, from: iteration, until: deadline, nextSave: &nextSave, savePeriod: savePeriod)
    }
  }
}
