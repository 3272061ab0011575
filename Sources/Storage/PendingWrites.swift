/// The writes waiting for the next flush, kept small: inputs in order, the latest progress per
/// session, and only as many snapshots per session as the store keeps anyway; with the lease
/// each session's rows are made under, and the leases to give up once they are written.
///
/// A session's inputs are packed (`LoggedInput.packed`), realtime or on demand: each tick's
/// inputs join the session's open packed row, so a session adds one row per flush however
/// fast it steps or however many inputs its clients send.
///
/// A flush takes at most a budget of bytes of input rows (`take(budget:payer:)`), shared out
/// among the clients who queued them (fair shares by bytes), so one client's flood waits in its
/// own share and another client's rows go in the next transaction whatever the flood queued.
struct PendingWrites: Equatable {
  /// Pending snapshots kept per session; older ones would be pruned on write, so they go now.
  let snapshotsPerSession: Int
  /// The most bytes of text in one packed row; past it the session's next tick opens another.
  static let packedRowBytes = 64 * 1024
  /// Input rows, in order (a packed row counts once).
  private(set) var inputs: [LoggedInput] = []
  /// The writer's count of writes when each row of `inputs` was opened (its first input's):
  /// what is still queued from before a given count (`oldestStamp`). Non-decreasing within a
  /// session; rows put back by a failed flush may precede older rows a rationed take left.
  private(set) var stamps: [UInt64] = []
  /// The stamps of the rows the last `take` took, in the batch's order (for `restore`).
  private(set) var takenStamps: [UInt64] = []
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

  mutating func append(_ input: LoggedInput, stamp: UInt64 = 0) {
    inputs.append(input)
    stamps.append(stamp)
    count(input, sign: 1)
  }

  /// The stamp of the oldest row still queued (of `sessionID`'s rows, when given); nil when
  /// there is none.
  func oldestStamp(of sessionID: String? = nil) -> UInt64? {
    guard let sessionID else { return stamps.min() }
    return inputs.firstIndex { $0.sessionID == sessionID }.map { stamps[$0] }
  }

  /// Whether a progress, snapshot or release of `sessionID` waits.
  func hasOtherWrites(of sessionID: String) -> Bool {
    progress[sessionID] != nil || snapshots[sessionID] != nil || releases[sessionID] != nil
  }

  /// Appends one tick's inputs of a session to its open packed row (or a new one, stamped
  /// `stamp`).
  mutating func appendPacked(_ tick: [LoggedInput], stamp: UInt64 = 0) {
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
      append(LoggedInput.packed(sessionID: id, inputs: tick), stamp: stamp)
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
    for row in inputs { count(row, sign: 1) }
    reopen()
  }

  /// Finds each session's packed row still open to more ticks (its last one, unless sealed).
  private mutating func reopen() {
    open = [:]
    for (index, row) in inputs.enumerated() where row.isPacked && index >= sealed {
      open[row.sessionID] = index
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
    let kept = inputs.indices.filter { inputs[$0].sessionID != sessionID }
    inputs = kept.map { inputs[$0] }
    stamps = kept.map { stamps[$0] }
    recount()
    progress[sessionID] = nil
    snapshots[sessionID] = nil
    leases[sessionID] = nil
    releases[sessionID] = nil
  }

  /// Empties the queue into one batch, in a stable order, with the leases of its sessions;
  /// released sessions are no longer held.
  ///
  /// When the input rows pass `budget` bytes, the batch takes only each client's fair share of
  /// them (`fairShare`; `payer` names the client a session's rows are charged to), oldest
  /// first, so each session's rows are taken as a prefix; a session with rows left keeps its
  /// snapshots, progress and release for the batch that takes its last rows.
  mutating func take(budget: Int = .max, payer: (String) -> String = { $0 }) -> WriteBatch {
    let chosen =
      inputBytes > budget
      ? Self.fairShare(of: inputs, budget: budget, payer: payer)
      : [Bool](repeating: true, count: inputs.count)
    var taken: [LoggedInput] = []
    var left: [LoggedInput] = []
    var leftStamps: [UInt64] = []
    var leftSealed = 0
    takenStamps = []
    for index in inputs.indices {
      if chosen[index] {
        taken.append(inputs[index])
        takenStamps.append(stamps[index])
      } else {
        left.append(inputs[index])
        leftStamps.append(stamps[index])
        if index < sealed { leftSealed += 1 }
      }
    }
    let waiting = Set(left.map(\.sessionID))
    let ready = { (id: String) in !waiting.contains(id) }
    var batch = WriteBatch(
      inputs: taken,
      snapshots: snapshots.keys.sorted().filter(ready).flatMap { snapshots[$0] ?? [] },
      progress: progress.keys.sorted().filter(ready).compactMap { progress[$0] },
      releases: releases.keys.sorted().filter(ready).compactMap { releases[$0] })
    for id in batch.sessionIDs {
      batch.leases[id] = leases[id]
    }
    for id in releases.keys where ready(id) {
      leases[id] = nil
    }
    inputs = left
    stamps = leftStamps
    sealed = leftSealed
    // NB: by what was taken (at most the budget), never by reading what is left again.
    if left.isEmpty {
      recount()
    } else {
      for row in taken { count(row, sign: -1) }
      reopen()
    }
    progress = progress.filter { !ready($0.key) }
    snapshots = snapshots.filter { !ready($0.key) }
    releases = releases.filter { !ready($0.key) }
    return batch
  }

  /// Which of `rows` a batch of about `budget` bytes takes: the clients who queued them
  /// (`payer` of each row's session) share the budget equally, each taking its rows oldest
  /// first until its share is used; a client that needs less than its share leaves the rest
  /// to the others (water-filling, the smallest first), and every client takes at least one
  /// row, so a client that queued little goes in whole whatever another queued, and a flood
  /// waits in its own share. Stopping at a client's first row that does not fit keeps each
  /// session's rows taken a prefix (its order in the log).
  static func fairShare(of rows: [LoggedInput], budget: Int, payer: (String) -> String)
    -> [Bool]
  {
    var byPayer: [String: (first: Int, bytes: Int, rows: [Int])] = [:]
    for (index, row) in rows.enumerated() {
      let who = payer(row.sessionID)
      var queued = byPayer[who] ?? (index, 0, [])
      queued.bytes += row.queuedBytes
      queued.rows.append(index)
      byPayer[who] = queued
    }
    let smallestFirst = byPayer.values.sorted { ($0.bytes, $0.first) < ($1.bytes, $1.first) }
    var chosen = [Bool](repeating: false, count: rows.count)
    var left = budget
    for (served, queued) in smallestFirst.enumerated() {
      let share = left / (smallestFirst.count - served)
      var used = 0
      for index in queued.rows {
        let bytes = rows[index].queuedBytes
        guard used == 0 || used + bytes <= share else { break }
        chosen[index] = true
        used += bytes
      }
      left = max(0, left - used)
    }
    return chosen
  }

  /// Puts back a batch that failed to write, ahead of what was queued since (which is newer),
  /// except the rows of a session whose lease changed meanwhile (they would be refused).
  /// `stamps`: the rows' stamps (`takenStamps`), 0 for each when not given.
  mutating func restore(_ batch: WriteBatch, stamps batchStamps: [UInt64]? = nil) {
    let kept = Set(batch.sessionIDs.filter { stillHeld($0, by: batch) })
    // NB: a packed row put back is written as it was (it may have been committed after all);
    // newer ticks go on in the newer rows.
    let restoring = batch.inputs.indices.filter { kept.contains(batch.inputs[$0].sessionID) }
    let restored = restoring.map { batch.inputs[$0] }
    let given = batchStamps ?? []
    stamps = restoring.map { $0 < given.count ? given[$0] : 0 } + stamps
    inputs = restored + inputs
    // NB: rows left by a partial take (some sealed, at the front) come after the restored ones.
    sealed = restored.count + sealed
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
