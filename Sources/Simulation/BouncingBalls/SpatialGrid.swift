/// A uniform grid over the world for the broad phase, rebuilt each substep by counting sort.
///
/// Balls are listed by cell, in index order within a cell, so the order in which pairs are
/// found (and so the result of a step) depends only on the state. Each listed ball's position
/// and radius are copied next to it ("slots"), so scanning a neighbourhood reads contiguous
/// memory instead of jumping around the ball array.
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
  /// Centre x of the ball in each slot (entry), kept current by `move(slot:to:)`.
  private(set) var x: [Double] = []
  /// Centre y of the ball in each slot.
  private(set) var y: [Double] = []
  /// Radius of the ball in each slot.
  private(set) var radius: [Double] = []
  /// The slot of each ball.
  private(set) var slotOfBall: [Int] = []

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
    let count = balls.count
    // NB: the buffers move into locals (so the optimizer can hoist uniqueness checks out of
    // the loops) and are reused from substep to substep.
    var start = Self.take(&cellStart, count: cellCount + 1)
    var cellOf = Self.take(&cellOfBall, count: count)
    var listed = Self.take(&entries, count: count)
    var slotOf = Self.take(&slotOfBall, count: count)
    var slotX = Self.take(&x, count: count)
    var slotY = Self.take(&y, count: count)
    var slotRadius = Self.take(&radius, count: count)
    for cell in 0...cellCount { start[cell] = 0 }
    for index in 0..<count {
      let column = min(max(Int(balls[index].x / cellWidth), 0), columns - 1)
      let row = min(max(Int(balls[index].y / cellHeight), 0), rows - 1)
      let cell = row * columns + column
      cellOf[index] = cell
      start[cell + 1] += 1
    }
    for cell in 0..<cellCount { start[cell + 1] += start[cell] }
    // Fill each cell from its end backwards, walking balls backwards: ascending order within
    // a cell, and `start` is left exactly as the prefix sums.
    for cell in 0..<cellCount { start[cell] = start[cell + 1] }
    for index in stride(from: count - 1, through: 0, by: -1) {
      let cell = cellOf[index]
      start[cell] -= 1
      let slot = start[cell]
      listed[slot] = index
      slotOf[index] = slot
      slotX[slot] = balls[index].x
      slotY[slot] = balls[index].y
      slotRadius[slot] = balls[index].radius
    }
    cellStart = start
    cellOfBall = cellOf
    entries = listed
    slotOfBall = slotOf
    x = slotX
    y = slotY
    radius = slotRadius
  }

  /// Moves `buffer` out of the grid, resized to `count` (zeroed when it was resized).
  private static func take<Element: Numeric>(_ buffer: inout [Element], count: Int) -> [Element] {
    var taken: [Element] = []
    swap(&taken, &buffer)
    if taken.count != count { taken = Array(repeating: 0, count: count) }
    return taken
  }

  /// The neighbouring columns (or rows) of `index` among `count`: up to three, each once,
  /// wrapped around when the world is periodic.
  static func neighbours(of index: Int, count: Int, periodic: Bool) -> ClosedRange<Int> {
    guard periodic else { return max(index - 1, 0)...min(index + 1, count - 1) }
    // NB: with fewer than three columns every column is a neighbour; the caller wraps indices.
    return count < 3 ? 0...(count - 1) : (index - 1)...(index + 1)
  }
}
