/// The write-behind queue's health, for logs, `/healthz` and API errors.
public struct WriterStatus: Sendable, Equatable {
  /// Inputs waiting to be written.
  public var pendingInputs: Int
  /// Snapshots waiting to be written.
  public var pendingSnapshots: Int
  /// Sessions with a status or tick update waiting.
  public var pendingProgress: Int
  /// Inputs refused since start because the backlog was full (they are not stored).
  public var rejectedInputs: Int
  /// Failed flushes in a row; 0 after a success.
  public var consecutiveFailures: Int
  /// What went wrong in the last failed flush, while failures go on.
  public var lastError: String?
  /// The SQLite fault of the last failed flush, if it was one (PostgreSQL's is in `lastError`).
  public var lastErrorKind: SQLiteError.Kind?
  /// True when the backlog has reached its cap and new inputs are refused.
  public var isBacklogFull: Bool
  /// Sessions whose rows the store refused since start, because another process holds them
  /// now (a takeover, not a fault: those sessions are that process's to step).
  public var lostSessions: Int = 0
  /// Rows refused or dropped with those sessions.
  public var refusedRows: Int = 0
  /// Bytes waiting to be written (inputs and snapshots), and the most there have been.
  public var pendingBytes: Int = 0
  public var peakBytes: Int = 0
  /// On-demand steps waiting for room in the queue (back-pressure).
  public var waitingSteps: Int = 0
  /// Input rows and their bytes committed since start.
  public var writtenRows: Int = 0
  public var writtenBytes: Int = 0

  /// True when flushes succeed and inputs are accepted.
  public var isHealthy: Bool {
    consecutiveFailures == 0 && !isBacklogFull
  }

  /// One line that says what is wrong, or that all is well.
  public var summary: String {
    var parts: [String] = []
    if let lastError, consecutiveFailures > 0 {
      parts.append(
        "storage cannot write (\(consecutiveFailures) failed flushes, retrying): \(lastError)")
    }
    let pending = pendingInputs + pendingSnapshots + pendingProgress
    if pending > 0 { parts.append("\(pending) writes pending") }
    if isBacklogFull { parts.append("backlog full: new inputs are refused") }
    if rejectedInputs > 0 { parts.append("\(rejectedInputs) inputs were refused and not stored") }
    if lostSessions > 0 {
      parts.append(
        "\(lostSessions) sessions were taken over by another process "
          + "(\(refusedRows) of their writes refused)")
    }
    return parts.isEmpty ? "storage ok" : parts.joined(separator: "; ")
  }
}
