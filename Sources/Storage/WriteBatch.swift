/// Session writes committed together in one transaction (one flush of the `SessionWriter`).
public struct WriteBatch: Sendable, Equatable {
  /// Inputs to append, in the order they were made.
  public var inputs: [LoggedInput]
  /// Snapshots to save.
  public var snapshots: [Snapshot]
  /// Status and tick updates; the last one per session wins.
  public var progress: [SessionProgress]
  /// The lease each session's rows were made under, by session id; a session without one is
  /// written only while no process holds its lease.
  public var leases: [String: Lease]
  /// Leases given up once this batch's rows are written (e.g. a session parked to disk).
  public var releases: [Lease]

  /// Makes a batch.
  public init(
    inputs: [LoggedInput] = [], snapshots: [Snapshot] = [], progress: [SessionProgress] = [],
    leases: [String: Lease] = [:], releases: [Lease] = []
  ) {
    self.inputs = inputs
    self.snapshots = snapshots
    self.progress = progress
    self.leases = leases
    self.releases = releases
  }

  /// True when there is nothing to write.
  public var isEmpty: Bool {
    inputs.isEmpty && snapshots.isEmpty && progress.isEmpty && releases.isEmpty
  }

  /// How many rows the batch writes.
  public var count: Int {
    inputs.count + snapshots.count + progress.count
  }

  /// Every session the batch touches, in id order (the order rows are locked in).
  var sessionIDs: [String] { sessions.sorted() }

  /// Every session the batch touches.
  var sessions: Set<String> {
    var ids = Set(progress.map(\.sessionID))
    ids.formUnion(inputs.map(\.sessionID))
    ids.formUnion(snapshots.map(\.sessionID))
    ids.formUnion(releases.map(\.sessionID))
    return ids
  }
}
