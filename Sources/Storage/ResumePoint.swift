/// A snapshot and the inputs after it: enough to rebuild a session at a tick.
public struct ResumePoint: Sendable, Equatable {
  /// The newest snapshot at or before the tick asked for; nil means start from tick 0.
  public var snapshot: Snapshot?
  /// The inputs after the snapshot's tick, in order.
  public var inputs: [LoggedInput]

  /// Makes a resume point.
  public init(snapshot: Snapshot?, inputs: [LoggedInput]) {
    self.snapshot = snapshot
    self.inputs = inputs
  }
}
