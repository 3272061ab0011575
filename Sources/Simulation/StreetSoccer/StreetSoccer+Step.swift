import JSON

extension StreetSoccer {
  /// Ticks after a match between two computers ends before their rematch starts (5 s).
  static let computerRematchDelay: UInt64 = 300

  mutating func step(_ inputs: [Input]) -> [SimulationEvent] {
    // Events are cleared at the top: each step reports only its own.
    var events: [SimulationEvent] = []

    // Inputs: apply the validated inputs in arrival order.
    for input in inputs { apply(input, events: &events) }
    tick += 1
    // NB: the frame is the match's state, which only inputs and computers change (a refused
    // input counts as a change: it costs one frame).
    lastStepChangedFrame = !inputs.isEmpty

    // Computers: one plays its turn once its die is known and its delay has passed; two
    // computers start their rematch a while after the match.
    guard let due = computerDue, tick >= due else { return events }
    lastStepChangedFrame = true
    if state.over {
      startMatch(number: state.match + 1, events: &events)
    } else {
      playComputerTurn(events: &events)
    }
    return events
  }

  /// The next step plays a computer's turn, a search of milliseconds.
  public var nextStepIsHeavy: Bool {
    guard !state.over, let due = computerDue else { return false }
    return tick + 1 >= due
  }

  /// A person's turn, a brought die, a rematch or a reset starts the next turn in the step
  /// that applies it; a computer with a delay of 0 or 1 tick then plays in that same step.
  public var inputsMayMakeNextStepHeavy: Bool {
    settings.computerDelay <= 1 && settings.players.contains { $0 != .human }
  }

  /// The tick from which a computer acts, or nil when it is a person's move (or roll).
  var computerDue: UInt64? {
    if state.over {
      guard !settings.players.contains(.human) else { return nil }
      return state.turnStarted + Self.computerRematchDelay
    }
    guard state.die != 0, settings.player(state.toMove) != .human else { return nil }
    return state.turnStarted + UInt64(settings.computerDelay)
  }

  mutating func apply(_ input: Input, events: inout [SimulationEvent]) {
    do throws(SimulationError) {
      switch input {
      case .turn(let side, let moves):
        try checkTurnAllowed(for: side)
        try playTurn(moves, events: &events)
      case .die(let side, let value):
        try checkRollAllowed(by: side)
        state.die = value
        state.turnStarted = tick
        events.append(rollEvent)
      case .kit(let side, let kit):
        state.kits[side.index] = kit
        state.shown = Kit.shown(home: state.kits[0], away: state.kits[1])
        events.append(kitsEvent)
      case .rematch:
        guard state.over else {
          throw SimulationError(field: "rematch", message: "the match is not over")
        }
        startMatch(number: state.match + 1, events: &events)
      case .reset:
        let kits = state.kits
        state = State(config: settings, seed: seed)
        state.kits = kits
        state.shown = Kit.shown(home: kits[0], away: kits[1])
        state.turnStarted = tick
        events.append(resetEvent)
      }
    } catch {
      let side: JSONValue =
        switch input {
        case .turn(let side, _), .die(let side, _), .kit(let side, _), .rematch(let side):
          .string(side.rawValue)
        case .reset: .null
        }
      events.append(
        SimulationEvent(
          name: "input-rejected", fields: ["reason": .string("\(error)"), "side": side]))
    }
  }

  /// Whether `side` may confirm a turn now; throws the rule that says no.
  func checkTurnAllowed(for side: Side) throws(SimulationError) {
    guard !state.over else { throw SimulationError(field: "turn", message: "the match is over") }
    guard side == state.toMove else {
      throw SimulationError(field: "turn", message: "it is \(state.toMove.rawValue)'s turn")
    }
    guard settings.player(side) == .human else {
      throw SimulationError(field: "turn", message: "\(side.rawValue) is played by the computer")
    }
    guard state.die != 0 else {
      throw SimulationError(field: "turn", message: "the die has not been rolled yet")
    }
  }

  /// Whether `side` may bring the die now: in a session with external dice, when a roll is
  /// awaited, from the side to play (or, when a computer plays it, from the other side).
  private func checkRollAllowed(by side: Side) throws(SimulationError) {
    guard settings.dice == .external else {
      throw SimulationError(field: "die", message: "this session's dice are rolled by the server")
    }
    guard !state.over else { throw SimulationError(field: "die", message: "the match is over") }
    guard state.die == 0 else {
      throw SimulationError(
        field: "die", message: "no roll is awaited: \(state.toMove.rawValue) has a \(state.die)")
    }
    let roller = settings.player(state.toMove) == .human ? state.toMove : state.toMove.other
    guard side == roller else {
      throw SimulationError(field: "die", message: "it is \(roller.rawValue)'s roll")
    }
  }

  /// Checks a whole turn of the side to play with its die, then applies it: all or nothing.
  mutating func playTurn(_ moves: [Move], events: inout [SimulationEvent]) throws(SimulationError) {
    let (play, results) = try checkedTurn(moves)
    finishTurn(moves, results: results, play: play, events: &events)
  }

  /// The turn's moves applied to the board in order, with their results; throws the first
  /// rule broken, naming the move (`move 2: ...`, counted from 1) or the turn.
  func checkedTurn(_ moves: [Move]) throws(SimulationError) -> (Play, [Result]) {
    let (play, results) = try applied(moves)
    if let problem = endProblem(play) { throw SimulationError(field: "turn", message: problem) }
    return (play, results)
  }

  /// The side to play's moves applied in order from the turn's start, with their results;
  /// throws the first rule broken, naming the move (`move 2: ...`, counted from 1).
  func applied(_ moves: [Move]) throws(SimulationError) -> (Play, [Result]) {
    let referee = referee
    var play = Play(
      board: state.board, side: state.toMove, points: state.die, mayShoot: !state.kickOff)
    var results: [Result] = []
    for (index, move) in moves.enumerated() {
      do {
        results.append(try referee.play(move, in: &play))
      } catch {
        throw SimulationError(field: "move \(index + 1)", message: error.rule)
      }
    }
    return (play, results)
  }

  /// The rule that keeps `play` from ending the turn, or nil.
  func endProblem(_ play: Play) -> String? {
    do {
      try referee.canEnd(play, from: state.board)
      return nil
    } catch {
      return error.rule
    }
  }

  /// Books a checked turn: statistics, the goal and kick-off, then the next turn or the end.
  private mutating func finishTurn(
    _ moves: [Move], results: [Result], play: Play, events: inout [SimulationEvent]
  ) {
    let side = play.side
    for result in results { count(result, by: side) }
    state.last = LastTurn(
      side: side, die: state.die, kickOff: state.kickOff, start: state.board, moves: moves,
      results: results)
    state.kickOff = play.scored
    state.turnsPlayed += 1
    var fields: [String: JSONValue] = [
      "side": .string(side.rawValue), "number": .number(state.turnsPlayed),
      "moves": .number(moves.count),
    ]
    if play.scored {
      state.statistics.goals[side.index] += 1
      state.statistics.possession[side.index] += 1
      state.board = referee.kickOff(by: side.other)
      state.pendingPass = -1
      fields["goal"] = true
      events.append(
        SimulationEvent(
          name: "goal",
          fields: [
            "side": .string(side.rawValue), "home": .number(state.statistics.goals[0]),
            "away": .number(state.statistics.goals[1]),
          ]))
    } else {
      state.board = play.board
      if let holder = play.board.possession { state.statistics.possession[holder.index] += 1 }
    }
    events.append(SimulationEvent(name: "turn", fields: fields))
    state.toMove = side.other
    guard state.turnsPlayed < 2 * settings.turnsPerSide else {
      endMatch(events: &events)
      return
    }
    startTurn(events: &events)
  }

  /// Adds one move's result to the statistics.
  private mutating func count(_ result: Result, by side: Side) {
    let index = side.index
    switch result {
    case .step, .dribble:
      state.statistics.run[index] += 1
    case .pickup:
      state.statistics.run[index] += 1
      gainBall(side)
    case .pass:
      state.statistics.passes[index] += 1
      state.pendingPass = index
    case .received:
      state.statistics.passes[index] += 1
      state.statistics.completed[index] += 1
      state.pendingPass = -1
    case .saved:
      state.statistics.shots[index] += 1
      gainBall(side.other)
    case .goal:
      state.statistics.shots[index] += 1
    case .tackle:
      state.statistics.tackles[index] += 1
      gainBall(side)
    }
  }

  /// `side` takes the ball: a loose pass of its own is then complete.
  private mutating func gainBall(_ side: Side) {
    if state.pendingPass == side.index { state.statistics.completed[side.index] += 1 }
    state.pendingPass = -1
  }

  /// The side to play gets its die: rolled now, or awaited as an input.
  private mutating func startTurn(events: inout [SimulationEvent]) {
    state.turnStarted = tick
    guard settings.dice == .server else {
      state.die = 0
      return
    }
    state.die = 1 + state.dice.next(below: 6)
    events.append(rollEvent)
  }

  private mutating func endMatch(events: inout [SimulationEvent]) {
    state.over = true
    state.die = 0
    state.turnStarted = tick
    let goals = state.statistics.goals
    let winner = goals[0] == goals[1] ? "draw" : goals[0] > goals[1] ? "home" : "away"
    events.append(
      SimulationEvent(
        name: "match-over",
        fields: ["home": .number(goals[0]), "away": .number(goals[1]), "winner": .string(winner)]))
  }

  /// A new match between the same players: ends changed, the other side kicking off, the
  /// kits kept, the dice going on.
  private mutating func startMatch(number: Int, events: inout [SimulationEvent]) {
    state.match = number
    state.homeAttacksRight = number % 2 == 1
    state.toMove = number % 2 == 1 ? .home : .away
    state.board = referee.kickOff(by: state.toMove)
    state.kickOff = true
    state.over = false
    state.turnsPlayed = 0
    state.statistics = Statistics()
    state.pendingPass = -1
    state.last = LastTurn()
    events.append(SimulationEvent(name: "rematch", fields: ["match": .number(number)]))
    startTurn(events: &events)
  }

  /// The computer plays the side to play; its turn goes through the same checks as a person's.
  private mutating func playComputerTurn(events: inout [SimulationEvent]) {
    let player = settings.player(state.toMove)
    let start = Play(
      board: state.board, side: state.toMove, points: state.die, mayShoot: !state.kickOff)
    let moves = Opponent.turn(for: player, start: start, referee: referee, whims: &state.whims)
    do {
      try playTurn(moves, events: &events)
    } catch {
      // NB: the opponents only choose turns the referee accepts (StreetSoccerOpponentTests
      // checks every turn of whole matches); should one not, the computer clears or passes
      // rather than stall the match (and search again at every tick).
      assertionFailure("a \(player.rawValue) turn was refused: \(error)")
      let fallback = Opponent.clearance(start: start, referee: referee)
      try? playTurn(fallback, events: &events)
    }
  }

  /// `roll` `{side, value}`: the die of the side to play is known.
  private var rollEvent: SimulationEvent {
    SimulationEvent(
      name: "roll", fields: ["side": .string(state.toMove.rawValue), "value": .number(state.die)])
  }

  /// `kits` `{clash}`: a kit changed; the frames carry the kits everyone sees.
  private var kitsEvent: SimulationEvent {
    SimulationEvent(name: "kits", fields: ["clash": .bool(state.shown[1] != state.kits[1])])
  }
}
