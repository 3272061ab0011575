/// What a `WriteBatch` did: rows skipped because their session is gone, and sessions whose rows
/// were refused because another process holds their lease now.
public struct WriteResult: Sendable, Equatable {
  /// Rows of sessions no longer stored (deleted since they were queued); dropped on purpose.
  public var skippedRows: Int
  /// Rows refused because their session's lease is not the one they were written under.
  public var refusedRows: Int
  /// The sessions whose rows were refused, by id: the writer has lost them and must stop
  /// stepping them (another process steps them now).
  public var lostSessions: [String]

  /// Makes a result.
  public init(skippedRows: Int = 0, refusedRows: Int = 0, lostSessions: [String] = []) {
    self.skippedRows = skippedRows
    self.refusedRows = refusedRows
    self.lostSessions = lostSessions
  }
}
