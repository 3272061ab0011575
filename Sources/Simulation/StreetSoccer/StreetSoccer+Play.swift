extension StreetSoccer {
  /// A turn in progress: the board, the side playing, the points it has left, and whether a
  /// goal has ended it.
  struct Play: Hashable, Sendable {
    var board: Board
    let side: Side
    var points: Int
    /// Whether the turn may shoot: not a kick-off's.
    let mayShoot: Bool
    var scored = false

    /// A turn about to start with `points` to spend.
    init(board: Board, side: Side, points: Int, mayShoot: Bool) {
      self.board = board
      self.side = side
      self.points = points
      self.mayShoot = mayShoot
    }
  }

  /// What a move did, as frames report it for animation and statistics.
  public enum Result: String, Sendable, Codable, CaseIterable {
    /// A step without the ball.
    case step
    /// A step with the ball.
    case dribble
    /// A step onto the loose ball, taking it.
    case pickup
    /// A pass to an empty square: the ball lies loose there.
    case pass
    /// A pass to a teammate, who now holds the ball.
    case received
    /// A shot the goalkeeper saved: he holds the ball.
    case saved
    /// A shot into the goal.
    case goal
    /// A tackle: the tackler holds the ball.
    case tackle
  }

  /// A move the rules refuse, and the rule, e.g. `a pass may travel at most 5 squares`.
  struct RuleViolation: Error, Equatable {
    var rule: String
  }
}
