extension StreetSoccer {
  /// How the computer players judge a board between turns, from one side's point of view. The
  /// value is antisymmetric (what is worth v to one side is worth −v to the other), so a search
  /// can take the opponent's best reply as the one worst for itself.
  ///
  /// It estimates, for the side about to play and for the other, the points it needs to win
  /// the ball and to score, and turns them into chances over the die's six faces.
  struct Evaluator: Sendable {
    /// How much each part of the judgement counts; a goal counts 1.
    struct Weights: Sendable {
      /// The chance that the side about to play scores in its turn.
      var threat: Double
      /// The chance that the other side scores in the turn after, if it keeps the ball.
      var nextThreat: Double
      /// Holding the ball after the coming turn (from −1 to 1).
      var possession: Double
      /// The ball's way up the pitch (from −1 at one's own goal line to 1 at the other).
      var progress: Double
      /// Per outfield player between the ball and his own goal, more than the opponent has.
      var cover: Double

      /// The strong player's judgement.
      static let balanced = Weights(
        threat: 0.8, nextThreat: 0.6, possession: 0.1, progress: 0.25, cover: 0.02)
      /// The defensive player's: holding the ball and men behind it count for more, the
      /// ball's way forward hardly at all.
      static let cautious = Weights(
        threat: 0.8, nextThreat: 0.7, possession: 0.2, progress: 0.04, cover: 0.06)
    }

    let referee: Referee
    let weights: Weights
    /// Each side's shot lines, home's first.
    private let lines: [[ShotLine]]

    init(referee: Referee, weights: Weights) {
      self.referee = referee
      self.weights = weights
      lines = Side.allCases.map { ShotLine.all(for: $0, referee: referee) }
    }

    /// A play of `play.side` judged: its value for that side as a finished turn (a goal counts
    /// 1 and leads to the opponent's kick-off; otherwise the board with the opponent to play),
    /// and what it promises if the turn goes on: nearly a goal when the points left seem to
    /// reach one.
    func judge(_ play: Play) -> (value: Double, promise: Double) {
      let side = play.side
      guard !play.scored else {
        let kickOff = referee.kickOff(by: side.other)
        let value = 1 + assess(kickOff, for: side, toMove: side.other, kickOff: true).value
        return (value, value)
      }
      let (value, ownCost) = assess(play.board, for: side, toMove: side.other, kickOff: false)
      // NB: the nearer the goal seems, the higher, so that ties favour the quickest way.
      guard play.mayShoot, ownCost <= play.points else { return (value, value) }
      return (value, max(value, 0.9 + 0.01 * Double(play.points - ownCost)))
    }

    /// A beginner's judgement of a play for the side playing it: a goal, else its own chance
    /// to score were it to play again, holding the ball, and the ball's way up the pitch;
    /// blind to what the opponent can do.
    func naiveValue(_ play: Play) -> Double {
      guard !play.scored else { return 1 }
      let own = chances(play.board, for: play.side, occupied: SquareSet(occupiedBy: play.board))
      let holding: Double =
        switch play.board.possession {
        case play.side: 1
        case nil: 0
        default: -1
        }
      return 0.5 * own.score + 0.15 * holding + 0.2 * progress(of: play.board, for: play.side)
    }

    /// The value of `board` for `side` when `toMove` is about to roll and play (a kick-off,
    /// which may not shoot, when `kickOff`).
    func value(of board: Board, for side: Side, toMove mover: Side, kickOff: Bool = false)
      -> Double
    {
      assess(board, for: side, toMove: mover, kickOff: kickOff).value
    }

    /// The value of `board` for `side` when `mover` is about to play, and the points the
    /// other side would need to score if it played now.
    private func assess(_ board: Board, for side: Side, toMove mover: Side, kickOff: Bool) -> (
      value: Double, waitingCost: Int
    ) {
      let occupied = SquareSet(occupiedBy: board)
      var moving = costs(board, for: mover, occupied: occupied)
      // A kick-off's turn cannot score: its best hope is the turn after.
      if kickOff, moving.score <= 6 { moving.score += 6 }
      let waiting = costs(board, for: mover.other, occupied: occupied)
      let moverWins = Self.chance(moving.win)
      let forMover =
        weights.threat * Self.prospect(moving.score) + weights.possession * (2 * moverWins - 1)
        - weights.nextThreat * (1 - moverWins) * Self.prospect(waiting.score)
      let sign = mover == side ? 1.0 : -1.0
      let value =
        sign * forMover + weights.progress * progress(of: board, for: side)
        + weights.cover * Double(cover(board, side) - cover(board, side.other))
      return (value, waiting.score)
    }

    /// The chances that `side`, playing now with an unknown die, holds the ball after its
    /// turn and that it scores in it.
    func chances(_ board: Board, for side: Side, occupied: SquareSet) -> (
      win: Double, score: Double
    ) {
      let (winCost, scoreCost) = costs(board, for: side, occupied: occupied)
      return (Self.chance(winCost), Self.prospect(scoreCost))
    }

    /// The points `side` seems to need to hold the ball, and to score: the nearest piece's
    /// walk to the ball (and a tackle), then the walk to the nearest square with a clear shot,
    /// or a pass to the teammate nearest one; ignoring the pieces in the way.
    private func costs(_ board: Board, for side: Side, occupied: SquareSet) -> (
      win: Int, score: Int
    ) {
      let ball = board.ballSquare
      let teamLanes = (side.index * 5)..<(side.index * 5 + 5)
      var winCost = 0
      if let holder = board.holder {
        if Board.side(ofLane: holder) != side {
          // A goalkeeper cannot be tackled: the ball is out of reach until he clears it.
          guard Board.shirt(ofLane: holder) != 1 else { return (.max, .max) }
          var nearest = Int.max
          for lane in teamLanes.dropFirst() {
            nearest = min(nearest, Board.unpack(board.pieces[lane]).distance(to: ball))
          }
          winCost = StreetSoccer.tackleCost + nearest - 1
        }
      } else {
        let keeperMay = referee.areaOwner(ball) == side
        var nearest = Int.max
        for lane in teamLanes where (Board.shirt(ofLane: lane) == 1) == keeperMay {
          nearest = min(nearest, Board.unpack(board.pieces[lane]).distance(to: ball))
        }
        guard nearest != Int.max else { return (.max, .max) }
        winCost = nearest
      }
      // Squares with a clear shot: the ball's distance to the nearest, and (when the side
      // holds the ball) a teammate's, who would get it by a pass first.
      var fromBall = Int.max
      var fromTeammate = Int.max
      let holding = winCost == 0
      for line in lines[side.index] where !line.path.intersects(occupied) {
        if let other = board.lane(at: line.from), Board.side(ofLane: other) != side { continue }
        fromBall = min(fromBall, line.square.distance(to: ball))
        guard holding else { continue }
        for lane in teamLanes.dropFirst() where board.pieces[lane] != board.ball {
          fromTeammate = min(
            fromTeammate, line.square.distance(to: Board.unpack(board.pieces[lane])))
        }
      }
      let approach = min(fromBall, fromTeammate == Int.max ? Int.max : fromTeammate + 1)
      return (winCost, approach == Int.max ? Int.max : winCost + approach + 1)
    }

    /// The chance that a die shows at least `points`.
    static func chance(_ points: Int) -> Double {
      guard points > 0 else { return 1 }
      return points > 6 ? 0 : Double(7 - points) / 6
    }

    /// A chance to get something done that needs `points`: in one turn, plus a share of the
    /// chance that two turns' dice add up to it, so that coming nearer counts before it is
    /// within one roll.
    static func prospect(_ points: Int) -> Double {
      guard points > 0 else { return 1 }
      guard points <= 12 else { return 0 }
      // Rolls of two dice (of 36) that add up to at least 2, 3, ..., 12.
      let twoDice = [36, 36, 35, 33, 30, 26, 21, 15, 10, 6, 3, 1]
      let one = chance(points)
      return one + 0.3 * (Double(twoDice[points - 1]) / 36 - one)
    }

    /// The ball's way up the pitch for `side`: −1 on its own goal line, 1 on the other.
    private func progress(of board: Board, for side: Side) -> Double {
      let x = Double(board.ballSquare.x) / Double(referee.pitch.columns - 1)
      return referee.attacksRight(side) ? 2 * x - 1 : 1 - 2 * x
    }

    /// Outfield players of `side` nearer their own goal line than the ball.
    private func cover(_ board: Board, _ side: Side) -> Int {
      let ballX = board.ballSquare.x
      let right = referee.attacksRight(side)
      var count = 0
      for shirt in 2...5 {
        let x = Board.unpack(board.pieces[Board.lane(side, shirt)]).x
        if right ? x < ballX : x > ballX { count += 1 }
      }
      return count
    }
  }
}
