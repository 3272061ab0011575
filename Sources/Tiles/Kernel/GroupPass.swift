/// The cheap first pass: sixteen neighbouring pixels of a row iterated together, each lane
/// counting its own updates, for at most `limit` updates.
///
/// Far from the set most pixels escape within a few updates, where refilling lanes one pixel
/// at a time (`LaneBlock`) would cost more than the updates themselves. Here a group costs one
/// setup and one write-out; lanes that escape early idle until the group ends, which is cheap
/// because the pass stops at `limit`. Pixels still inside the bailout at `limit` go on, with
/// their z, to the lane blocks.
struct GroupPass: ~Copyable {
  /// Pixels in a group: four SIMD4 or two SIMD8 vectors.
  static let lanes = 16

  /// Rows of `lanes` doubles in `values`.
  enum Row: Int {
    case x = 0
    case y
    case cx
    case cy
    case count

    /// The offset of the row's first lane.
    var offset: Int { rawValue * GroupPass.lanes }
  }

  /// x, y, cx, cy and the count (as a Double) of every lane.
  let values: UnsafeMutablePointer<Double>

  init() {
    values = .allocate(capacity: 5 * Self.lanes)
    values.initialize(repeating: 0, count: 5 * Self.lanes)
  }

  deinit {
    values.deallocate()
  }

  @inline(__always)
  private func value(_ row: Row, _ lane: Int) -> Double {
    values[row.offset + lane]
  }

  @inline(__always)
  private func set(_ row: Row, _ lane: Int, _ value: Double) {
    values[row.offset + lane] = value
  }

  /// Runs the groups of every row `dispenser` hands out. Pixels in the main cardioid or the
  /// period-2 bulb, and pixels that escape within `limit` updates, are written at once; the
  /// others are appended to `survivors` with z after `limit` updates.
  mutating func run(
    _ viewport: Viewport, rows dispenser: RowDispenser, shape: VectorShape, limit: Int,
    writer: FieldWriter, survivors: inout [Orbit]
  ) {
    while let row = dispenser.take() {
      let cy = viewport.imaginary(row: row)
      for first in stride(from: 0, to: viewport.width, by: Self.lanes) {
        let base = row * viewport.width + first
        var skipped = 0
        for lane in 0..<Self.lanes {
          let column = first + lane
          let cx = column < viewport.width ? viewport.real(column: column) : 0
          set(.cx, lane, cx)
          set(.cy, lane, cy)
          if column < viewport.width && !InteriorTest.contains(real: cx, imaginary: cy) {
            set(.x, lane, 0)
            set(.y, lane, 0)
            continue
          }
          if column < viewport.width { writer.inside(base + lane) }
          // NB: z = ∞ fails the bailout test at once, so the lane counts nothing and stops.
          set(.x, lane, .infinity)
          set(.y, lane, .infinity)
          skipped |= 1 << lane
        }
        guard skipped != (1 << Self.lanes) - 1 else { continue }
        switch shape {
        case .four: Self.iterateFour(values, limit: limit)
        case .eight: Self.iterateEight(values, limit: limit)
        }
        for lane in 0..<Self.lanes where skipped & (1 << lane) == 0 {
          let count = Int(value(.count, lane))
          let cx = value(.cx, lane)
          if count < limit {
            writer.escaped(base + lane, count: count, cx: cx, cy: cy)
          } else if limit == writer.maxIterations {
            writer.inside(base + lane)
          } else {
            survivors.append(
              Orbit(
                pixel: base + lane, cx: cx, cy: cy, x: value(.x, lane), y: value(.y, lane),
                count: count))
          }
        }
      }
    }
  }
}
