extension StreetSoccer {
  /// The geometry of a pitch: its size, the goal mouths and the goal areas.
  public struct Pitch: Sendable, Equatable {
    /// Squares from goal line to goal line.
    public let columns: Int
    /// Squares from touchline to touchline.
    public let rows: Int

    /// Columns of a goal area, counted from its goal line.
    public static let areaDepth = 2

    /// A pitch of `columns` by `rows` squares (both odd, at most 15 by 9).
    public init(columns: Int, rows: Int) {
      self.columns = columns
      self.rows = rows
    }

    /// The middle row.
    public var middleRow: Int { rows / 2 }

    /// The centre square, where kick-offs start.
    public var centre: Square { Square(x: columns / 2, y: middleRow) }

    /// Rows of each goal mouth: the three middle rows.
    public var mouth: ClosedRange<Int> { (middleRow - 1)...(middleRow + 1) }

    /// Rows of each goal area: the mouth and one row either side.
    public var areaRows: ClosedRange<Int> { (middleRow - 2)...(middleRow + 2) }

    /// Whether a square is on the pitch (not in a goal, not outside).
    public func contains(_ square: Square) -> Bool {
      (0..<columns).contains(square.x) && (0..<rows).contains(square.y)
    }

    /// The goal a square lies in, if any: `.left` for x = −1, `.right` for x = columns, in the
    /// mouth's rows.
    public func goal(at square: Square) -> End? {
      guard mouth.contains(square.y) else { return nil }
      if square.x == -1 { return .left }
      if square.x == columns { return .right }
      return nil
    }

    /// The goal area a square of the pitch lies in, if any.
    public func area(at square: Square) -> End? {
      guard areaRows.contains(square.y) else { return nil }
      if (0..<Self.areaDepth).contains(square.x) { return .left }
      if ((columns - Self.areaDepth)..<columns).contains(square.x) { return .right }
      return nil
    }

    /// A square given as a team sees the pitch: `x` counted from its own goal line, `y` from
    /// its own left touchline when it attacks to the right; turned half a turn otherwise.
    func square(_ x: Int, _ y: Int, attackingRight right: Bool) -> Square {
      right ? Square(x: x, y: y) : Square(x: columns - 1 - x, y: rows - 1 - y)
    }
  }

  /// An end of the pitch.
  public enum End: String, Sendable {
    case left, right
  }
}
