extension SimulationEvent {
  /// The events the server acts on, typed, so that nothing is recognised by its name.
  public enum Meaning: Sendable, Equatable {
    /// Only for clients to show.
    case note
    /// A game ended with this score at this level (kept for the high-score table).
    case gameOver(score: Int, level: Int)
  }

  /// `game-over` `{score, level}`: the last ball is lost.
  public static func gameOver(score: Int, level: Int) -> SimulationEvent {
    SimulationEvent(
      name: "game-over", fields: ["score": .number(score), "level": .number(level)],
      meaning: .gameOver(score: score, level: level))
  }
}
