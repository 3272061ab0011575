/// Where a stored session is in its life; stored as its raw value in `sessions.status`.
public enum SessionStatus: String, Sendable, CaseIterable {
  /// Stepping; the server brings it back on restart.
  case running
  /// Stopped by its controller or for being idle; kept and resumable.
  case paused
  /// Finished for good (e.g. game over); kept for replay.
  case ended
}
