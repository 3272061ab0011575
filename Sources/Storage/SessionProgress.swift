/// A session's latest status and tick, written as the game loop moves on.
public struct SessionProgress: Sendable, Equatable {
  /// The session it belongs to.
  public var sessionID: String
  /// Its status now.
  public var status: SessionStatus
  /// Its current tick.
  public var tick: Int64
  /// When this was true (unix seconds); becomes `updated_at`.
  public var updatedAt: Double

  /// Makes a progress update.
  public init(sessionID: String, status: SessionStatus, tick: Int64, updatedAt: Double) {
    self.sessionID = sessionID
    self.status = status
    self.tick = tick
    self.updatedAt = updatedAt
  }
}
