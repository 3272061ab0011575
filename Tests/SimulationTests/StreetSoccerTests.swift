import JSON
import Testing

@testable import Simulation

/// Rules, turns, errors, statistics and rematches of the street soccer model (the computer
/// players and the kits are in StreetSoccerOpponentTests and StreetSoccerKitTests).
@Suite("Street soccer")
struct StreetSoccerTests {
  typealias Soccer = StreetSoccer

  // MARK: Config

  @Test func defaultsAndConfigErrorsNameTheField() throws {
    let model = try Soccer(config: [:], seed: 1)
    #expect(model.config["columns"] == 11 && model.config["rows"] == 7)
    #expect(model.config["turnsPerSide"] == 15 && model.config["dice"] == "server")
    #expect(model.config["home"] == "human" && model.config["away"] == "novice")
    #expect(model.config["computerDelay"] == 45)
    #expect(model.config["homeKit"]?["shirt"] == "#d62828")
    let kit = { (shirt: JSONValue, pattern: JSONValue) -> JSONValue in
      ["shirt": shirt, "shorts": "#ffffff", "pattern": pattern, "patternColor": "#000000"]
    }
    let cases: [(JSONValue, String)] = [
      (["columns": 10], "columns: must be odd, so the pitch has a centre"),
      (["columns": 17], "columns: must be an integer from 9 to 15"),
      (["rows": 6], "rows: must be odd, so the goals are centred"),
      (["turnsPerSide": 0], "turnsPerSide: must be an integer from 1 to 50"),
      (["away": "robot"], #"away: must be one of "human", "novice", "defensive", "strong""#),
      (
        ["dice": "external", "home": "strong", "away": "novice"],
        #"dice: must be "server" when computers play both sides"#
      ),
      (["homeKit": kit("red", "plain")], ##"homeKit.shirt: must be a colour like "#ff8800""##),
      (
        ["awayKit": kit("#FF0000", "checks")],
        #"awayKit.pattern: must be one of "plain", "stripes", "hoops", "halves", "sash""#
      ),
      (["homeKit": "red"], "homeKit: must be an object"),
      (
        ["pitch": 3],
        "pitch: unknown field; known fields: away, awayKit, columns, computerDelay, dice, home, "
          + "homeKit, rows, turnsPerSide"
      ),
    ]
    for (config, message) in cases {
      #expect(throws: SimulationError.self) { try Soccer(config: config, seed: 1) }
      do {
        _ = try Soccer(config: config, seed: 1)
      } catch {
        #expect(error.description == message)
      }
    }
    let custom = try Soccer(config: ["homeKit": kit("#FF00AA", "hoops")], seed: 1)
    #expect(custom.config["homeKit"]?["shirt"] == "#ff00aa")
  }

  // MARK: The start

  @Test func theMatchStartsWithHomeKickingOffAndARoll() throws {
    let model = try Soccer(config: [:], seed: 1)
    let board = model.state.board
    #expect(model.referee.isValid(board))
    #expect(board.ballSquare == Soccer.Square(x: 5, y: 3))
    #expect(board.possession == .home && board.holderShirt == 5)
    #expect(model.state.toMove == .home && (1...6).contains(model.state.die))
    #expect(model.state.kickOff && model.phase == "turn")
    for shirt in 1...5 {
      #expect(board.square(of: .away, shirt: shirt).distance(to: board.ballSquare) >= 2)
    }
    let external = try Soccer(config: ["dice": "external"], seed: 1)
    #expect(external.state.die == 0 && external.phase == "roll")
    // Every pitch size has a valid kick-off for either side and either end.
    for columns in stride(from: 9, through: 15, by: 2) {
      for rows in stride(from: 5, through: 9, by: 2) {
        for right in [true, false] {
          let referee = Soccer.Referee(
            pitch: Soccer.Pitch(columns: columns, rows: rows), homeAttacksRight: right)
          for side in Soccer.Side.allCases {
            let kickOff = referee.kickOff(by: side)
            #expect(referee.isValid(kickOff))
            #expect(kickOff.possession == side && kickOff.holderShirt == 5)
          }
        }
      }
    }
  }

  // MARK: Every rule's error

  /// Home attacks to the right; home 4 holds the ball at [5, 3].
  static let midfield = """
    . . . . . . . . . . .
    . . . 2 . . . . b . .
    . . . . . . d . . . .
    . 1 . . . 4 . . 5 . a
    . . . . . . e . . . .
    . . . . . . . . c . .
    . . . 3 . . . . . . .
    """

  static let illegalMoves: [([JSONValue], String)] = [
    ([step(3, 3, 7)], "move 1: [3, 7] is off the pitch"),
    ([step(2, 3, 3)], "move 1: a step goes to one of the 8 squares next to the piece"),
    ([step(4, 6, 2)], "move 1: [6, 2] is taken by away 4"),
    ([step(1, 2, 3)], "move 1: the goalkeeper may not leave his goal area"),
    ([step(5, 9, 3)], "move 1: only a goalkeeper may enter a goal area, and only his own"),
    ([kick(2, 5, 1)], "move 1: home 2 does not have the ball"),
    ([kick(4, 7, 4)], "move 1: a kick must follow a straight or diagonal line"),
    ([kick(4, 5, 3)], "move 1: a kick must follow a straight or diagonal line"),
    ([kick(4, -1, 3)], "move 1: a shot must go into the opponent's goal, not your own"),
    (
      [step(4, 6, 3), kick(4, 10, 7)],
      "move 2: a kick must stay on the pitch or go into the goal mouth"
    ),
    ([kick(4, 8, 0)], "move 1: the line is blocked at [6, 2] by away 4"),
    ([kick(4, 6, 4)], "move 1: a pass may not end on an opponent (away 5)"),
    ([step(5, 8, 4), kick(4, 9, 3)], "move 2: a pass may not end in a goal area"),
    ([tackle(2, 5, 3)], "move 1: a tackle must name the square of the opponent with the ball"),
    ([step(2, 4, 1), step(2, 3, 1), kick(2, 4, 1)], "move 3: home 2 does not have the ball"),
  ]

  @Test("every illegal move names its rule, and the turn changes nothing", arguments: illegalMoves)
  func illegalMove(_ moves: [JSONValue], _ reason: String) throws {
    let start = try Self.match(Self.midfield, ball: (5, 3))
    var model = start
    #expect(try Self.rejections(&model, "home", moves) == [reason])
    #expect(model.state == start.state)
  }

  /// Away holds the ball at [4, 3], next to home 2 and home 3.
  static let tackling = """
    . . . . . . . . . . .
    . . . . . . . . b . .
    . . . 2 . . . . . . .
    1 . . . d . . . . . a
    . . . 3 . . . . . . .
    . . . . . . . . c . .
    . . . . . 4 . 5 e . .
    """

  @Test func tacklesAndPointsNameTheirRules() throws {
    var short = try Self.match(Self.tackling, ball: (4, 3), die: 1)
    #expect(
      try Self.rejections(&short, "home", [tackle(2, 4, 3)])
        == ["move 1: a tackle costs 2 points and only 1 is left"])
    #expect(
      try Self.rejections(&short, "home", [tackle(4, 4, 3)])
        == ["move 1: a tackle needs the tackler next to the ball carrier"])
    #expect(
      try Self.rejections(&short, "home", [step(2, 2, 1), step(2, 2, 0)])
        == ["move 2: a step costs 1 point and none is left"])
    var model = try Self.match(Self.tackling, ball: (4, 3), die: 3)
    #expect(try Self.rejections(&model, "home", [tackle(2, 4, 3), step(2, 2, 1)]).isEmpty)
    #expect(model.state.board.possession == .home && model.state.board.holderShirt == 2)
    #expect(model.state.board.ballSquare == Soccer.Square(x: 2, y: 1))
    #expect(model.state.statistics.tackles == [1, 0] && model.state.statistics.run == [1, 0])
    #expect(model.state.toMove == .away)
  }

  /// Away's goalkeeper holds the ball at [9, 3], next to home 5; away 3 waits at [4, 3].
  static let keeper = """
    . . . . . . . . . . .
    . . . . . . . . . . .
    . . . . . . . . . . .
    1 . . b c . . . 5 a .
    . . . . . . . . . . .
    . . . . . . . . . . .
    . . . . . 4 . 3 2 d e
    """

  @Test func theGoalkeeperCannotBeTackledFliesHisPassesAndMustClear() throws {
    var home = try Self.match(Self.keeper, ball: (9, 3))
    #expect(
      try Self.rejections(&home, "home", [tackle(5, 9, 3)])
        == ["move 1: a goalkeeper cannot be tackled"])
    var away = try Self.match(Self.keeper, ball: (9, 3), toMove: .away)
    #expect(
      try Self.rejections(&away, "away", [step(1, 9, 2)])
        == ["turn: the goalkeeper held the ball when the turn began: it must leave the goal area"])
    #expect(try Self.rejections(&away, "away", []).count == 1)
    // His pass flies over home 5 at [8, 3] to away 3 at [4, 3].
    #expect(try Self.rejections(&away, "away", [kick(1, 4, 3)]).isEmpty)
    #expect(away.state.board.ballSquare == Soccer.Square(x: 4, y: 3))
    #expect(away.state.board.holderShirt == 3)
    #expect(away.state.statistics.passes == [0, 1] && away.state.statistics.completed == [0, 1])
  }

  /// Home 4 holds the ball at [5, 3]; away's keeper stands at [9, 4], away 3 at [8, 3].
  static let shooting = """
    . . . . . . . . . . .
    . . . . . . . . . . .
    . . . . . . . . . . .
    1 . . . . 4 . . c . .
    . . . . . . . . . a .
    . . . . . 2 . . . . .
    . 3 . 5 . b . d . e .
    """

  static let shotMistakes: [([JSONValue], String)] = [
    ([kick(4, 11, 3)], "move 1: a shot may travel at most 5 squares (the goal counts as one)"),
    ([step(4, 6, 3), kick(4, 11, 3)], "move 2: the line is blocked at [8, 3] by away 3"),
    ([step(4, 6, 3), kick(4, 0, 3)], "move 2: a pass may travel at most 5 squares"),
    ([kick(4, 0, 3)], "move 1: a pass may not end in a goal area"),
  ]

  @Test("shots and long passes: range and a blocked line", arguments: shotMistakes)
  func shotRules(_ moves: [JSONValue], _ reason: String) throws {
    var model = try Self.match(Self.shooting, ball: (5, 3))
    #expect(try Self.rejections(&model, "home", moves) == [reason])
  }

  @Test func aShotIntoTheOpenGoalScoresAndTheConcedingSideKicksOff() throws {
    var kickOff = try Self.match(Self.shooting, ball: (5, 3))
    kickOff.state.kickOff = true
    #expect(
      try Self.rejections(&kickOff, "home", [step(4, 6, 2), kick(4, 11, 2)])
        == ["move 2: no shot in a kick-off's turn"])

    var model = try Self.match(Self.shooting, ball: (5, 3))
    let events = try Self.playTurn(&model, "home", [step(4, 6, 2), kick(4, 11, 2), step(2, 5, 4)])
    #expect(Self.rejections(events) == ["move 3: the turn ended with the goal"])
    let scored = try Self.playTurn(&model, "home", [step(4, 6, 2), kick(4, 11, 2)])
    #expect(scored.map(\.name) == ["goal", "turn", "roll"])
    #expect(scored[0].fields["home"] == 1 && scored[0].fields["away"] == 0)
    #expect(model.state.statistics.goals == [1, 0] && model.state.statistics.shots == [1, 0])
    #expect(model.state.board == model.referee.kickOff(by: .away))
    #expect(model.state.toMove == .away && model.state.kickOff)
    #expect(model.state.last.results == [.dribble, .goal])

    var saved = try Self.match(Self.shooting, ball: (5, 3))
    #expect(try Self.rejections(&saved, "home", [step(4, 6, 4), kick(4, 11, 4)]).isEmpty)
    #expect(saved.state.board.possession == .away && saved.state.board.holderShirt == 1)
    #expect(saved.state.statistics.shots == [1, 0] && saved.state.statistics.goals == [0, 0])
    #expect(saved.state.last.results == [.dribble, .saved])
  }

  // MARK: Turns: who, when, all or nothing

  @Test func turnsComeFromTheSideToPlayAfterItsRoll() throws {
    var model = try Soccer(config: ["away": "human", "dice": "external"], seed: 1)
    let noMoves: [JSONValue] = []
    #expect(
      try Self.rejections(&model, "home", noMoves) == ["turn: the die has not been rolled yet"])
    #expect(
      try Self.rejections(&model, "away", noMoves) == ["turn: it is home's turn"])
    // Dice: only when awaited, from the side to play, 1 to 6.
    #expect(
      try Self.events(&model, ["type": "die", "side": "away", "value": 3]).map(\.reason)
        == ["die: it is home's roll"])
    #expect(throws: SimulationError(field: "value", message: "must be an integer from 1 to 6")) {
      try Soccer.checkedInput(from: ["type": "die", "side": "home", "value": 7])?.json
    }
    let rolled = try Self.events(&model, ["type": "die", "side": "home", "value": 4])
    #expect(rolled.map(\.name) == ["roll"] && model.state.die == 4)
    #expect(rolled[0].fields["value"] == 4 && rolled[0].fields["side"] == "home")
    #expect(
      try Self.events(&model, ["type": "die", "side": "home", "value": 2]).map(\.reason)
        == ["die: no roll is awaited: home has a 4"])
    #expect(try Self.rejections(&model, "home", noMoves).isEmpty)
    #expect(model.state.toMove == .away && model.state.die == 0 && model.state.turnsPlayed == 1)

    // Server dice refuse a die; a computer's side refuses a person's turn.
    var computer = try Soccer(config: ["away": "strong", "computerDelay": 600], seed: 1)
    #expect(
      try Self.events(&computer, ["type": "die", "side": "home", "value": 6]).map(\.reason)
        == ["die: this session's dice are rolled by the server"])
    #expect(try Self.rejections(&computer, "home", noMoves).isEmpty)
    #expect(
      try Self.rejections(&computer, "away", noMoves) == ["turn: away is played by the computer"])
    // With external dice the person rolls for the computer.
    var external = try Soccer(
      config: ["away": "novice", "dice": "external", "computerDelay": 0], seed: 1)
    _ = try Self.events(&external, ["type": "die", "side": "home", "value": 1])
    #expect(try Self.rejections(&external, "home", noMoves).isEmpty)
    #expect(
      try Self.events(&external, ["type": "die", "side": "away", "value": 2]).map(\.reason)
        == ["die: it is home's roll"])
    let computerTurn = try Self.events(&external, ["type": "die", "side": "home", "value": 2])
    #expect(computerTurn.map(\.name).contains("turn") && external.state.toMove == .home)
  }

  @Test func malformedMessagesNameTheField() {
    let cases: [(JSONValue, SimulationError)] = [
      (
        ["type": "turn", "moves": []],
        .init(field: "side", message: #"is required; must be one of "home", "away""#)
      ),
      (
        ["type": "turn", "side": "referee", "moves": []],
        .init(field: "side", message: #"must be one of "home", "away""#)
      ),
      (
        ["type": "turn", "side": "home"],
        .init(field: "moves", message: "is required; must be an array of 0 to 6 moves")
      ),
      (
        ["type": "turn", "side": "home", "moves": 3],
        .init(field: "moves", message: "must be an array of 0 to 6 moves")
      ),
      (
        [
          "type": "turn", "side": "home",
          "moves": .array(Array(repeating: step(2, 4, 1), count: 7)),
        ],
        .init(field: "moves", message: "must be an array of 0 to 6 moves")
      ),
      (
        ["type": "turn", "side": "home", "moves": [3]],
        .init(field: "moves[0]", message: "must be an object")
      ),
      (
        ["type": "turn", "side": "home", "moves": [["move": "run", "piece": 2, "to": [1, 1]]]],
        .init(field: "moves[0].move", message: #"must be one of "step", "kick", "tackle""#)
      ),
      (
        ["type": "turn", "side": "home", "moves": [["move": "step", "piece": 6, "to": [1, 1]]]],
        .init(field: "moves[0].piece", message: "must be an integer from 1 to 5")
      ),
      (
        ["type": "turn", "side": "home", "moves": [["move": "step", "piece": 2, "to": [1, 9]]]],
        .init(
          field: "moves[0].to",
          message: "must be [x, y] with x an integer from -1 to 15 and y from 0 to 8")
      ),
      (
        [
          "type": "turn", "side": "home", "moves": [["move": "step", "piece": 2, "to": [1.5, 1]]],
        ],
        .init(
          field: "moves[0].to",
          message: "must be [x, y] with x an integer from -1 to 15 and y from 0 to 8")
      ),
      (
        ["type": "turn", "side": "home", "moves": [["move": "step", "piece": 2]]],
        .init(
          field: "moves[0].to",
          message: "is required; must be [x, y] with x an integer from -1 to 15 and y from 0 to 8")
      ),
      (
        [
          "type": "turn", "side": "home",
          "moves": [["move": "step", "piece": 2, "to": [1, 1], "fast": true]],
        ],
        .init(field: "moves[0].fast", message: "unknown field; known fields: move, piece, to")
      ),
      (
        ["type": "die", "side": "home"],
        .init(field: "value", message: "is required; must be an integer from 1 to 6")
      ),
      (
        ["type": "rematch"],
        .init(field: "side", message: #"is required; must be one of "home", "away""#)
      ),
      (
        [
          "type": "kit", "side": "away", "shirt": "#000000", "shorts": "#ffffff",
          "pattern": "plain",
        ],
        .init(field: "patternColor", message: ##"is required; must be a colour like "#ff8800""##)
      ),
      (
        ["type": "turn", "side": "home", "moves": [], "die": 3],
        .init(field: "die", message: "unknown field; known fields: moves, side, type")
      ),
    ]
    for (message, error) in cases {
      #expect(throws: error) { try Soccer.checkedInput(from: message)?.json }
    }
    #expect((try? Soccer.checkedInput(from: ["type": "tilt"])?.json) == .some(nil))
  }

  @Test func aDamagedLogEntryIsRejectedNotACrash() throws {
    var model = try Soccer(config: ["away": "human"], seed: 1)
    let before = model.state
    let events = model.step(parsing: [
      ["type": "turn", "side": "home", "moves": [["move": "step", "piece": 9, "to": [1, 1]]]],
      ["type": "die", "side": "home", "value": "six"],
    ])
    #expect(events.count == 2 && events.allSatisfy { $0.name == "input-rejected" })
    #expect(model.state == before && model.tick == 1)
  }

  // MARK: Steps without input

  @Test func aStepWithoutInputChangesOnlyTheTick() throws {
    var model = try Soccer(config: ["away": "human"], seed: 3)
    let state = model.state
    for _ in 0..<600 { #expect(model.step(parsing: []).isEmpty) }
    #expect(model.state == state && model.tick == 600)
  }

  @Test func theComputerPlaysOnceItsDelayHasPassed() throws {
    var model = try Soccer(config: ["away": "novice", "computerDelay": 30], seed: 4)
    _ = try Self.playTurn(&model, "home", [])
    #expect(model.state.toMove == .away && model.phase == "computer")
    let started = model.state.turnStarted
    for _ in 0..<28 { #expect(model.step(parsing: []).isEmpty) }
    #expect(model.state.toMove == .away)
    let events = model.step(parsing: [])
    #expect(events.map(\.name).contains("turn") && model.state.toMove == .home)
    #expect(model.tick == started + 30)
  }

  // MARK: The match

  /// Random legal turns, from the plan API, for two people: every invariant after every turn.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func randomMatchesKeepEveryInvariant(seed: UInt64) throws {
    let config: JSONValue = ["away": "human", "turnsPerSide": 20, "columns": 9, "rows": 5]
    var model = try Soccer(config: config, seed: seed)
    var random = SeededGenerator(seed: seed)
    var goals = 0
    while !model.state.over {
      let side = model.state.toMove
      let before = model.state
      var planned: [Soccer.Move] = []
      var plan = try model.plan(for: side, planned)
      // Plan move by move; stop at random, or when nothing is left.
      while !plan.legalMoves.isEmpty, random.next(below: 5) != 0 {
        planned.append(plan.legalMoves[random.next(below: plan.legalMoves.count)])
        plan = try model.plan(for: side, planned)
        #expect(model.referee.isValid(plan.board) || plan.results.last == .goal)
      }
      if plan.confirmProblem != nil {
        planned = Soccer.Opponent.clearance(
          start: Soccer.Play(board: before.board, side: side, points: before.die, mayShoot: true),
          referee: model.referee)
        plan = try model.plan(for: side, planned)
      }
      let cost = planned.reduce(0) { $0 + $1.cost }
      #expect(cost <= before.die)
      let events = try Self.playTurn(&model, side.rawValue, planned.map(\.json))
      #expect(Self.rejections(events).isEmpty)
      #expect(model.state.turnsPlayed == before.turnsPlayed + 1)
      #expect(model.referee.isValid(model.state.board))
      if events.contains(where: { $0.name == "goal" }) {
        goals += 1
        #expect(model.state.board == model.referee.kickOff(by: side.other))
        #expect(model.state.kickOff)
      } else {
        #expect(model.state.board == plan.board && !model.state.kickOff)
      }
      #expect(model.state.over || model.state.toMove == side.other)
    }
    #expect(model.state.turnsPlayed == 40)
    #expect(model.state.statistics.goals.reduce(0, +) == goals)
    #expect(model.state.statistics.possession.reduce(0, +) <= 40)
    #expect(model.phase == "over" && model.state.die == 0)
    #expect(
      try Self.rejections(&model, model.state.toMove.rawValue, [])
        == ["turn: the match is over"])
  }

  /// The legal moves are exactly the moves the referee accepts, on random boards.
  @Test func legalMovesAreExactlyTheAcceptedOnes() throws {
    var random = SeededGenerator(seed: 11)
    var model = try Soccer(
      config: ["home": "novice", "away": "novice", "computerDelay": 0], seed: 5)
    var checked = 0
    while checked < 40 {
      _ = model.step(parsing: [])
      if model.state.over { _ = model.step(parsing: [["type": "rematch", "side": "home"]]) }
      guard !model.state.over, model.state.die != 0 else { continue }
      let referee = model.referee
      let play = Soccer.Play(
        board: model.state.board, side: model.state.toMove, points: 1 + random.next(below: 6),
        mayShoot: random.next(below: 4) != 0)
      let legal = Set(referee.legalMoves(in: play))
      var accepted: Set<Soccer.Move> = []
      for kind in Soccer.Move.Kind.allCases {
        for piece in 1...5 {
          for x in Soccer.Move.xRange {
            for y in Soccer.Move.yRange {
              var copy = play
              let move = Soccer.Move(kind, piece: piece, to: Soccer.Square(x: x, y: y))
              if (try? referee.play(move, in: &copy)) != nil { accepted.insert(move) }
            }
          }
        }
      }
      #expect(legal == accepted)
      #expect(legal.count == referee.legalMoves(in: play).count)
      checked += 1
    }
  }

  @Test func theMatchEndsAfterItsTurnsAndARematchChangesEnds() throws {
    var model = try Soccer(config: ["away": "human", "turnsPerSide": 2], seed: 7)
    #expect(
      try Self.events(&model, ["type": "rematch", "side": "away"]).map(\.reason)
        == ["rematch: the match is not over"])
    var names: [String] = []
    for side in ["home", "away", "home", "away"] {
      names += try Self.playTurn(&model, side, []).map(\.name)
    }
    #expect(names.filter { $0 == "turn" }.count == 4 && names.last == "match-over")
    #expect(model.state.over && model.phase == "over")
    let kits = model.state.shown
    let rematch = try Self.events(&model, ["type": "rematch", "side": "away"])
    #expect(rematch.map(\.name) == ["rematch", "roll"])
    #expect(rematch[0].fields["match"] == 2)
    #expect(model.state.match == 2 && !model.state.homeAttacksRight)
    #expect(model.state.toMove == .away && model.state.turnsPlayed == 0)
    #expect(model.state.board == model.referee.kickOff(by: .away))
    #expect(model.state.statistics == Soccer.Statistics() && model.state.shown == kits)
    // Away now attacks to the right: its kick-off taker stands on the centre square, and
    // home's goalkeeper in the right-hand area.
    #expect(model.state.board.square(of: .home, shirt: 1) == Soccer.Square(x: 10, y: 3))
  }

  @Test func resetStartsAgainWithTheSameDiceAndKeepsTheKits() throws {
    var model = try Soccer(config: ["away": "human"], seed: 9)
    let fresh = model.state
    let kit: JSONValue = [
      "type": "kit", "side": "away", "shirt": "#00ff00", "shorts": "#000000",
      "pattern": "halves", "patternColor": "#ffffff",
    ]
    _ = try Self.events(&model, kit)
    _ = try Self.playTurn(&model, "home", [])
    let events = try Self.events(&model, ["type": "reset"])
    #expect(events.map(\.name) == ["reset"])
    #expect(events[0].fields["hello"]?["pitch"]?["columns"] == 11)
    #expect(model.state.kits[1].shirt == "#00ff00")
    var expected = fresh
    expected.kits = model.state.kits
    expected.shown = model.state.shown
    expected.turnStarted = model.state.turnStarted
    #expect(model.state == expected)
  }

  // MARK: Statistics

  @Test func passesCountAsCompletedWhenATeammateTakesTheBall() throws {
    var model = try Self.match(Self.midfield, ball: (5, 3), config: ["away": "human"])
    // A pass to an empty square, taken by a teammate: completed.
    _ = try Self.playTurn(&model, "home", [kick(4, 5, 5), step(3, 4, 5), step(3, 5, 5)])
    #expect(model.state.statistics.passes == [1, 0] && model.state.statistics.completed == [1, 0])
    #expect(model.state.statistics.run == [2, 0] && model.state.statistics.possession == [1, 0])
    // A pass to an empty square, taken by the opponent: not completed.
    model.state.die = 6
    _ = try Self.playTurn(&model, "away", [])
    model.state.die = 6
    _ = try Self.playTurn(&model, "home", [kick(3, 7, 5)])
    model.state.die = 6
    _ = try Self.playTurn(&model, "away", [step(3, 7, 5)])
    #expect(model.state.statistics.passes == [2, 0] && model.state.statistics.completed == [1, 0])
    // Possession counts the turns (of either side) that ended with the side holding the ball.
    #expect(model.state.statistics.possession == [2, 1] && model.state.statistics.run == [2, 1])
    #expect(model.state.pendingPass == -1)
  }

  // MARK: Plans

  @Test func aPlanShowsTheBoardTheLegalMovesAndWhyItCannotBeConfirmed() throws {
    let model = try Self.match(Self.keeper, ball: (9, 3), die: 2, toMove: .away)
    let start = try model.plan(for: .away, [])
    #expect(start.board == model.state.board && start.pointsLeft == 2 && start.results.isEmpty)
    #expect(start.confirmProblem?.hasPrefix("turn: the goalkeeper held the ball") == true)
    #expect(start.legalMoves.contains(Soccer.Move(.kick, piece: 1, to: Soccer.Square(x: 4, y: 3))))
    #expect(!start.legalMoves.contains { $0.kind == .tackle })
    let planned = [Soccer.Move(.kick, piece: 1, to: Soccer.Square(x: 4, y: 3))]
    let after = try model.plan(for: .away, planned)
    #expect(after.pointsLeft == 1 && after.results == [.received] && after.confirmProblem == nil)
    #expect(after.board.ballSquare == Soccer.Square(x: 4, y: 3))
    #expect(after.legalMoves.allSatisfy { $0.cost <= 1 })
    #expect(try model.legalMoves(for: .away, after: planned) == after.legalMoves)
    #expect(try model.preview(for: .away, planned) == after.board)
    #expect(throws: SimulationError(field: "turn", message: "it is away's turn")) {
      try model.plan(for: .home, [])
    }
    let bad = [Soccer.Move(.kick, piece: 2, to: Soccer.Square(x: 4, y: 3))]
    #expect(throws: SimulationError(field: "move 1", message: "away 2 does not have the ball")) {
      try model.plan(for: .away, bad)
    }
    var writer = JSONWriter()
    writer.beginObject()
    after.write(into: &writer)
    writer.endObject()
    let json = try JSONValue.parse(writer.bytes)
    #expect(json["pointsLeft"] == 1 && json["canConfirm"] == true && json["goal"] == false)
    #expect(json["results"] == ["received"] && json["problem"] == nil)
    #expect(json["board"]?["ball"] == [4, 3])
    #expect(json["legal"]?.arrayValue?.count == after.legalMoves.count)
    // Moves read back from a plan message are the same moves.
    let legal = try #require(json["legal"]?.arrayValue)
    #expect(try legal.map { try Soccer.Move.list(from: [$0])[0] } == after.legalMoves)
    // Planning does not change the model.
    #expect(model.state.board == start.board)
  }

  // MARK: Messages

  @Test func helloAndFrameCarryWhatAPageDraws() throws {
    var model = try Soccer(config: ["away": "human"], seed: 2)
    _ = try Self.playTurn(&model, "home", [])
    var writer = JSONWriter()
    writer.beginObject()
    model.writeHello(into: &writer)
    writer.endObject()
    let hello = try JSONValue.parse(writer.bytes)
    #expect(
      hello["pitch"] == [
        "columns": 11, "rows": 7, "mouth": [2, 4], "areaRows": [1, 5], "areaDepth": 2,
      ])
    #expect(hello["rules"]?["shotRange"] == 5 && hello["rules"]?["clashThreshold"] == 25)
    #expect(hello["players"] == ["home": "human", "away": "human"] && hello["dice"] == "server")
    #expect(hello["toMove"] == "away" && hello["phase"] == "turn" && hello["match"] == 1)
    #expect(hello["board"]?["pieces"]?.arrayValue?.count == 20)
    #expect(hello["last"]?["side"] == "home" && hello["last"]?["moves"] == [])
    #expect(hello["kits"]?["home"]?["keeper"] != hello["kits"]?["home"]?["shirt"])
    #expect(hello["stats"]?["possession"] == [1, 0] && hello["score"] == [0, 0])
    #expect(hello["die"]?.intValue == model.state.die && hello["turns"] == 30)
  }

  // MARK: Snapshots

  @Test func snapshotsRoundTripAndImpossibleMatchesAreRefused() throws {
    var model = try Self.match(Self.midfield, ball: (5, 3))
    _ = try Self.playTurn(&model, "home", [kick(4, 5, 5), step(3, 4, 5)])
    let bytes = model.snapshot()
    let restored = try Soccer(snapshot: bytes)
    #expect(restored.state == model.state && restored.snapshot() == bytes)
    #expect(restored.state.last.results == [.pass, .step])
    let damages: [(inout Soccer) -> Void] = [
      { $0.state.board.pieces[1] = $0.state.board.pieces[0] },
      { $0.state.board.pieces[2] = Soccer.Board.pack(Soccer.Square(x: 0, y: 3)) },
      { $0.state.board.ball = Soccer.Board.pack(Soccer.Square(x: 10, y: 2)) },
      { $0.state.die = 7 },
      { $0.state.turnsPlayed = 31 },
      { $0.state.statistics.goals[0] = 3 },
      { $0.state.shown[1] = $0.state.shown[0] },
      { $0.state.last.moves[0].to.x = 6 },
      { $0.state.pendingPass = 2 },
      { $0.state.turnStarted = $0.tick + 1 },
    ]
    for damage in damages {
      var bad = model
      damage(&bad)
      #expect(throws: SimulationError(field: "snapshot", message: "holds an invalid match")) {
        try Soccer(snapshot: bad.snapshot())
      }
    }
  }

  // MARK: Helpers

  /// A match between two people at a chosen board, side and die (not a kick-off).
  static func match(
    _ rows: String, ball: (Int, Int), die: Int = 6, toMove: Soccer.Side = .home,
    config: JSONValue = ["away": "human"]
  ) throws -> Soccer {
    var model = try Soccer(config: config, seed: 1)
    model.state.board = board(rows, ball: ball)
    model.state.die = die
    model.state.toMove = toMove
    model.state.kickOff = false
    #expect(model.referee.isValid(model.state.board))
    return model
  }

  /// A board drawn as text, one row a line: `.` empty, `1` to `5` home's shirts, `a` to `e`
  /// away's.
  static func board(_ rows: String, ball: (Int, Int)) -> Soccer.Board {
    var pieces = SIMD16<UInt8>(repeating: Soccer.Board.unused)
    for (y, row) in rows.split(separator: "\n").enumerated() {
      for (x, token) in row.split(separator: " ").enumerated() {
        let square = Soccer.Board.pack(Soccer.Square(x: x, y: y))
        if let shirt = Int(token) {
          pieces[Soccer.Board.lane(.home, shirt)] = square
        } else if let letter = token.unicodeScalars.first, ("a"..."e").contains(letter) {
          pieces[Soccer.Board.lane(.away, Int(letter.value) - 96)] = square
        }
      }
    }
    return Soccer.Board(
      pieces: pieces, ball: Soccer.Board.pack(Soccer.Square(x: ball.0, y: ball.1)))
  }

  /// Steps a `turn` of `side` through the JSON path, as a session would log it.
  static func playTurn(_ model: inout Soccer, _ side: String, _ moves: [JSONValue]) throws
    -> [SimulationEvent]
  {
    try events(&model, ["type": "turn", "side": .string(side), "moves": .array(moves)])
  }

  /// Steps one message through the JSON path; the model's events.
  static func events(_ model: inout Soccer, _ message: JSONValue) throws -> [SimulationEvent] {
    let input = try #require(try Soccer.checkedInput(from: message)?.json)
    return model.step(parsing: [input])
  }

  /// The reasons the step of a `turn` rejected.
  static func rejections(_ model: inout Soccer, _ side: String, _ moves: [JSONValue]) throws
    -> [String]
  {
    rejections(try playTurn(&model, side, moves))
  }

  static func rejections(_ events: [SimulationEvent]) -> [String] {
    events.filter { $0.name == "input-rejected" }.compactMap(\.reason)
  }
}

extension SimulationEvent {
  /// An `input-rejected` event's reason.
  fileprivate var reason: String? { fields["reason"]?.stringValue }
}

private func step(_ piece: Int, _ x: Int, _ y: Int) -> JSONValue { move("step", piece, x, y) }
private func kick(_ piece: Int, _ x: Int, _ y: Int) -> JSONValue { move("kick", piece, x, y) }
private func tackle(_ piece: Int, _ x: Int, _ y: Int) -> JSONValue { move("tackle", piece, x, y) }

private func move(_ kind: String, _ piece: Int, _ x: Int, _ y: Int) -> JSONValue {
  ["move": .string(kind), "piece": .number(piece), "to": [.number(x), .number(y)]]
}
