/// A session's log was compacted past where a reader was reading it (an on-demand session's
/// log keeps only the inputs after its earliest kept snapshot, which moves on as it steps): the
/// inputs the reader needed next are gone, so what it rebuilds would be wrong.
public struct LogCompactedError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The session whose log was read.
  public var sessionID: String
  /// The first tick the reader still needed.
  public var tick: Int64
  /// Where the log starts now: the inputs at or before this tick are gone.
  public var logStart: Int64

  /// Makes the error.
  public init(sessionID: String, tick: Int64, logStart: Int64) {
    self.sessionID = sessionID
    self.tick = tick
    self.logStart = logStart
  }

  public var description: String {
    "the log of session \(sessionID) was compacted while it was read: it keeps only the inputs "
      + "after tick \(logStart) now (an on-demand session's log is compacted behind its "
      + "snapshots), and tick \(tick) was still to come; start again from its earliest kept "
      + "snapshot"
  }
}
