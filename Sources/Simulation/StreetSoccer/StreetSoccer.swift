import JSON

/// The seed's Streetsoccer: a dice-driven, turn-based football board game for two, with
/// computer opponents and custom kits. The model is the referee: it rolls the dice from the
/// session's seed (or takes them as inputs), enforces every rule, lists the legal moves, plays
/// the computer's turns, and keeps the statistics. The rules are in docs/street-soccer.md.
public struct StreetSoccer: ConfiguredModel {
  public static let kind = "street-soccer"
  public static let title = "Street Soccer"
  public static let summary = "Dice football for two: five a side, a roll a turn, pass and shoot."

  /// Points a tackle costs (a step or a kick costs 1).
  public static let tackleCost = 2
  /// Longest pass, in squares.
  public static let passRange = 5
  /// Longest shot, in squares, the goal square counted.
  public static let shotRange = 5
  /// Most moves in one turn: one point each at best, and the die shows at most 6.
  public static let maxMovesPerTurn = 6

  let settings: Config
  let seed: UInt64
  public internal(set) var tick: UInt64 = 0
  var state: State
  /// Whether the last step changed the frame (`Simulation.lastStepChangedFrame`); not part
  /// of the state: never snapshotted nor hashed.
  public internal(set) var lastStepChangedFrame = true

  /// The state's fields, in the order snapshots have always had them: the frame flag is not
  /// state.
  private enum CodingKeys: String, CodingKey {
    case settings, seed, tick, state
  }

  init(settings: Config, seed: UInt64) {
    self.settings = settings
    self.seed = seed
    state = State(config: settings, seed: seed)
  }

  /// The rules of the match being played.
  var referee: Referee {
    Referee(pitch: settings.pitch, homeAttacksRight: state.homeAttacksRight)
  }

  func validateRestoredState() throws(SimulationError) {
    let problem = SimulationError(field: "snapshot", message: "holds an invalid match")
    let totalTurns = 2 * settings.turnsPerSide
    guard (0...totalTurns).contains(state.turnsPlayed),
      state.over == (state.turnsPlayed == totalTurns),
      state.match >= 1, state.homeAttacksRight == (state.match % 2 == 1),
      (0...6).contains(state.die), !(state.over && state.die != 0),
      !state.kickOff || state.board == referee.kickOff(by: state.toMove),
      settings.dice == .external || state.over || state.die != 0,
      (-1...1).contains(state.pendingPass), state.turnStarted <= tick,
      state.kits.count == 2, state.shown == Kit.shown(home: state.kits[0], away: state.kits[1]),
      state.statistics.isValid(turnsPlayed: state.turnsPlayed),
      referee.isValid(state.board),
      state.last.isValid(referee: referee, turnsPlayed: state.turnsPlayed)
    else { throw problem }
  }
}
