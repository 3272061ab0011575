/// The writes waiting for the next flush, kept small: inputs in order, the latest progress per
/// session, and only as many snapshots per session as the store keeps anyway; with the lease
/// each session's rows are made under, and the leases to give up once they are written.
struct PendingWrites: Equatable {
  /// Pending snapshots kept per session; older ones would be pruned on write, so they go now.
  let snapshotsPerSession: Int
  private(set) var inputs: [LoggedInput] = []
  private(set) var progress: [String: SessionProgress] = [:]
  private(set) var snapshots: [String: [Snapshot]] = [:]
  /// The lease each held session's rows are written under.
  private(set) var leases: [String: Lease] = [:]
  /// Leases to give up after their session's rows.
  private(set) var releases: [String: Lease] = [:]

  init(snapshotsPerSession: Int) {
    self.snapshotsPerSession = max(1, snapshotsPerSession)
  }

  var isEmpty: Bool {
    inputs.isEmpty && progress.isEmpty && snapshots.isEmpty && releases.isEmpty
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

  /// Rows of `lease`'s session are written under it from now on. Rows queued under another
  /// lease of it are dropped, as the session was another process's since (returns how many);
  /// a release of this same lease still waiting is cancelled (the session was taken back).
  mutating func hold(_ lease: Lease) -> Int {
    let id = lease.sessionID
    var dropped = 0
    if let current = leases[id] ?? releases[id], !current.isSameHold(as: lease) {
      dropped = rows(of: id)
      discard(sessionID: id)
    }
    releases[id] = nil
    leases[id] = lease
    return dropped
  }

  /// Gives `lease` up once its session's queued rows are written.
  mutating func release(_ lease: Lease) {
    releases[lease.sessionID] = lease
  }

  /// Drops everything pending for a session (it was deleted, or another process has it).
  mutating func discard(sessionID: String) {
    inputs.removeAll { $0.sessionID == sessionID }
    progress[sessionID] = nil
    snapshots[sessionID] = nil
    leases[sessionID] = nil
    releases[sessionID] = nil
  }

  /// Empties the queue into one batch, in a stable order, with the leases of its sessions;
  /// released sessions are no longer held.
  mutating func take() -> WriteBatch {
    var batch = WriteBatch(
      inputs: inputs,
      snapshots: snapshots.keys.sorted().flatMap { snapshots[$0] ?? [] },
      progress: progress.keys.sorted().compactMap { progress[$0] },
      releases: releases.keys.sorted().compactMap { releases[$0] })
    for id in batch.sessionIDs {
      batch.leases[id] = leases[id]
    }
    for id in releases.keys {
      leases[id] = nil
    }
    inputs = []
    progress = [:]
    snapshots = [:]
    releases = [:]
    return batch
  }

  /// Puts back a batch that failed to write, ahead of what was queued since (which is newer),
  /// except the rows of a session whose lease changed meanwhile (they would be refused).
  mutating func restore(_ batch: WriteBatch) {
    let kept = Set(batch.sessionIDs.filter { stillHeld($0, by: batch) })
    inputs = batch.inputs.filter { kept.contains($0.sessionID) } + inputs
    for update in batch.progress where kept.contains(update.sessionID) {
      if progress[update.sessionID] == nil { progress[update.sessionID] = update }
    }
    // NB: a release taken back (held again) since stays cancelled.
    for lease in batch.releases
    where kept.contains(lease.sessionID) && leases[lease.sessionID] == nil {
      releases[lease.sessionID] = lease
    }
    for id in kept where leases[id] == nil {
      leases[id] = batch.leases[id]
    }
    let newer = snapshots
    snapshots = [:]
    for snapshot in batch.snapshots where kept.contains(snapshot.sessionID) { add(snapshot) }
    for (_, queued) in newer.sorted(by: { $0.key < $1.key }) {
      for snapshot in queued { add(snapshot) }
    }
  }

  /// Whether a session's rows in a failed `batch` may still be written: it is held under the
  /// same lease now, or was held under none and still is, or its lease was being given up and
  /// has not been taken again since.
  private func stillHeld(_ id: String, by batch: WriteBatch) -> Bool {
    let then = batch.leases[id]
    guard let now = leases[id] else {
      return then == nil || batch.releases.contains { $0.sessionID == id }
    }
    return then.map(now.isSameHold) ?? false
  }

  private func rows(of id: String) -> Int {
    inputs.count(where: { $0.sessionID == id }) + (progress[id] == nil ? 0 : 1)
      + (snapshots[id]?.count ?? 0)
  }
}
