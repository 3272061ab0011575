import Synchronization

/// Hands out a viewport's rows, one at a time, to whichever worker asks next.
final class RowDispenser: Sendable {
  private let next = Atomic<Int>(0)
  let rows: Int

  init(rows: Int) {
    self.rows = rows
  }

  /// The next row nobody has taken, or nil when all are taken.
  func take() -> Int? {
    let row = next.wrappingAdd(1, ordering: .relaxed).oldValue
    return row < rows ? row : nil
  }
}

/// Feeds a worker's lanes with fresh orbits (z = 0) row by row, answering pixels in the main
/// cardioid and period-2 bulb on the spot.
struct RowSource: OrbitSource {
  let viewport: Viewport
  let dispenser: RowDispenser
  let writer: FieldWriter
  private var row = 0
  private var column: Int
  private var cy = 0.0

  init(viewport: Viewport, dispenser: RowDispenser, writer: FieldWriter) {
    self.viewport = viewport
    self.dispenser = dispenser
    self.writer = writer
    column = viewport.width
  }

  mutating func next() -> Orbit? {
    while true {
      if column == viewport.width {
        guard let taken = dispenser.take() else { return nil }
        row = taken
        column = 0
        cy = viewport.imaginary(row: row)
      }
      let pixel = row * viewport.width + column
      let cx = viewport.real(column: column)
      column += 1
      if InteriorTest.contains(real: cx, imaginary: cy) {
        writer.inside(pixel)
        continue
      }
      return Orbit(pixel: pixel, cx: cx, cy: cy)
    }
  }
}
