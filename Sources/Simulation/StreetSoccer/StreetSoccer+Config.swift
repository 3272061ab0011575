import JSON

extension StreetSoccer {
  /// What a match is made of; the defaults are a quick match against the novice.
  struct Config: SimulationConfig {
    /// Squares from goal line to goal line (odd, 9 to 15).
    var columns = 11
    /// Squares from touchline to touchline (odd, 5 to 9).
    var rows = 7
    /// Turns each side plays; the match ends after twice as many (1 to 50).
    var turnsPerSide = 15
    /// Where the dice come from: `"server"` (rolled from the session's seed) or `"external"`
    /// (each roll is a `die` input).
    var diceSource = "server"
    /// Who plays home: `"human"`, `"novice"`, `"defensive"` or `"strong"`.
    var homePlayer = "human"
    /// Who plays away, as `homePlayer`.
    var awayPlayer = "novice"
    /// Ticks a computer waits, once its die is known, before it plays its turn (0 to 600; 60
    /// ticks are a second), so that pages can show the turn before.
    var computerDelay = 45
    /// Home's kit before the clash rule.
    var homeKit = Kit.home
    /// Away's kit before the clash rule.
    var awayKit = Kit.away

    mutating func visitFields<Visitor: ConfigVisitor>(
      _ visitor: inout Visitor
    ) throws(Visitor.Failure) {
      try visitor.integer("columns", &columns, in: 9...15)
      try visitor.integer("rows", &rows, in: 5...9)
      try visitor.integer("turnsPerSide", &turnsPerSide, in: 1...50)
      try visitor.choice("dice", &diceSource, among: DiceSource.allCases.map(\.rawValue))
      try visitor.choice("home", &homePlayer, among: Player.allCases.map(\.rawValue))
      try visitor.choice("away", &awayPlayer, among: Player.allCases.map(\.rawValue))
      try visitor.integer("computerDelay", &computerDelay, in: 0...600)
      try visitor.custom("homeKit", &homeKit, decode: Kit.init(json:field:), encode: \.json)
      try visitor.custom("awayKit", &awayKit, decode: Kit.init(json:field:), encode: \.json)
    }

    func validate() throws(SimulationError) {
      guard columns % 2 == 1 else {
        throw SimulationError(field: "columns", message: "must be odd, so the pitch has a centre")
      }
      guard rows % 2 == 1 else {
        throw SimulationError(field: "rows", message: "must be odd, so the goals are centred")
      }
      guard dice == .server || players.contains(.human) else {
        throw SimulationError(
          field: "dice", message: "must be \"server\" when computers play both sides")
      }
    }

    /// The pitch's geometry.
    var pitch: Pitch { Pitch(columns: columns, rows: rows) }

    /// Where the dice come from.
    var dice: DiceSource { DiceSource(rawValue: diceSource) ?? .server }

    /// Who plays each side, home first.
    var players: [Player] {
      [Player(rawValue: homePlayer) ?? .human, Player(rawValue: awayPlayer) ?? .human]
    }

    /// Who plays `side`.
    func player(_ side: Side) -> Player { players[side.index] }
  }
}
