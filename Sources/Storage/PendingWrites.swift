/// The writes waiting for the next flush, kept small: inputs in order, the latest progress per
/// session, and only as many snapshots per session as the store keeps anyway; with the lease
/// each session's rows are made under, and the leases to give up once they are written.
///
/// A session's inputs are packed (`LoggedInput.packed`), realtime or on demand: each tick's
/// inputs join the session's open packed row, so a session adds one row per flush however
/// fast it steps or however many inputs its clients send.
struct PendingWrites: Equatable {
  /// Pending snapshots kept per session; older ones would be pruned on write, so they go now.
  let snapshotsPerSession: Int
  /// The most bytes of text in one packed row; past it the session's next tick opens another.
  static let packedRowBytes = 64 * 1024
  /// Input rows, in order (a packed row counts once).
  private(set) var inputs: [LoggedInput] = []
  /// The inputs those rows hold, and the bytes they take.
  private(set) var inputCount = 0
  private(set) var inputBytes = 0
  /// Bytes of the queued rows (inputs and snapshots) by session.
  private(set) var sessionBytes: [String: Int] = [:]
  /// The index in `inputs` of each session's packed row still open to more ticks.
  private var open: [String: Int] = [:]
  /// How many rows at the front of `inputs` were put back from a failed flush: they are
  /// written again as they were, never extended (they may have been committed after all).
  private var sealed = 0
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
    count(input, sign: 1)
  }

  /// Appends one tick's inputs of a session to its open packed row (or a new one).
  mutating func appendPacked(_ tick: [LoggedInput]) {
    guard let first = tick.first else { return }
    let id = first.sessionID
    if let index = open[id], inputs[index].input.utf8.count < Self.packedRowBytes {
      // NB: counted by what it adds, never by reading the whole row again (it may be 64 KiB).
      let before = inputs[index].input.utf8.count
      inputs[index].pack(tick)
      let added = inputs[index].input.utf8.count - before
      inputCount += tick.count
      inputBytes += added
      sessionBytes[id, default: 0] += added
    } else {
      open[id] = inputs.count
      append(LoggedInput.packed(sessionID: id, inputs: tick))
    }
  }

  /// Bytes waiting in all (inputs and snapshots).
  var bytes: Int {
    inputBytes + snapshots.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.state.count + 32 } }
  }

  private mutating func count(_ row: LoggedInput, sign: Int) {
    inputCount += sign * row.inputCount
    inputBytes += sign * row.queuedBytes
    let left = sessionBytes[row.sessionID, default: 0] + sign * row.queuedBytes
    sessionBytes[row.sessionID] = left > 0 ? left : nil
  }

  private mutating func recount() {
    inputCount = 0
    inputBytes = 0
    sessionBytes = [:]
    open = [:]
    for (index, row) in inputs.enumerated() {
      count(row, sign: 1)
      if row.isPacked && index >= sealed { open[row.sessionID] = index }
    }
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
    sealed -= inputs.prefix(sealed).count(where: { $0.sessionID == sessionID })
    inputs.removeAll { $0.sessionID == sessionID }
    recount()
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
    sealed = 0
    recount()
    progress = [:]
    snapshots = [:]
    releases = [:]
    return batch
  }

  /// Puts back a batch that failed to write, ahead of what was queued since (which is newer),
  /// except the rows of a session whose lease changed meanwhile (they would be refused).
  mutating func restore(_ batch: WriteBatch) {
    let kept = Set(batch.sessionIDs.filter { stillHeld($0, by: batch) })
    // NB: a packed row put back is written as it was (it may have been committed after all);
    // newer ticks go on in the newer rows.
    let restored = batch.inputs.filter { kept.contains($0.sessionID) }
    inputs = restored + inputs
    sealed = restored.count
    recount()
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
    let newerSnapshots = snapshots
    snapshots = [:]
    for snapshot in batch.snapshots where kept.contains(snapshot.sessionID) { add(snapshot) }
    for (_, queued) in newerSnapshots.sorted(by: { $0.key < $1.key }) {
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
