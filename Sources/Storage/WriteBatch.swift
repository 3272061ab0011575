/// Session writes committed together in one transaction (one flush of the `SessionWriter`).
public struct WriteBatch: Sendable, Equatable {
  /// Inputs to append, in the order they were made.
  public var inputs: [LoggedInput]
  /// Snapshots to save.
  public var snapshots: [Snapshot]
  /// Status and tick updates; the last one per session wins.
  public var progress: [SessionProgress]

  /// Makes a batch.
  public init(
    inputs: [LoggedInput] = [], snapshots: [Snapshot] = [], progress: [SessionProgress] = []
  ) {
    self.inputs = inputs
    self.snapshots = snapshots
    self.progress = progress
  }

  /// True when there is nothing to write.
  public var isEmpty: Bool {
    inputs.isEmpty && snapshots.isEmpty && progress.isEmpty
  }

  /// How many rows the batch writes.
  public var count: Int {
    inputs.count + snapshots.count + progress.count
  }
}
