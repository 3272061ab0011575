import JSON

extension StreetSoccer {
  /// A turn being planned by the side to play, before it is confirmed: what the planned moves
  /// do, and what may come next. Worked out from the state without stepping or logging, so a
  /// page can undo one move or all and ask again.
  public struct Plan: Sendable, Equatable {
    /// The board after the planned moves (after a goal: as it was when the ball went in).
    public let board: Board
    /// Points of the die not spent yet.
    public let pointsLeft: Int
    /// What each planned move did.
    public let results: [Result]
    /// The legal moves after the planned ones (none once a goal has ended the turn).
    public let legalMoves: [Move]
    /// Why the turn cannot be confirmed as planned, or nil if it can.
    public let confirmProblem: String?

    /// Writes `board`, `pointsLeft`, `results`, `goal`, `legal`, `canConfirm` and (when it
    /// cannot) `problem` into an object the caller has begun.
    public func write(into writer: inout JSONWriter) {
      writer.key("board")
      writer.board(board)
      writer.field("pointsLeft", pointsLeft)
      writer.key("results")
      writer.beginArray()
      for result in results { writer.string(result.rawValue) }
      writer.endArray()
      writer.field("goal", results.last == .goal)
      writer.key("legal")
      writer.beginArray()
      for move in legalMoves { move.write(into: &writer) }
      writer.endArray()
      writer.field("canConfirm", confirmProblem == nil)
      if let confirmProblem { writer.field("problem", confirmProblem) }
    }
  }

  /// The plan of `side` after `planned` moves; throws when `side` may not play now, or naming
  /// the first planned move that breaks a rule (`move 2: a pass may travel at most 5 squares`).
  public func plan(for side: Side, _ planned: [Move]) throws(SimulationError) -> Plan {
    try checkTurnAllowed(for: side)
    guard planned.count <= Self.maxMovesPerTurn else {
      throw SimulationError(
        field: "moves", message: "must be an array of 0 to \(Self.maxMovesPerTurn) moves")
    }
    let (play, results) = try applied(planned)
    return Plan(
      board: play.board, pointsLeft: play.points, results: results,
      legalMoves: referee.legalMoves(in: play),
      confirmProblem: endProblem(play).map { "turn: \($0)" })
  }

  /// The legal moves of `side` after `planned` moves (see `plan(for:_:)`).
  public func legalMoves(for side: Side, after planned: [Move]) throws(SimulationError) -> [Move] {
    try plan(for: side, planned).legalMoves
  }

  /// The board after `side`'s `planned` moves (see `plan(for:_:)`).
  public func preview(for side: Side, _ planned: [Move]) throws(SimulationError) -> Board {
    try plan(for: side, planned).board
  }

  /// The board at the start of the turn being played.
  public var board: Board { state.board }
  /// The side to play.
  public var sideToPlay: Side { state.toMove }
  /// The die of the turn being played, or nil while a roll is awaited or the match is over.
  public var die: Int? { state.die == 0 ? nil : state.die }
  /// Whether the match has ended.
  public var isOver: Bool { state.over }
  /// Goals so far, home's first.
  public var score: (home: Int, away: Int) {
    (state.statistics.goals[0], state.statistics.goals[1])
  }
  /// The kits everyone sees, after the clash rule.
  public var kits: (home: Kit, away: Kit) { (state.shown[0], state.shown[1]) }
  /// Who plays `side`.
  public func player(_ side: Side) -> Player { settings.player(side) }
}
