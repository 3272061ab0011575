/// One line of the Holes high-score table.
public struct HighScore: Sendable, Equatable {
  /// The player's name, validated by `NameValidator`.
  public var name: String
  /// Flags reached.
  public var score: Int64
  /// The level reached; the table ranks by level first.
  public var level: Int64
  /// When it was set (unix seconds).
  public var createdAt: Double
  /// The session whose game it was (its recording is the run, for a ghost); nil for scores
  /// entered before sessions were kept with them.
  public var session: String?

  /// Makes a high score.
  public init(name: String, score: Int64, level: Int64, createdAt: Double, session: String? = nil) {
    self.name = name
    self.score = score
    self.level = level
    self.createdAt = createdAt
    self.session = session
  }
}
