import Synchronization

/// Bounds the input logs: past `maxInputs` inputs or `maxBytes` bytes of them a session takes
/// no more input, and past `maxBytesPerClient` bytes together the sessions one client made
/// take no more; the sender is told which (`log-full`). So no client can fill the disk through
/// one session, however large or many its inputs, nor through many sessions.
///
/// A session's bytes are charged to its owner (the client that made it, as the quota knew it
/// at the session's first input) and given back when the session is deleted or expires
/// (`forget`); parked sessions keep theirs (their logs are still stored).
///
/// An on-demand session's log is compacted behind its snapshots (the store keeps its newest
/// `snapshotsKept` snapshots and only the inputs after the oldest of them): each snapshot it
/// takes gives back, to it and its owner, the inputs logged up to the oldest snapshot still
/// kept (`snapshotted`). So the bounds are on what is stored, not on what was ever sent, and
/// a training run of millions of steps never fills them. Realtime sessions keep their whole
/// log and are bounded on all of it.
///
/// NB: counts inputs accepted since this process started; a restored session starts again at
/// zero, and a session without a known owner (restored) is bounded only on its own.
final class InputLogCap: Sendable {
  /// Which bound an input would pass.
  enum Bound: Equatable, Sendable {
    case count
    case bytes
    /// The owner's sessions together.
    case clientBytes
    /// Not a log but the queue of writes waiting for the database, which cannot be written
    /// (away, read-only, full) and is at its bound: the input could not be stored, so it is not
    /// taken (`SessionWriter.refusal`). A writer merely behind never refuses.
    case storageBacklog

    /// The error code its refusal carries.
    var code: String {
      self == .storageBacklog ? "storage-backlog" : "log-full"
    }
  }

  /// What one session has logged, and who pays for it.
  private struct Logged {
    /// Counted now (stored, as far as this process knows).
    var count = 0
    var bytes = 0
    var owner: ClientKey?
    /// Inputs and bytes admitted in all (less refunds), and given back by compaction.
    var admitted = Tally()
    var compacted = Tally()
    /// `admitted` when each kept snapshot was taken, oldest first (on-demand sessions).
    var marks: [Tally] = []
  }

  private struct Tally {
    var count = 0
    var bytes = 0
  }

  /// Inputs one session may log.
  let maxInputs: Int
  /// Bytes of inputs (as logged, JSON) one session may log.
  let maxBytes: Int
  /// Bytes of inputs the sessions one client made may log together.
  let maxBytesPerClient: Int
  /// Snapshots the store keeps per session (`StoreLimits.snapshotsPerSession`).
  let snapshotsKept: Int
  /// Who made a session, if known.
  private let owner: @Sendable (String) -> ClientKey?
  /// Why the database cannot take one more input now (nil: it can).
  private let storage: @Sendable () -> String?
  /// Why the last input refused for the database was (`storage`).
  private let refusal = Mutex("the database cannot be written")
  private let logged = Mutex<(sessions: [String: Logged], clients: [ClientKey: Int])>(([:], [:]))

  init(
    maxInputs: Int, maxBytes: Int = .max, maxBytesPerClient: Int = .max, snapshotsKept: Int = 3,
    owner: @escaping @Sendable (String) -> ClientKey? = { _ in nil },
    storage: @escaping @Sendable () -> String? = { nil }
  ) {
    self.maxInputs = maxInputs
    self.snapshotsKept = max(1, snapshotsKept)
    self.maxBytes = maxBytes
    self.maxBytesPerClient = maxBytesPerClient
    self.owner = owner
    self.storage = storage
  }

  /// Counts one input of `bytes` for `sessionID` (and its owner); the bound it would pass (and
  /// nothing counted) when a log is full.
  func admit(_ sessionID: String, bytes: Int = 0) -> Bound? {
    admit(CollectionOfOne((sessionID, bytes)))?.bound
  }

  /// Counts `inputs` (each a session's id and the input's bytes), in order, all or none: the
  /// first input that would pass a bound, and that bound (and nothing counted), or nil. Each
  /// input is checked as `admit(_:bytes:)` checks it after those before it; the database is
  /// asked once, and each input costs one lookup of its session under one lock.
  func admit<Inputs: Collection<(String, Int)>>(
    _ inputs: Inputs
  ) -> (sessionID: String, bound: Bound)? {
    if let why = storage(), let first = inputs.first {
      refusal.withLock { $0 = why }
      return (first.0, .storageBacklog)
    }
    // NB: an owner is looked up outside the lock (it asks the registry): a session not seen
    // before sends the batch back here once, with nothing counted, to learn its owner.
    var owners: [String: ClientKey?] = [:]
    var refused: (sessionID: String, bound: Bound)?
    while true {
      let unknown: String? = logged.withLock { logged in
        var taken: [(String, Int)] = []
        for (sessionID, bytes) in inputs {
          var found = logged.sessions.index(forKey: sessionID)
          if found == nil {
            guard let owner = owners[sessionID] else {
              undo(taken, in: &logged)
              return sessionID
            }
            logged.sessions[sessionID] = Logged(owner: owner)
            found = logged.sessions.index(forKey: sessionID)
          }
          guard let index = found else { continue }
          let bound = take(bytes, into: &logged.sessions.values[index], clients: &logged.clients)
          if let bound {
            undo(taken, in: &logged)
            refused = (sessionID, bound)
            return nil
          }
          taken.append((sessionID, bytes))
        }
        return nil
      }
      guard let unknown else { return refused }
      owners[unknown] = owner(unknown)
    }
  }

  /// Gives back inputs counted by `take` in this batch, last first.
  private func undo(
    _ taken: [(String, Int)],
    in logged: inout (sessions: [String: Logged], clients: [ClientKey: Int])
  ) {
    for (sessionID, bytes) in taken.reversed() {
      guard let index = logged.sessions.index(forKey: sessionID) else { continue }
      give(bytes, from: &logged.sessions.values[index], clients: &logged.clients)
    }
  }

  /// Counts one input of `bytes` into `session` and its owner's total; the bound it would pass
  /// (and nothing changed) when a log is full.
  private func take(
    _ bytes: Int, into session: inout Logged, clients: inout [ClientKey: Int]
  ) -> Bound? {
    guard session.count < maxInputs else { return .count }
    guard session.bytes + bytes <= maxBytes else { return .bytes }
    if let payer = session.owner {
      let index = clients.index(forKey: payer)
      let total = index.map { clients.values[$0] } ?? 0
      guard total + bytes <= maxBytesPerClient else { return .clientBytes }
      if let index { clients.values[index] = total + bytes } else { clients[payer] = bytes }
    }
    session.count += 1
    session.bytes += bytes
    session.admitted.count += 1
    session.admitted.bytes += bytes
    return nil
  }

  /// Undoes one input of `bytes` counted by `take` (or refused after it was admitted).
  private func give(_ bytes: Int, from session: inout Logged, clients: inout [ClientKey: Int]) {
    guard session.count > 0 else { return }
    let back = min(bytes, session.bytes)
    session.count -= 1
    session.bytes -= back
    session.admitted.count -= 1
    session.admitted.bytes -= back
    if let payer = session.owner { Self.give(back, to: payer, in: &clients) }
  }

  /// What to tell the sender of an input refused at `bound`.
  func message(_ bound: Bound) -> String {
    switch bound {
    case .count:
      "this session has logged \(maxInputs) inputs, the most one may (--inputs-per-session); "
        + "it takes no more input"
    case .bytes:
      "this session has logged nearly \(maxBytes) bytes of input, the most one may "
        + "(--input-log-bytes); it takes no more input"
    case .clientBytes:
      "the sessions this session's owner made have logged nearly \(maxBytesPerClient) bytes "
        + "of input together, the most one client's may (--input-log-bytes-per-client); they "
        + "take no more input until one of them is deleted or expires"
    case .storageBacklog:
      refusal.withLock { $0 }
        + "; the writes waiting for it have reached their bound (--pending-bytes), so the "
        + "session takes no input until they are written: try again later"
    }
  }

  /// Gives back the room of one admitted input of `bytes` that was refused and not logged.
  func refund(_ sessionID: String, bytes: Int = 0) {
    logged.withLock { logged in
      guard let index = logged.sessions.index(forKey: sessionID) else { return }
      give(bytes, from: &logged.sessions.values[index], clients: &logged.clients)
    }
  }

  /// Inputs an on-demand session logs between snapshots beyond its tick interval, so that its
  /// stored log (at most `snapshotsKept` intervals, then compacted) stays under `maxInputs`.
  var snapshotEvery: Int {
    max(1, maxInputs / (snapshotsKept + 1))
  }

  /// An on-demand session took a snapshot, which its store keeps with the newest
  /// `snapshotsKept - 1` before it, and with two or more kept drops the inputs at or before the
  /// oldest kept one: gives back what this process counted of those inputs, to the session and
  /// its owner. (Inputs admitted but not yet applied when a snapshot was taken count as before
  /// it, so the give-back may run ahead of the store by those few.)
  func snapshotted(_ sessionID: String) {
    logged.withLock { logged in
      // NB: a session that logged nothing yet has nothing to give back.
      guard var session = logged.sessions[sessionID] else { return }
      session.marks.append(session.admitted)
      if session.marks.count > snapshotsKept { session.marks.removeFirst() }
      defer { logged.sessions[sessionID] = session }
      guard session.marks.count >= 2, let oldest = session.marks.first else { return }
      let count = min(session.count, max(0, oldest.count - session.compacted.count))
      let bytes = min(session.bytes, max(0, oldest.bytes - session.compacted.bytes))
      session.compacted.count = max(session.compacted.count, oldest.count)
      session.compacted.bytes = max(session.compacted.bytes, oldest.bytes)
      session.count -= count
      session.bytes -= bytes
      if let payer = session.owner { Self.give(bytes, to: payer, in: &logged.clients) }
    }
  }

  /// Inputs and bytes a session has counted now, for tests and statistics.
  func logged(_ sessionID: String) -> (count: Int, bytes: Int) {
    logged.withLock { logged in
      logged.sessions[sessionID].map { ($0.count, $0.bytes) } ?? (0, 0)
    }
  }

  /// Forgets a session that is gone, giving its bytes back to its owner.
  func forget(_ sessionID: String) {
    logged.withLock { logged in
      guard let session = logged.sessions.removeValue(forKey: sessionID),
        let payer = session.owner
      else { return }
      Self.give(session.bytes, to: payer, in: &logged.clients)
    }
  }

  /// Bytes the sessions `client` made have logged, for tests and statistics.
  func bytes(of client: ClientKey) -> Int {
    logged.withLock { $0.clients[client] ?? 0 }
  }

  private static func give(_ bytes: Int, to client: ClientKey, in clients: inout [ClientKey: Int]) {
    let left = (clients[client] ?? 0) - bytes
    clients[client] = left > 0 ? left : nil
  }
}
