extension StreetSoccer.Referee {
  typealias Board = StreetSoccer.Board
  typealias Move = StreetSoccer.Move
  typealias Square = StreetSoccer.Square

  /// The 8 directions, in the order moves are listed.
  static let directions = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]

  /// Calls `body` with every move `play(_:in:)` accepts, and what it would do: for each piece
  /// in shirt order, its steps, then its kicks (passes, then the shot, direction by
  /// direction), then its tackle.
  func forEachLegalMove(in play: StreetSoccer.Play, _ body: (Move, StreetSoccer.Result) -> Void) {
    guard !play.scored, play.points >= 1 else { return }
    let board = play.board
    let side = play.side
    let holder = board.holder
    for shirt in 1...5 {
      let lane = Board.lane(side, shirt)
      let from = Board.unpack(board.pieces[lane])
      for (dx, dy) in Self.directions {
        let to = Square(x: from.x + dx, y: from.y + dy)
        guard pitch.contains(to) else { continue }
        let packed = Board.pack(to)
        guard !board.isTaken(packed) else { continue }
        let area = areaOwner(to)
        guard shirt == 1 ? area == side : area == nil else { continue }
        let result: StreetSoccer.Result =
          holder == lane ? .dribble : board.ball == packed ? .pickup : .step
        body(Move(.step, piece: shirt, to: to), result)
      }
      if holder == lane { forEachKick(from: from, shirt: shirt, in: play, body) }
      if play.points >= StreetSoccer.tackleCost, let holder,
        Board.side(ofLane: holder) != side, Board.shirt(ofLane: holder) != 1,
        from.distance(to: board.ballSquare) == 1
      {
        body(Move(.tackle, piece: shirt, to: board.ballSquare), .tackle)
      }
    }
  }

  /// The legal moves of `play`, in `forEachLegalMove` order.
  func legalMoves(in play: StreetSoccer.Play) -> [Move] {
    var moves: [Move] = []
    forEachLegalMove(in: play) { move, _ in moves.append(move) }
    return moves
  }

  private func forEachKick(
    from: Square, shirt: Int, in play: StreetSoccer.Play,
    _ body: (Move, StreetSoccer.Result) -> Void
  ) {
    let board = play.board
    let side = play.side
    let flying = shirt == 1
    let right = attacksRight(side)
    for (dx, dy) in Self.directions {
      // Passes: along the line while it is clear (a goalkeeper's fly over pieces).
      for length in 1...StreetSoccer.passRange {
        let to = Square(x: from.x + length * dx, y: from.y + length * dy)
        guard pitch.contains(to) else { break }
        let open = areaOwner(to) == nil
        if let other = board.lane(at: Board.pack(to)) {
          if open, Board.side(ofLane: other) == side {
            body(Move(.kick, piece: shirt, to: to), .received)
          }
          if flying { continue }
          break
        }
        if open { body(Move(.kick, piece: shirt, to: to), .pass) }
      }
      // The shot: towards the goal this side attacks, into its mouth, within range.
      guard play.mayShoot, dx == (right ? 1 : -1) else { continue }
      let goalX = right ? pitch.columns : -1
      let length = abs(goalX - from.x)
      guard length <= StreetSoccer.shotRange else { continue }
      let target = Square(x: goalX, y: from.y + length * dy)
      guard pitch.mouth.contains(target.y) else { continue }
      // The first piece on the line decides: none scores, the keeper saves, any other blocks.
      var result: StreetSoccer.Result? = .goal
      for step in 1..<length {
        let packed = Board.pack(Square(x: from.x + step * dx, y: from.y + step * dy))
        guard let other = board.lane(at: packed) else { continue }
        result = other == Board.lane(side.other, 1) ? .saved : nil
        break
      }
      if let result { body(Move(.kick, piece: shirt, to: target), result) }
    }
  }
}
