extension StreetSoccer {
  /// The rules of one match: which way each side attacks, and what every move may do. Pure:
  /// it checks and applies moves to a `Play`, and lists the legal ones.
  struct Referee: Sendable, Equatable {
    let pitch: Pitch
    /// Whether home attacks the goal at x = columns (ends change at each rematch).
    let homeAttacksRight: Bool

    /// Whether `side` attacks the goal at x = columns.
    func attacksRight(_ side: Side) -> Bool { (side == .home) == homeAttacksRight }

    /// The side defending the goal area a square lies in, if it lies in one.
    func areaOwner(_ square: Square) -> Side? {
      guard let end = pitch.area(at: square) else { return nil }
      return attacksRight(.home) == (end == .left) ? .home : .away
    }

    /// The side defending the goal a goal square lies in, if it is one.
    func goalOwner(_ square: Square) -> Side? {
      guard let end = pitch.goal(at: square) else { return nil }
      return attacksRight(.home) == (end == .left) ? .home : .away
    }

    /// The board of a kick-off by `side`: both teams in their own halves, the kicking side's
    /// number 5 on the centre square with the ball.
    func kickOff(by side: Side) -> Board {
      let middle = pitch.middleRow
      let centre = pitch.columns / 2
      var pieces = SIMD16<UInt8>(repeating: Board.unused)
      for team in Side.allCases {
        let right = attacksRight(team)
        let kicking = team == side
        let spots = [
          (0, middle), (2, middle - 2), (2, middle + 2), (centre - 2, middle - 1),
          kicking ? (centre, middle) : (centre - 2, middle + 1),
        ]
        for (shirt, spot) in zip(1...5, spots) {
          let square = pitch.square(spot.0, spot.1, attackingRight: right)
          pieces[Board.lane(team, shirt)] = Board.pack(square)
        }
      }
      return Board(pieces: pieces, ball: Board.pack(pitch.centre))
    }

    /// Checks a move for the side playing `play` and applies it; throws the rule it breaks.
    func play(_ move: Move, in play: inout Play) throws(RuleViolation) -> Result {
      guard !play.scored else { throw RuleViolation(rule: "the turn ended with the goal") }
      guard (1...5).contains(move.piece) else {
        throw RuleViolation(rule: "pieces are numbered 1 to 5")
      }
      let lane = Board.lane(play.side, move.piece)
      let from = Board.unpack(play.board.pieces[lane])
      let result: Result
      switch move.kind {
      case .step: result = try checkStep(lane: lane, from: from, to: move.to, in: play)
      case .kick: result = try checkKick(lane: lane, from: from, to: move.to, in: play)
      case .tackle: result = try checkTackle(lane: lane, from: from, at: move.to, in: play)
      }
      guard move.cost <= play.points else {
        let cost = move.cost == 1 ? "1 point" : "\(move.cost) points"
        let left = play.points == 0 ? "none" : "only \(play.points)"
        throw RuleViolation(rule: "a \(move.kind.rawValue) costs \(cost) and \(left) is left")
      }
      apply(move, lane: lane, result: result, to: &play)
      return result
    }

    /// Applies a move already checked.
    func apply(_ move: Move, lane: Int, result: Result, to play: inout Play) {
      play.points -= move.cost
      switch result {
      case .step, .pickup:
        play.board.pieces[lane] = Board.pack(move.to)
      case .dribble:
        play.board.pieces[lane] = Board.pack(move.to)
        play.board.ball = play.board.pieces[lane]
      case .pass, .received:
        play.board.ball = Board.pack(move.to)
      case .saved:
        play.board.ball = play.board.pieces[Board.lane(play.side.other, 1)]
      case .goal:
        play.scored = true
      case .tackle:
        play.board.ball = play.board.pieces[lane]
      }
    }

    /// Whether a turn that began on `start` may end as `play` is: a goalkeeper who held the
    /// ball when his side's turn began must have cleared it from his goal area (or scored).
    func canEnd(_ play: Play, from start: Board) throws(RuleViolation) {
      guard !play.scored, start.holder == Board.lane(play.side, 1),
        areaOwner(play.board.ballSquare) == play.side
      else { return }
      throw RuleViolation(
        rule: "the goalkeeper held the ball when the turn began: it must leave the goal area")
    }

    /// Names a piece for messages, e.g. `away 3`.
    static func name(_ lane: Int) -> String {
      "\(Board.side(ofLane: lane).rawValue) \(Board.shirt(ofLane: lane))"
    }

    private func checkStep(lane: Int, from: Square, to: Square, in play: Play)
      throws(RuleViolation) -> Result
    {
      guard pitch.contains(to) else { throw RuleViolation(rule: "\(to) is off the pitch") }
      guard from.distance(to: to) == 1 else {
        throw RuleViolation(rule: "a step goes to one of the 8 squares next to the piece")
      }
      let packed = Board.pack(to)
      if let other = play.board.lane(at: packed) {
        throw RuleViolation(rule: "\(to) is taken by \(Self.name(other))")
      }
      let area = areaOwner(to)
      if Board.shirt(ofLane: lane) == 1 {
        guard area == play.side else {
          throw RuleViolation(rule: "the goalkeeper may not leave his goal area")
        }
      } else if area != nil {
        throw RuleViolation(rule: "only a goalkeeper may enter a goal area, and only his own")
      }
      if play.board.ball == play.board.pieces[lane] { return .dribble }
      return play.board.ball == packed ? .pickup : .step
    }

    private func checkKick(lane: Int, from: Square, to: Square, in play: Play)
      throws(RuleViolation) -> Result
    {
      guard play.board.ball == play.board.pieces[lane] else {
        throw RuleViolation(rule: "\(Self.name(lane)) does not have the ball")
      }
      let dx = to.x - from.x
      let dy = to.y - from.y
      guard dx != 0 || dy != 0, dx == 0 || dy == 0 || abs(dx) == abs(dy) else {
        throw RuleViolation(rule: "a kick must follow a straight or diagonal line")
      }
      let length = max(abs(dx), abs(dy))
      let direction = (dx.signum(), dy.signum())
      if let defender = goalOwner(to) {
        guard defender != play.side else {
          throw RuleViolation(rule: "a shot must go into the opponent's goal, not your own")
        }
        guard play.mayShoot else { throw RuleViolation(rule: "no shot in a kick-off's turn") }
        guard length <= StreetSoccer.shotRange else {
          throw RuleViolation(
            rule: "a shot may travel at most \(StreetSoccer.shotRange) squares "
              + "(the goal counts as one)")
        }
        for step in 1..<length {
          let square = Square(x: from.x + step * direction.0, y: from.y + step * direction.1)
          guard let other = play.board.lane(at: Board.pack(square)) else { continue }
          if other == Board.lane(defender, 1) { return .saved }
          throw RuleViolation(rule: "the line is blocked at \(square) by \(Self.name(other))")
        }
        return .goal
      }
      guard pitch.contains(to) else {
        throw RuleViolation(rule: "a kick must stay on the pitch or go into the goal mouth")
      }
      guard length <= StreetSoccer.passRange else {
        throw RuleViolation(rule: "a pass may travel at most \(StreetSoccer.passRange) squares")
      }
      // NB: a goalkeeper's passes fly over the pieces in their way.
      if Board.shirt(ofLane: lane) != 1 {
        for step in 1..<length {
          let square = Square(x: from.x + step * direction.0, y: from.y + step * direction.1)
          if let other = play.board.lane(at: Board.pack(square)) {
            throw RuleViolation(rule: "the line is blocked at \(square) by \(Self.name(other))")
          }
        }
      }
      guard areaOwner(to) == nil else {
        throw RuleViolation(rule: "a pass may not end in a goal area")
      }
      let receiver = play.board.lane(at: Board.pack(to))
      if let receiver, Board.side(ofLane: receiver) != play.side {
        throw RuleViolation(rule: "a pass may not end on an opponent (\(Self.name(receiver)))")
      }
      return receiver == nil ? .pass : .received
    }

    private func checkTackle(lane: Int, from: Square, at target: Square, in play: Play)
      throws(RuleViolation) -> Result
    {
      guard pitch.contains(target), let carrier = play.board.lane(at: Board.pack(target)),
        play.board.ball == Board.pack(target), Board.side(ofLane: carrier) != play.side
      else {
        throw RuleViolation(rule: "a tackle must name the square of the opponent with the ball")
      }
      guard Board.shirt(ofLane: carrier) != 1 else {
        throw RuleViolation(rule: "a goalkeeper cannot be tackled")
      }
      guard from.distance(to: target) == 1 else {
        throw RuleViolation(rule: "a tackle needs the tackler next to the ball carrier")
      }
      return .tackle
    }
  }
}
