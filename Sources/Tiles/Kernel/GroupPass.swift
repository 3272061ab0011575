/// The cheap first pass: sixteen neighbouring pixels of a row iterated together, each lane
/// counting its own updates, for at most `limit` updates.
///
/// Far from the set most pixels escape within a few updates, where refilling lanes one pixel
/// at a time (`LaneBlock`) would cost more than the updates themselves. Here a group costs one
/// setup and one write-out; lanes that escape early idle until the group ends, which is cheap
/// because the pass stops at `limit`. Pixels still inside the bailout at `limit` go on, with
/// their z, to the lane blocks.
struct GroupPass: ~Copyable {
  /// x, y, cx, cy and the count of every lane.
  let values = LaneValues()

  /// Runs the groups of every row `dispenser` hands out. Pixels in the main cardioid or the
  /// period-2 bulb, and pixels that escape within `limit` updates, are written at once; the
  /// others are appended to `survivors` with z after `limit` updates.
  mutating func run(
    _ viewport: Viewport, rows dispenser: RowDispenser, shape: VectorShape, limit: Int,
    writer: FieldWriter, survivors: inout [Orbit]
  ) {
    let lanes = LaneValues.lanes
    while let row = dispenser.take() {
      let cy = viewport.imaginary(row: row)
      for first in stride(from: 0, to: viewport.width, by: lanes) {
        let base = row * viewport.width + first
        let used = min(lanes, viewport.width - first)
        let allClosed = setUp(viewport, cy: cy, first: first, used: used)
        if !allClosed {
          switch shape {
          case .four: Self.iterateFour(values.base, limit: limit)
          case .eight: Self.iterateEight(values.base, limit: limit)
          }
        }
        // NB: the common case, no survivor and no smooth count, writes counts without branches.
        if writer.smoothCounts == nil && used == lanes
          && (limit == writer.maxIterations || longestCount() < limit)
        {
          writeCounts(at: base, writer)
          continue
        }
        for lane in 0..<used {
          let pixel = base + lane
          let count = Int(values[.count, lane])
          let cx = values[.cx, lane]
          if values[.interior, lane] != 0 || count == writer.maxIterations {
            writer.inside(pixel)
          } else if count < limit {
            writer.escaped(pixel, count: count, cx: cx, cy: cy)
          } else {
            let (x, y) = (values[.x, lane], values[.y, lane])
            survivors.append(Orbit(pixel: pixel, cx: cx, cy: cy, x: x, y: y, count: count))
          }
        }
      }
    }
  }

  /// Loads the group of `used` pixels of row `cy` from column `first`: c, z = 0, and the
  /// closed-form answer; lanes inside the main components (and unused lanes) start at z = ∞,
  /// which fails the bailout test at once. Returns whether every lane is such a lane.
  private func setUp(_ viewport: Viewport, cy: Double, first: Int, used: Int) -> Bool {
    typealias Vector = SIMD4<Double>
    var allClosed = SIMDMask<SIMD4<Int64>>(repeating: true)
    let imaginary = Vector(repeating: cy)
    let left = Vector(repeating: viewport.left)
    let step = Vector(repeating: viewport.step)
    let end = Vector(repeating: Double(first + used))
    for index in 0..<LaneValues.lanes / 4 {
      let column = Vector(repeating: Double(first + 4 * index)) + Vector(0, 1, 2, 3)
      // NB: left + (i + 0.5)·step, exactly `Viewport.real(column:)`.
      let real = left + (column + 0.5) * step
      var closed = InteriorTest.contains(real: real, imaginary: imaginary)
      closed .|= column .>= end
      allClosed .&= closed
      let start = Vector().replacing(with: .infinity, where: closed)
      LaneValues.store(real, values.base, .cx, index)
      LaneValues.store(imaginary, values.base, .cy, index)
      LaneValues.store(start, values.base, .x, index)
      LaneValues.store(start, values.base, .y, index)
      LaneValues.store(Vector().replacing(with: 1, where: closed), values.base, .interior, index)
    }
    // NB: `any` compiles to one vector test, `all` to a slow reduction.
    return !any(.!allClosed)
  }

  /// Writes the counts of a full group: the count, or the cap for closed-form lanes.
  private func writeCounts(at pixel: Int, _ writer: FieldWriter) {
    typealias Vector = SIMD4<Double>
    let cap = Vector(repeating: Double(writer.maxIterations))
    for index in 0..<LaneValues.lanes / 4 {
      let count: Vector = LaneValues.load(values.base, .count, index)
      let closed: Vector = LaneValues.load(values.base, .interior, index)
      // NB: adding 2^52 puts a whole number below 2^32 in the low 32 bits of the Double.
      let shifted = count.replacing(with: cap, where: closed .!= 0) + 0x1p52
      let words = SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(shifted, to: SIMD4<UInt64>.self))
      UnsafeMutableRawPointer(writer.counts + pixel + 4 * index).storeBytes(
        of: words, as: SIMD4<UInt32>.self)
    }
  }

  /// The largest count in the group.
  private func longestCount() -> Int {
    var longest = SIMD4<Double>()
    for index in 0..<LaneValues.lanes / 4 {
      let count: SIMD4<Double> = LaneValues.load(values.base, .count, index)
      longest.replace(with: count, where: count .> longest)
    }
    return Int(max(max(longest[0], longest[1]), max(longest[2], longest[3])))
  }
}
