/// A uniform grid over the world for the broad phase, rebuilt each substep by counting sort.
///
/// Balls are listed by cell, in index order within a cell, so the order in which pairs are
/// found (and so the result of a step) depends only on the state.
struct SpatialGrid: Sendable {
  private(set) var columns = 1
  private(set) var rows = 1
  private var cellWidth = 1.0
  private var cellHeight = 1.0
  /// Entries of cell k are `entries[cellStart[k]..<cellStart[k + 1]]`.
  private(set) var cellStart: [Int] = []
  /// Ball indices sorted by cell.
  private(set) var entries: [Int] = []
  /// The cell of each ball.
  private(set) var cellOfBall: [Int] = []

  /// Bins `balls` into cells at least `minimumCell` px wide, with about one ball per cell.
  mutating func rebuild(
    _ balls: [BouncingBalls.Ball], width: Double, height: Double, minimumCell: Double
  ) {
    let spread = (width * height / Double(max(balls.count, 1))).squareRoot()
    let cell = max(minimumCell, spread)
    columns = max(1, Int(width / cell))
    rows = max(1, Int(height / cell))
    cellWidth = width / Double(columns)
    cellHeight = height / Double(rows)
    let cellCount = columns * rows
    // Reuse the buffers: this runs every substep.
    Self.refill(&cellStart, count: cellCount + 1)
    Self.refill(&cellOfBall, count: balls.count)
    Self.refill(&entries, count: balls.count)
    for index in balls.indices {
      let column = min(max(Int(balls[index].x / cellWidth), 0), columns - 1)
      let row = min(max(Int(balls[index].y / cellHeight), 0), rows - 1)
      let cell = row * columns + column
      cellOfBall[index] = cell
      cellStart[cell + 1] += 1
    }
    for cell in 0..<cellCount { cellStart[cell + 1] += cellStart[cell] }
    // Fill each cell from its end backwards, walking balls backwards: ascending order within
    // a cell, and cellStart is left exactly as the prefix sums.
    for cell in 0..<cellCount { cellStart[cell] = cellStart[cell + 1] }
    for index in balls.indices.reversed() {
      let cell = cellOfBall[index]
      cellStart[cell] -= 1
      entries[cellStart[cell]] = index
    }
  }

  private static func refill(_ buffer: inout [Int], count: Int) {
    if buffer.count == count {
      for index in buffer.indices { buffer[index] = 0 }
    } else {
      buffer = Array(repeating: 0, count: count)
    }
  }

  /// The neighbouring columns (or rows) of `index` among `count`: up to three, each once,
  /// wrapped around when the world is periodic.
  static func neighbours(of index: Int, count: Int, periodic: Bool) -> ClosedRange<Int> {
    guard periodic else { return max(index - 1, 0)...min(index + 1, count - 1) }
    // NB: with fewer than three columns every column is a neighbour; the caller wraps indices.
    return count < 3 ? 0...(count - 1) : (index - 1)...(index + 1)
  }
}
