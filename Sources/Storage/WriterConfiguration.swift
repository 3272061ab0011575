/// How the `SessionWriter` paces and bounds its work.
public struct WriterConfiguration: Sendable, Equatable {
  /// Seconds between flushes; a kill -9 loses at most about this much.
  public var flushInterval = 0.25
  /// The longest wait between retries of a failing flush (seconds).
  public var maxBackoff = 5.0
  /// Inputs held while the database cannot be written; beyond it new inputs are refused.
  public var maxPendingInputs = 100_000
  /// Bytes of writes (inputs and snapshots) queued before the clients adding on-demand steps
  /// are made to wait (`SessionWriter.admit`), the heaviest first; while the database cannot
  /// be written at all, past it they are refused.
  public var maxPendingBytes = 32 << 20
  /// Bytes of input rows one flush (one transaction) writes at most, shared fairly among the
  /// clients who queued them (`PendingWrites.fairShare`); what is left goes in the next flush,
  /// at once. Keeps each transaction short, so other writes (creates) and other clients' rows
  /// never wait behind a flood.
  public var maxBatchBytes = 4 << 20
  /// Snapshots held per session; match `StoreLimits.snapshotsPerSession`.
  public var snapshotsPerSession = 3

  /// Makes a configuration; the defaults suit the 60 Hz game loop.
  public init() {}
}
