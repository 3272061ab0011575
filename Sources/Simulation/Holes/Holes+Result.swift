import JSON

extension Holes {
  /// The finished game's score and level while the game is over, else nil (a restored session
  /// reads it from its state, since the `game-over` event is long gone).
  public var finishedGame: (score: Int, level: Int)? {
    state.phase == .over ? (state.score, state.level) : nil
  }

  /// Whether `config` is the default one: only such games enter the high scores, so a tiny
  /// table with one hole cannot take first place.
  public static func entersHighScores(config: JSONValue) -> Bool {
    (try? Holes(config: .object([:]), seed: 0))?.config == config
  }
}
