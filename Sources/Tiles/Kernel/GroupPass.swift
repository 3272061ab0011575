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
    while let row = dispenser.take() {
      let cy = viewport.imaginary(row: row)
      for first in stride(from: 0, to: viewport.width, by: LaneValues.lanes) {
        let base = row * viewport.width + first
        var skipped = 0
        for lane in 0..<LaneValues.lanes {
          let column = first + lane
          let cx = column < viewport.width ? viewport.real(column: column) : 0
          values[.cx, lane] = cx
          values[.cy, lane] = cy
          if column < viewport.width && !InteriorTest.contains(real: cx, imaginary: cy) {
            values[.x, lane] = 0
            values[.y, lane] = 0
            continue
          }
          if column < viewport.width { writer.inside(base + lane) }
          // NB: z = ∞ fails the bailout test at once, so the lane counts nothing and stops.
          values[.x, lane] = .infinity
          values[.y, lane] = .infinity
          skipped |= 1 << lane
        }
        guard skipped != (1 << LaneValues.lanes) - 1 else { continue }
        switch shape {
        case .four: Self.iterateFour(values.base, limit: limit)
        case .eight: Self.iterateEight(values.base, limit: limit)
        }
        for lane in 0..<LaneValues.lanes where skipped & (1 << lane) == 0 {
          let count = Int(values[.count, lane])
          let cx = values[.cx, lane]
          if count < limit {
            writer.escaped(base + lane, count: count, cx: cx, cy: cy)
          } else if limit == writer.maxIterations {
            writer.inside(base + lane)
          } else {
            survivors.append(
              Orbit(
                pixel: base + lane, cx: cx, cy: cy, x: values[.x, lane], y: values[.y, lane],
                count: count))
          }
        }
      }
    }
  }
}
