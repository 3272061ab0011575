/// The writes waiting for the next flush, kept small: inputs in order, the latest progress per
/// session, and only as many snapshots per session as the store keeps anyway.
struct PendingWrites: Equatable {
  /// Pending snapshots kept per session; older ones would be pruned on write, so they go now.
  let snapshotsPerSession: Int
  private(set) var inputs: [LoggedInput] = []
  private(set) var progress: [String: SessionProgress] = [:]
  private(set) var snapshots: [String: [Snapshot]] = [:]

  init(snapshotsPerSession: Int) {
    self.snapshotsPerSession = max(1, snapshotsPerSession)
  }

  var isEmpty: Bool {
    inputs.isEmpty && progress.isEmpty && snapshots.isEmpty
  }

  var snapshotCount: Int {
    snapshots.values.reduce(0) { $0 + $1.count }
  }

  mutating func append(_ input: LoggedInput) {
    inputs.append(input)
  }

  mutating func record(_ update: SessionProgress) {
    progress[update.sessionID] = update
  }

  mutating func add(_ snapshot: Snapshot) {
    var queued = snapshots[snapshot.sessionID, default: []]
    queued.append(snapshot)
    snapshots[snapshot.sessionID] = Array(queued.suffix(snapshotsPerSession))
  }

  /// Drops everything pending for a session (it was deleted).
  mutating func discard(sessionID: String) {
    inputs.removeAll { $0.sessionID == sessionID }
    progress[sessionID] = nil
    snapshots[sessionID] = nil
  }

  /// Empties the queue into one batch, in a stable order.
  mutating func take() -> WriteBatch {
    let batch = WriteBatch(
      inputs: inputs,
      snapshots: snapshots.keys.sorted().flatMap { snapshots[$0] ?? [] },
      progress: progress.keys.sorted().compactMap { progress[$0] })
    inputs = []
    progress = [:]
    snapshots = [:]
    return batch
  }

  /// Puts back a batch that failed to write, ahead of what was queued since (which is newer).
  mutating func restore(_ batch: WriteBatch) {
    inputs = batch.inputs + inputs
    for update in batch.progress where progress[update.sessionID] == nil {
      progress[update.sessionID] = update
    }
    let newer = snapshots
    snapshots = [:]
    for snapshot in batch.snapshots { add(snapshot) }
    for (_, queued) in newer.sorted(by: { $0.key < $1.key }) {
      for snapshot in queued { add(snapshot) }
    }
  }
}
