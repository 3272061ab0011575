extension BouncingBalls {
  /// One sweep of the broad phase: every touching pair found through the grid, resolved once,
  /// in an order that depends only on the state.
  ///
  /// NB: unsafe buffers because this loop is the whole cost of a big session; every index
  /// comes from the grid, which was built from these balls.
  struct ContactPass {
    let contact: Contact
    let columns: Int
    let rows: Int
    let cellStart: UnsafeBufferPointer<Int>
    let entries: [Int]
    let radius: UnsafeBufferPointer<Double>
    let slotX: UnsafeMutableBufferPointer<Double>
    let slotY: UnsafeMutableBufferPointer<Double>
    let balls: UnsafeMutableBufferPointer<Ball>
    /// Most impacts to keep for `collision` events.
    let reportLimit: Int
    /// Pairs that approached and bounced.
    private(set) var collisions = 0
    /// The first `reportLimit` of them: ball indices and normal approach speed (px/s).
    private(set) var reported: [(first: Int, second: Int, speed: Double)] = []

    init(
      contact: Contact, grid: SpatialGrid, cellStart: UnsafeBufferPointer<Int>,
      radius: UnsafeBufferPointer<Double>, slotX: UnsafeMutableBufferPointer<Double>,
      slotY: UnsafeMutableBufferPointer<Double>, balls: UnsafeMutableBufferPointer<Ball>,
      reportLimit: Int
    ) {
      self.contact = contact
      self.columns = grid.columns
      self.rows = grid.rows
      self.entries = grid.entries
      self.cellStart = cellStart
      self.radius = radius
      self.slotX = slotX
      self.slotY = slotY
      self.balls = balls
      self.reportLimit = reportLimit
    }

    /// Each pair once: from the slot listed first, through the 3x3 cells around it.
    mutating func run() {
      for cell in 0..<(columns * rows) {
        let columnRange = SpatialGrid.neighbours(
          of: cell % columns, count: columns, periodic: contact.periodic)
        let rowRange = SpatialGrid.neighbours(
          of: cell / columns, count: rows, periodic: contact.periodic)
        for firstSlot in cellStart[cell]..<cellStart[cell + 1] {
          for neighbourRow in rowRange {
            let rowStart = (neighbourRow + rows) % rows * columns
            for neighbourColumn in columnRange {
              let other = rowStart + (neighbourColumn + columns) % columns
              let start = max(cellStart[other], firstSlot + 1)
              for secondSlot in start..<max(start, cellStart[other + 1]) {
                resolve(firstSlot, secondSlot)
              }
            }
          }
        }
      }
    }

    /// Resolves two slots' balls if they touch, and keeps their slots' positions current.
    @inline(__always)
    private mutating func resolve(_ firstSlot: Int, _ secondSlot: Int) {
      guard
        contact.overlaps(
          slotX[secondSlot] - slotX[firstSlot], slotY[secondSlot] - slotY[firstSlot],
          reach: radius[firstSlot] + radius[secondSlot])
      else { return }
      let first = entries[firstSlot]
      let second = entries[secondSlot]
      let impact = contact.resolve(first, second, in: balls)
      slotX[firstSlot] = balls[first].x
      slotY[firstSlot] = balls[first].y
      slotX[secondSlot] = balls[second].x
      slotY[secondSlot] = balls[second].y
      guard impact > 0 else { return }
      collisions += 1
      if reported.count < reportLimit {
        reported.append((min(first, second), max(first, second), impact))
      }
    }
  }
}
