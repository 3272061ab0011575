import Foundation
import JSON
import Logging
import Simulation
import Storage
import Synchronization

/// Sessions made durable: creation at once, everything else through the write-behind
/// `SessionWriter` (one transaction every 250 ms, retried on failure).
///
/// On a store shared by several processes (PostgreSQL), every session this process steps is
/// held by a lease (`leases`): taken at creation or adoption, renewed while the process lives,
/// given up when it parks a session or shuts down. Rows written under a lease another process
/// has since taken are refused; the session is then reported to `lostSessions` and dropped
/// here, never stepped twice.
final class StorageJournal: SessionJournal {
  let store: any SessionStore
  let writer: SessionWriter
  /// This process's session leases; nil on a SQLite file, which one process has to itself.
  let leases: LeaseKeeper?
  let logger: Logger
  /// The database file check last seen, so a change is logged once.
  let lastFileCheck = Mutex(DatabaseFileCheck.same)
  /// Told of sessions another process took over (set once the registry exists).
  let lostSessions: LostSessions
  /// Told, after each commit, of the sessions whose inputs it stored and the last tick of
  /// them it stored (the `stored` watermark).
  let storedInputs = Relay<[String: Int64]>()
  /// Told when this process stops being able to store inputs (why) and when it can again
  /// (nil), from a thread that watches the writer and the leases (`StorageWatch`).
  let storing = Relay<String?>()
  /// Set by `close`: the watching thread ends.
  private let closing = Atomic(false)

  /// A journal on `store`; `owner` names this process's leases when the store is shared.
  init(
    store: any SessionStore, owner: String? = nil,
    configuration: WriterConfiguration = WriterConfiguration(), logger: Logger
  ) {
    let lost = LostSessions()
    self.lostSessions = lost
    self.store = store
    let stored = storedInputs
    let writer = SessionWriter(
      store: store, configuration: configuration, leaseLost: { lost.report($0) },
      stored: { stored.report($0) })
    self.writer = writer
    self.leases = owner.map {
      LeaseKeeper(
        store: store, owner: $0, duration: Self.leaseSeconds, pauseGap: Self.leaseMargin,
        lost: { ids in
          // NB: their queued rows would be refused anyway; they go now, never to the log.
          for id in ids { writer.forget(sessionID: id) }
          lost.report(ids)
        },
        // The store is back: write what waited at once, not after the writer's backoff.
        answered: { writer.flush(timeout: 0) }, log: { logger.warning("\($0)") })
    }
    self.logger = logger
    let thread = Thread { [self] in watch() }
    thread.name = "playfield.storage-watch"
    thread.start()
  }

  /// Seconds a flush or a lease renewal may wait for the database before the clients are told
  /// that their inputs are not stored (`StorageWatch.deadline`). A failure is told at once.
  static let storeDeadline = 2.0

  /// Seconds between two looks at the writer and the leases.
  static let watchPeriod = 0.1

  /// Looks at the writer and the leases every `watchPeriod` until `close`, and reports each
  /// change of whether inputs can be stored to `storing` (and to the log).
  private func watch() {
    var state = StorageWatch(deadline: Self.storeDeadline)
    while !closing.load(ordering: .relaxed) {
      let writing = writer.writing
      let renewing = leases?.renewing
      let signs = StorageWatch.Signs(
        writeFailures: writing.failures, flushingSince: writing.flushingSince,
        renewalFailures: renewing?.failures ?? 0, renewingSince: renewing?.since)
      // NB: the writer's and the keeper's clocks are this one (`DispatchTime`'s uptime).
      if let change = state.judge(signs, now: Double(DispatchTime.now().uptimeNanoseconds) / 1e9) {
        if let problem = change {
          logger.warning("inputs cannot be stored now (their clients are told): \(problem)")
        } else {
          logger.info("inputs are stored again")
        }
        storing.report(change)
      }
      Thread.sleep(forTimeInterval: Self.watchPeriod)
    }
  }

  /// How long a lease lasts unless renewed: how long the sessions of a process that died wait
  /// for another to adopt them.
  static let leaseSeconds = 6.0

  /// How long before its lease's expiry a session stops being stepped here (`mayApply`): the
  /// lease is renewed every `leaseSeconds / 3`, so a live process never comes near it.
  static let leaseMargin = 1.0

  /// On a shared store, only while this process's lease on the session has more than
  /// `leaseMargin` seconds left on its clock, or while the database cannot be reached at all
  /// (then no process can adopt the session: `LeaseKeeper.mayStep`). A process paused past
  /// that applies nothing (its sessions hold still) until the lease is renewed, or is found
  /// taken and the session dropped.
  func mayApply(sessionID: String) -> Bool {
    leases?.mayStep(sessionID: sessionID, margin: Self.leaseMargin) ?? true
  }

  func created(
    sessionID: String, kind: String, config: JSONValue, seed: UInt64, token: String, now: Double,
    clock: SessionClock, owner: String?, claim: ClientClaim?
  ) throws {
    let file = checkFile()
    guard file == .same else { throw file }
    let sentAt = leases?.steadyNow
    var session = StoredSession(
      id: sessionID, kind: kind, config: config.jsonString, seed: seed, token: token, now: now,
      running: clock == .realtime, clock: clock.rawValue, owner: owner)
    session.claim = claim
    let created: CreatedSession
    do {
      created = try store.createSession(session, lease: leases?.terms)
    } catch {
      // NB: a COMMIT that went through may be reported failed: its connection dropped before
      // the answer (and the create, tried again on a new connection, found its own row:
      // `sessionExists`). Before, such a session ran in memory only while its row was stored:
      // never written again, nor deleted, and back at the next restart without its inputs.
      guard Self.mayHaveStored(error), let stored = try? storedAnyway(session) else { throw error }
      logger.warning("session \(sessionID): its create was reported failed, but it is stored")
      created = stored
    }
    // NB: its rows share out the writer's flushes as its owner's (`SessionWriter.charge`).
    if let owner { writer.charge(sessionID: sessionID, to: owner) }
    if let lease = created.lease { hold(lease, sentAt: sentAt) }
    if !created.evicted.isEmpty {
      logger.info("storage evicted old sessions: \(created.evicted.joined(separator: ", "))")
    }
  }

  /// Whether a create that threw `error` may have stored its row all the same: anything but a
  /// refusal of the store's, or the refusal of a row that exists (when it was tried again).
  private static func mayHaveStored(_ error: any Error) -> Bool {
    if case StoreError.sessionExists = error { return true }
    return !(error is StoreError)
  }

  /// After a create reported failed: whether its row is stored all the same (its token's hash
  /// read back), then with its lease when the store is shared (it was created ours). Nil when
  /// there is no such row: the create failed. Throws when the store cannot be read either.
  private func storedAnyway(_ session: StoredSession) throws -> CreatedSession? {
    guard let row = try store.session(id: session.id), row.tokenHash == session.tokenHash else {
      return nil
    }
    guard let leases else { return CreatedSession(lease: nil, evicted: []) }
    guard case .acquired(let lease) = try leases.acquire(sessionID: session.id) else {
      return nil
    }
    return CreatedSession(lease: lease, evicted: [])
  }

  func renewSeatLinks(sessionID: String) throws -> Int64? {
    try store.renewSeatLinks(sessionID: sessionID)
  }

  /// Takes a stored session's lease for this process when the store is shared: it was free,
  /// ran out, or is already ours. Nil when this process has the store to itself.
  func adopt(sessionID: String) throws -> LeaseAcquisition? {
    guard let leases else { return nil }
    let acquisition = try leases.acquire(sessionID: sessionID)
    if let lease = acquisition.lease { writer.hold(lease) }
    return acquisition
  }

  /// Lets a session go (parked): its last rows are written, then its lease is given up.
  func release(sessionID: String) {
    guard let lease = leases?.forget(sessionID: sessionID) else { return }
    writer.release(lease)
  }

  private func hold(_ lease: Lease, sentAt: Double?) {
    leases?.keep(lease, sentAt: sentAt)
    writer.hold(lease)
  }

  /// Waits (at most `timeout` seconds) until session `id`'s queued writes are stored, for a
  /// reader that must never show the session older than its clients were told it is; throws
  /// when they are not stored by then.
  func stored(sessionID id: String, timeout: Double) throws(UnstoredWrites) {
    guard writer.flush(sessionID: id, timeout: timeout) else {
      throw UnstoredWrites(sessionID: id)
    }
  }

  func storageRefusal() -> String? {
    writer.refusesInput()
  }

  func whenWritable(
    payer: String, sessions: [String], _ go: @escaping @Sendable (String?) -> Void
  ) -> Bool {
    writer.admit(payer: payer, sessions: sessions, go)
  }

  /// Packed, realtime or on demand: a session's ticks queued between two flushes share one
  /// row, so a flood of small inputs costs the writer a row per session per flush, not a row
  /// per input.
  func inputs(sessionID: String, tick: UInt64, inputs: [CheckedInput]) {
    // NB: every input applied was admitted (`storageRefusal`) and acknowledged: it is queued.
    let accepted = writer.append(
      contentsOf: inputs.enumerated().map { seq, input in
        LoggedInput(
          sessionID: sessionID, tick: Int64(tick), seq: Int64(seq), input: input.loggedText)
      }, admitted: true, packed: true)
    if !accepted {
      logger.error(
        "storage is closed; \(inputs.count) inputs of session \(sessionID) were not stored")
    }
  }

  func progress(sessionID: String, running: Bool, tick: UInt64, now: Double) {
    writer.update(
      SessionProgress(
        sessionID: sessionID, status: running ? .running : .paused, tick: Int64(tick),
        updatedAt: now))
  }

  func snapshot(sessionID: String, tick: UInt64, state: [UInt8]) {
    writer.save(Snapshot(sessionID: sessionID, tick: Int64(tick), state: state))
  }

  func deleteStored(sessionID: String) throws {
    // NB: rows still queued for it are skipped by the writer (the session is gone).
    _ = try store.deleteSession(id: sessionID)
  }

  func deleted(sessionID: String) {
    writer.forget(sessionID: sessionID)
    leases?.forget(sessionID: sessionID)
  }

  /// Writes everything queued, closes the writer and gives up this process's leases, so that
  /// another process may adopt its sessions at once (SIGTERM).
  func close() {
    closing.store(true, ordering: .relaxed)
    if !writer.close(timeout: 5) {
      logger.error("storage did not finish writing: \(writer.status.summary)")
    }
    do {
      try leases?.releaseAll()
    } catch {
      logger.error("cannot give up session leases (they run out by themselves): \(error)")
    }
    try? store.checkpoint()
  }
}
