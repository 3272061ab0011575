extension StreetSoccer {
  /// A line a side can shoot along: from a square of the pitch into the goal it attacks,
  /// within range, with the squares the ball crosses on the way.
  struct ShotLine: Sendable {
    /// The packed square the shot is kicked from.
    let from: UInt8
    /// The square it is kicked from.
    let square: Square
    /// The packed squares between the kicker and the goal.
    let path: SquareSet

    /// Every shot line of `side` on this referee's pitch, from every square an outfield
    /// player may stand on.
    static func all(for side: Side, referee: Referee) -> [ShotLine] {
      let pitch = referee.pitch
      let right = referee.attacksRight(side)
      let goalX = right ? pitch.columns : -1
      let dx = right ? 1 : -1
      var lines: [ShotLine] = []
      for y in 0..<pitch.rows {
        for x in 0..<pitch.columns {
          let from = Square(x: x, y: y)
          let length = abs(goalX - x)
          guard length <= StreetSoccer.shotRange, referee.areaOwner(from) == nil else { continue }
          for dy in -1...1 where pitch.mouth.contains(y + length * dy) {
            var path = SquareSet()
            for step in 1..<length {
              path.insert(Board.pack(Square(x: x + step * dx, y: y + step * dy)))
            }
            lines.append(ShotLine(from: Board.pack(from), square: from, path: path))
          }
        }
      }
      return lines
    }
  }
}
