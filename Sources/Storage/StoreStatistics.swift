/// How big the store is, for `/healthz` and for checking that retention keeps it bounded.
public struct StoreStatistics: Sendable, Equatable {
  /// Sessions stored, of any status.
  public var sessions: Int
  /// The database file's size in bytes (pages in use and free), not counting the WAL.
  public var bytes: Int64

  /// Makes statistics.
  public init(sessions: Int, bytes: Int64) {
    self.sessions = sessions
    self.bytes = bytes
  }
}
