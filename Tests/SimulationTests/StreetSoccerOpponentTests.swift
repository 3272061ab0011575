import JSON
import Testing

@testable import Simulation

/// The computer players: always legal, deterministic, and in the right order of strength.
/// (Their speed and the 50-match result are benchmarks: StreetSoccerBenchmarkTests.)
@Suite("Street soccer opponents")
struct StreetSoccerOpponentTests {
  typealias Soccer = StreetSoccer

  static let pairings: [(String, String, JSONValue)] = [
    ("novice", "defensive", ["columns": 9, "rows": 5]),
    ("defensive", "strong", ["columns": 15, "rows": 9]),
    ("strong", "novice", [:]),
  ]

  /// Every computer turn, worked out apart, is one the referee accepts as it stands.
  @Test(arguments: pairings)
  func computersOnlyPlayLegalTurns(_ home: String, _ away: String, _ pitch: JSONValue) throws {
    var config = pitch.objectValue ?? [:]
    config["home"] = .string(home)
    config["away"] = .string(away)
    config["turnsPerSide"] = 8
    config["computerDelay"] = 0
    var model = try Soccer(config: .object(config), seed: 31)
    var turns = 0
    while !model.state.over {
      let state = model.state
      let start = Soccer.Play(
        board: state.board, side: state.toMove, points: state.die, mayShoot: !state.kickOff)
      var whims = state.whims
      let moves = Soccer.Opponent.turn(
        for: model.settings.player(state.toMove), start: start, referee: model.referee,
        whims: &whims)
      #expect(throws: Never.self) { try model.checkedTurn(moves) }
      let events = model.step(parsing: [])
      #expect(!events.contains { $0.name == "input-rejected" })
      #expect(model.state.turnsPlayed == state.turnsPlayed + 1)
      #expect(model.state.last.moves == moves)
      turns += 1
    }
    #expect(turns == 16)
  }

  @Test func theStrongPlayerBeatsTheNovice() throws {
    for seed in [1, 2] as [UInt64] {
      let strongHome = seed % 2 == 1
      let config: JSONValue = [
        "home": strongHome ? "strong" : "novice", "away": strongHome ? "novice" : "strong",
        "computerDelay": 0,
      ]
      var model = try Soccer(config: config, seed: seed)
      while !model.state.over { _ = model.step(parsing: []) }
      let goals = model.state.statistics.goals
      let (strong, novice) = strongHome ? (goals[0], goals[1]) : (goals[1], goals[0])
      #expect(strong > novice, "seed \(seed): \(strong) to \(novice)")
    }
  }

  @Test func aGoalkeeperHoldingTheBallClears() throws {
    // Home's keeper saved a shot: every character must clear, even with a 1.
    let rows = """
      . . . . . . . . . . .
      . . . . . . . . . . .
      . . . . . . . . . . .
      . 1 b c d . . . . . a
      . . . . . . . . . . .
      . . e . . . . . . . .
      . . . . 2 3 4 5 . . .
      """
    let board = StreetSoccerTests.board(rows, ball: (1, 3))
    let referee = Soccer.Referee(pitch: Soccer.Pitch(columns: 11, rows: 7), homeAttacksRight: true)
    #expect(referee.isValid(board))
    let start = Soccer.Play(board: board, side: .home, points: 1, mayShoot: true)
    var whims = SeededGenerator(seed: 1)
    for player in [Soccer.Player.novice, .defensive, .strong] {
      let moves = Soccer.Opponent.turn(for: player, start: start, referee: referee, whims: &whims)
      var play = start
      for move in moves { _ = try referee.play(move, in: &play) }
      #expect(throws: Never.self) { try referee.canEnd(play, from: board) }
      #expect(referee.areaOwner(play.board.ballSquare) == nil)
    }
    #expect(Soccer.Opponent.clearance(start: start, referee: referee).count == 1)
  }

  @Test func theNovicesWhimsFollowTheSeed() throws {
    func match(_ seed: UInt64) throws -> [Soccer.Move] {
      let config: JSONValue = ["home": "novice", "away": "novice", "computerDelay": 0]
      var model = try Soccer(config: config, seed: seed)
      var moves: [Soccer.Move] = []
      for _ in 0..<10 {
        _ = model.step(parsing: [])
        moves += model.state.last.moves
      }
      return moves
    }
    #expect(try match(8) == match(8))
    #expect(try match(8) != match(9))
  }
}
