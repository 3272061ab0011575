extension StreetSoccer {
  /// One of the two teams. `home` is the seat that made the session, `away` the other.
  public enum Side: String, Codable, Sendable, CaseIterable {
    case home, away

    /// The other team.
    public var other: Side { self == .home ? .away : .home }

    /// 0 for home, 1 for away: the index into per-side arrays.
    public var index: Int { self == .home ? 0 : 1 }
  }

  /// Who plays a side: a person (through the session's seat for it) or a computer character.
  public enum Player: String, Codable, Sendable, CaseIterable {
    /// A person sends the side's `turn` inputs.
    case human
    /// Greedy and short-sighted, with seeded whims: a beginner.
    case novice
    /// Keeps men behind the ball and clears it from danger.
    case defensive
    /// Searches its turn and the opponent's replies over every roll of the die.
    case strong
  }

  /// Where the dice come from.
  public enum DiceSource: String, Codable, Sendable, CaseIterable {
    /// The model rolls them from the session's seed.
    case server
    /// A `die` input brings each roll (a physical or virtual die).
    case external
  }
}
