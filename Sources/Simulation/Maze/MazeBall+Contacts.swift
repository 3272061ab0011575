extension MazeBall {
  /// A contact to resolve: push the ball `depth` px along `normal` (a unit vector out of the
  /// wall or block).
  struct Contact {
    var normal: Vector2
    var depth: Double
  }

  /// The deepest contact of a ball centred at `point` with the box or a solid cell.
  ///
  /// Solid cells are treated as one shape: a face shared with another solid cell, or a corner
  /// next to one, is inside the shape and gives no contact (no "ghost" hits at the seams, the
  /// seed's corner sticking), and a ball whose centre is inside a block leaves through the
  /// nearest face that opens onto an empty cell.
  func deepestContact(at point: Vector2) -> Contact? {
    let radius = settings.radius
    var best: Contact?
    func consider(_ contact: Contact) {
      if contact.depth > (best?.depth ?? 0) { best = contact }
    }
    if point.x < radius { consider(Contact(normal: Vector2(x: 1, y: 0), depth: radius - point.x)) }
    if point.x > settings.width - radius {
      consider(Contact(normal: Vector2(x: -1, y: 0), depth: point.x - (settings.width - radius)))
    }
    if point.y < radius { consider(Contact(normal: Vector2(x: 0, y: 1), depth: radius - point.y)) }
    if point.y > settings.height - radius {
      consider(Contact(normal: Vector2(x: 0, y: -1), depth: point.y - (settings.height - radius)))
    }
    for (row, column) in cellsNear(point) where state.maze[row, column] {
      if let contact = blockContact(at: point, row: row, column: column) { consider(contact) }
    }
    return best
  }

  /// How deep the ball centred at `point` overlaps the box edges or any solid cell (0 if not):
  /// the plain geometric test the invariants are checked against.
  func overlap(at point: Vector2) -> Double {
    let radius = settings.radius
    var deepest = max(
      0, radius - point.x, point.x - (settings.width - radius), radius - point.y,
      point.y - (settings.height - radius))
    for (row, column) in cellsNear(point) where state.maze[row, column] {
      let (left, top, right, bottom) = bounds(row: row, column: column)
      let closest = Vector2(x: min(max(point.x, left), right), y: min(max(point.y, top), bottom))
      let distance = (point - closest).length
      deepest = max(deepest, distance == 0 ? radius : radius - distance)
    }
    return deepest
  }

  /// The cells whose squares the ball's bounding box touches.
  private func cellsNear(_ point: Vector2) -> [(row: Int, column: Int)] {
    let radius = settings.radius
    let maze = state.maze
    let firstColumn = max(0, Int(((point.x - radius) / settings.cellWidth).rounded(.down)))
    let lastColumn = min(
      maze.columns - 1, Int(((point.x + radius) / settings.cellWidth).rounded(.down)))
    let firstRow = max(0, Int(((point.y - radius) / settings.cellHeight).rounded(.down)))
    let lastRow = min(maze.rows - 1, Int(((point.y + radius) / settings.cellHeight).rounded(.down)))
    guard firstColumn <= lastColumn, firstRow <= lastRow else { return [] }
    var cells: [(row: Int, column: Int)] = []
    for row in firstRow...lastRow {
      for column in firstColumn...lastColumn { cells.append((row, column)) }
    }
    return cells
  }

  private func bounds(row: Int, column: Int) -> (
    left: Double, top: Double, right: Double, bottom: Double
  ) {
    let left = Double(column) * settings.cellWidth
    let top = Double(row) * settings.cellHeight
    return (left, top, left + settings.cellWidth, top + settings.cellHeight)
  }

  private func blockContact(at point: Vector2, row: Int, column: Int) -> Contact? {
    let maze = state.maze
    let radius = settings.radius
    let (left, top, right, bottom) = bounds(row: row, column: column)
    let sideX = point.x < left ? -1 : (point.x > right ? 1 : 0)
    let sideY = point.y < top ? -1 : (point.y > bottom ? 1 : 0)
    if sideX == 0 && sideY == 0 {
      // Inside the block (only after a cell was filled under the ball): the nearest open face.
      let exits: [(distance: Double, normal: Vector2, open: Bool)] = [
        (point.x - left, Vector2(x: -1, y: 0), !maze[row, column - 1]),
        (right - point.x, Vector2(x: 1, y: 0), !maze[row, column + 1]),
        (point.y - top, Vector2(x: 0, y: -1), !maze[row - 1, column]),
        (bottom - point.y, Vector2(x: 0, y: 1), !maze[row + 1, column]),
      ]
      guard let exit = exits.filter(\.open).min(by: { $0.distance < $1.distance }) else {
        return nil
      }
      return Contact(normal: exit.normal, depth: exit.distance + radius)
    }
    if sideX != 0 && sideY != 0 {
      // A corner is real only if neither cell beside it is solid.
      if maze[row, column + sideX] || maze[row + sideY, column] { return nil }
    } else if maze[row + sideY, column + sideX] {
      // A face shared with another solid cell is inside the wall.
      return nil
    }
    let closest = Vector2(x: min(max(point.x, left), right), y: min(max(point.y, top), bottom))
    let offset = point - closest
    let distanceSquared = offset.lengthSquared
    guard distanceSquared < radius * radius else { return nil }
    let distance = distanceSquared.squareRoot()
    return Contact(normal: offset * (1 / distance), depth: radius - distance)
  }

  /// Moves the ball at rest to the centre of the empty cell nearest to it if it overlaps a
  /// block; returns whether it moved.
  @discardableResult
  mutating func placeBallClear() -> Bool {
    guard overlap(at: state.position) > Self.tolerance else { return false }
    let maze = state.maze
    var nearest: (distance: Double, centre: Vector2)?
    for row in 0..<maze.rows {
      for column in 0..<maze.columns where !maze[row, column] {
        let centre = Vector2(
          x: (Double(column) + 0.5) * settings.cellWidth,
          y: (Double(row) + 0.5) * settings.cellHeight)
        let distance = (centre - state.position).lengthSquared
        if distance < nearest?.distance ?? .infinity { nearest = (distance, centre) }
      }
    }
    // NB: configs and inputs always leave an empty cell, and the ball fits in any cell.
    state.position = nearest?.centre ?? state.position
    state.velocity = .zero
    return true
  }

  /// Overlap below this (px) is rounding, not penetration.
  static let tolerance = 1e-9
}
