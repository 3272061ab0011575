import HTTP
import JSON
import Logging
import Simulation
import Storage
import Synchronization
import WebSocket

/// Every live session, by id: creation (with validation and limits), lookup, deletion, and the
/// restore of stored sessions at start.
final class SessionRegistry: Sendable {
  let live = Mutex<[String: LiveSession]>([:])
  /// Idle sessions moved out of memory to make room; they come back when asked for.
  let parked = Mutex<Set<String>>([])
  /// Held while a session is brought back from storage (`unpark`).
  let adopting = Mutex(())
  /// Sessions last found held by another process (shared store), with that holder's shard
  /// (`--shard`; empty when it has none).
  let heldElsewhere = Mutex<[String: String]>([:])
  /// Sessions the store could not be asked for when last wanted (shared store); at most
  /// `maxUnreachable` (ids asked for during an outage may be anything).
  let unreachable = Mutex<Set<String>>([])
  static let maxUnreachable = 1024
  private let showcases = Mutex<[String: LiveSession]>([:])
  let journal: SessionJournal?
  let limits: SessionLimits
  let random: @Sendable (Int) -> [UInt8]
  let wallClock: @Sendable () -> Double
  let monotonicClock: @Sendable () -> MonotonicTime
  let logger: Logger
  /// Live sessions per client.
  let quota: SessionQuota
  /// Inputs per session, and bytes of them per client.
  let inputLog: InputLogCap
  /// Wakes the game loop when a command is sent to a session (`LiveSession.send`).
  let wake: @Sendable () -> Void
  /// Where on-demand sessions step: jobs of the step scheduler, charged to their owners.
  let onDemand: OnDemandSteps
  /// Questions waiting for their answers, per client.
  let queries: QueryLimiter
  /// Creations refused since start, by the limit that refused them (`/metrics`).
  let refusals = RefusalCounts()
  /// Big hellos, charged to their joiners.
  let helloWork: HelloWork
  /// Where model stepping beyond the realtime tick runs (restores of stored sessions too).
  let scheduler: StepScheduler
  /// Who made each parked session, to charge its return to (`unpark`).
  let parkedOwners = Mutex<[String: ClientKey]>([:])
  /// When each parked session was last updated; it is deleted `limits.parkedMaxAge` after.
  let parkedAt = Mutex<[String: Double]>([:])
  /// Why each parked session last asked for could not come back (its owner at a limit, or the
  /// server full); at most `maxUnreachable`.
  let notBack = Mutex<[String: APIError]>([:])
  /// Live sessions the store could not keep (it failed): they run in memory only, are never
  /// parked (that would lose them), and `/healthz` counts them.
  let memoryOnly = Mutex<Set<String>>([])
  /// Expired sessions (idle, or parked too long) the store refused to delete: they stay live
  /// or parked until a later maintenance deletes them (`deleteExpired`), and `/healthz` counts
  /// them.
  let undeletedExpired = Mutex<Set<String>>([])
  /// Sessions just deleted from the store (`forgetDeleted`): what is kept of them elsewhere
  /// (replay-state answers) goes too.
  let deletedSessions = Relay<String>()
  /// Why this process cannot store inputs now (`StorageWatch`), nil while it can: every live
  /// session is told when it changes (`storing(problem:)`), and one added meanwhile at once.
  /// NB: the sessions are told under this lock, so a session added during a change is never
  /// left with the old word.
  let storageProblem = Mutex<String?>(nil)
  /// Who else is told when `storageProblem` changes (`/ws/batch` connections: their sessions'
  /// own sockets are told through the sessions), by key.
  let storageListeners = Mutex<[ObjectIdentifier: @Sendable (String?) -> Void]>([:])
  /// This process's shard (`--shard`), which begins every session id it makes (`a.ID`), so
  /// that nginx sends the session's requests here; empty for a lone process.
  let shard: String
  /// Test-only (`--test-hold-admission`): called on a shared store after a session was parked
  /// for an admission and before the exact count across the cluster, so that a test can have
  /// another process admit one of the same owner's sessions in between. Nil in normal use.
  let betweenClusterChecks: (@Sendable () -> Void)?

  init(
    journal: SessionJournal?, limits: SessionLimits, random: @escaping @Sendable (Int) -> [UInt8],
    wallClock: @escaping @Sendable () -> Double,
    monotonicClock: @escaping @Sendable () -> MonotonicTime, logger: Logger,
    wake: @escaping @Sendable () -> Void = {}, scheduler: StepScheduler = StepScheduler(),
    shard: String = "", betweenClusterChecks: (@Sendable () -> Void)? = nil
  ) {
    self.betweenClusterChecks = betweenClusterChecks
    self.wake = wake
    self.shard = shard
    self.scheduler = scheduler
    self.queries = QueryLimiter(perClient: limits.queriesPerClient)
    self.helloWork = HelloWork(
      limits: HelloWork.Limits(
        running: 1, waiting: limits.bigHelloQueue, perClient: limits.bigHellosPerClient,
        perAddress: limits.bigHellosPerClient * limits.familiesPerAddress,
        deadline: limits.bigHelloWait),
      bigBytes: limits.bigHelloBytes)
    self.monotonicClock = monotonicClock
    let quota = SessionQuota(
      perClient: limits.perClient, perAddress: limits.perAddress,
      perClientOnDemand: limits.onDemandPerClient)
    self.quota = quota
    self.onDemand = OnDemandSteps(
      scheduler: scheduler, wallClock: wallClock, owner: { quota.owner(of: $0) })
    self.inputLog = InputLogCap(
      maxInputs: limits.maxInputs, maxBytes: limits.maxInputBytes,
      maxBytesPerClient: limits.maxInputBytesPerClient, owner: { quota.owner(of: $0) },
      storage: { journal?.storageRefusal() })
    self.journal = journal
    self.limits = limits
    self.random = random
    self.wallClock = wallClock
    self.logger = logger
  }

  /// Every live session, oldest first, gallery previews included (for the game loop).
  var all: [LiveSession] {
    live.withLock { Array($0.values) }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
  }

  /// The sessions people made, newest first (for listings).
  var listed: [LiveSession] { all.reversed().filter { !$0.isShowcase } }

  /// How many sessions are live, gallery previews included.
  var count: Int { live.withLock { $0.count } }

  /// The gallery's preview session of `demo`, made on first use as its `showcase` says: in
  /// memory only, watched by anyone, pausing when nobody looks.
  func showcase(_ demo: Demo) -> LiveSession? {
    guard let type = demo.model else { return nil }
    return showcases.withLock { showcases in
      if let existing = showcases[demo.name], session(existing.id) != nil { return existing }
      guard var model = try? type.init(config: demo.showcase.config, seed: 1) else { return nil }
      if !demo.showcase.inputs.isEmpty { _ = model.step(parsing: demo.showcase.inputs) }
      let made = LiveSession(
        id: Self.identifier(random(16)), model: model, seed: 1,
        tokenHash: TokenHash.hash(token: Self.identifier(random(16))), createdAt: wallClock(),
        running: true, journal: nil, idlePause: limits.idlePause, clock: monotonicClock,
        isShowcase: true, wake: wake)
      adopt(made)
      showcases[demo.name] = made
      return made
    }
  }

  func session(_ id: String) -> LiveSession? {
    live.withLock { $0[id] } ?? unpark(id)
  }

  /// Creates a session of `kind` with `config` and `seed` (random when nil) for `client`,
  /// advanced by `clock`; returns it, its control token, and a warning when it could not be
  /// stored (it then runs in memory only).
  func create(
    kind: String, config: JSONValue, seed chosen: UInt64? = nil, client: ClientKey? = nil,
    clock: SessionClock = .realtime
  ) throws(APIError) -> (
    LiveSession, token: String, warning: String?
  ) {
    guard let type = Demo.model(ofKind: kind) else {
      let kinds = Demo.sessionKinds.joined(separator: ", ")
      throw APIError(.badRequest, "kind must be one of: \(kinds)", field: "kind")
    }
    let seed = chosen ?? random(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    let model: any Simulation
    do {
      model = try type.init(config: config, seed: seed)
    } catch {
      throw APIError(
        .badRequest, error.description, field: error.field.map { "config.\($0)" } ?? "config")
    }
    let id = routedIdentifier(random(16))
    let token = Self.identifier(random(16))
    let now = wallClock()
    // NB: on a shared store the cluster is asked before a park makes a place here, as for a
    // return (`unpark`): a create it refuses parks nothing. Before, a park here came first and
    // the count across the processes (`record`) refused after it, the session parked for
    // nothing.
    let isOnDemand = clock == .onDemand
    let parkedFor = try admitLive(id, client: client, onDemand: isOnDemand, mayPark: true) {
      parking in
      guard let client, let journal = self.journal as? StorageJournal else { return nil }
      return self.clusterRefusal(
        owner: client, clock: clock, journal: journal, parking: parking, told: "")
    }
    if parkedFor != nil, journal is StorageJournal { betweenClusterChecks?() }
    let warning: String?
    var parkedHere = parkedFor.map { [$0] } ?? []
    do {
      warning = try record(
        id: id, model: model, seed: seed, token: token, now: now, clock: clock, owner: client,
        parked: &parkedHere)
    } catch {
      quota.release(id)
      // NB: a refused create leaves no park behind. Mostly another process admitted one of
      // the client's (or its address's) sessions since the count before the park, and
      // `record`'s exact count refused: what was parked for this create comes back, into the
      // place it leaves free (before, it stayed parked for nothing).
      for parked in parkedHere { unparkRefused(parked) }
      throw error
    }
    if warning != nil, journal != nil { memoryOnly.withLock { _ = $0.insert(id) } }
    let session = LiveSession(
      id: id, model: model, seed: seed, tokenHash: TokenHash.hash(token: token), createdAt: now,
      running: clock == .realtime, journal: warning == nil ? journal : nil,
      idlePause: limits.idlePause, clock: monotonicClock, wake: wake,
      onDemand: clock == .onDemand ? onDemand : nil, snapshotInputs: inputLog.snapshotEvery)
    adopt(session)
    logger.info("session \(id) created (\(kind), \(clock.rawValue))")
    return (session, token, warning)
  }

  /// Stores a new session for `owner`; says why when storage fails. When the store has no place
  /// for it (the owner's share, its address's, or the whole store is full), the owner's own
  /// oldest parked sessions are deleted to make room, one at a time; with none left, throws:
  /// a session that could not be stored for lack of a place is refused, not run in memory only.
  /// When the processes sharing the store hold as many of the owner's live sessions as its
  /// quota allows, parks one of the owner's idle sessions here (added to `parked`) and tries
  /// once more, or refuses.
  private func record(
    id: String, model: any Simulation, seed: UInt64, token: String, now: Double,
    clock: SessionClock, owner: ClientKey?, parked: inout [String]
  ) throws(APIError) -> String? {
    guard let journal else {
      return "the database is not open, so this session will not survive a restart"
    }
    var parkedForClaim = false
    while true {
      do {
        try journal.created(
          sessionID: id, kind: model.config["kind"]?.stringValue ?? Swift.type(of: model).kind,
          config: model.config, seed: seed, token: token, now: now, clock: clock,
          owner: owner?.description,
          claim: owner.map { quota.claim(for: $0, onDemand: clock == .onDemand) })
        return nil
      } catch StoreError.clientQuota(let stored) {
        let bound = SessionQuota.Bound(stored)
        if !parkedForClaim, let owner, let made = parkIdle(of: owner, at: bound) {
          parkedForClaim = true
          parked.append(made)
          continue
        }
        refusals.note(bound.limitName)
        throw APIError(
          .tooManyRequests, quota.message(bound) + " (counted across every process of this service)"
        )
      } catch let error as StoreError {
        guard let refusal = StoredPlaces.refusal(error) else { return memoryOnly(id, error) }
        // NB: past its share, the owner's own oldest parked session makes room, nobody else's.
        if let owner, expireOldestParked(of: owner) { continue }
        refusals.note(refusal.limitName)
        throw refusal.error
      } catch {
        return memoryOnly(id, error)
      }
    }
  }

  private func memoryOnly(_ id: String, _ error: any Error) -> String {
    logger.error("cannot store new session \(id), it runs in memory only: \(error)")
    return "the session could not be stored (\(APIError.told(error))); it runs but will not "
      + "survive a restart"
  }

  /// Deletes a session when `token` controls it. A session this process parked is deleted
  /// where it is stored, without coming back live first (that would need a live place of its
  /// owner, and deleting must never wait for one).
  func delete(_ id: String, token: String?) throws(APIError) {
    if try deleteParked(id, token: token) { return }
    guard let session = session(id) else { throw APIError(.notFound, "no session \(id)") }
    try Self.checkDeleting(token: token, storedHash: session.tokenHash)
    try deleteStored(id)
    remove(session, reason: "the session was deleted")
  }

  /// Deletes `id` from the store before its delete is answered; `503` with `Retry-After`,
  /// changing nothing, when the store refuses (before, the delete was answered `204` and the
  /// failure only logged, so the session came back at the next restart).
  private func deleteStored(_ id: String) throws(APIError) {
    // NB: a session the store could not keep has no row: its delete never waits for the store.
    guard !memoryOnly.withLock({ $0.contains(id) }) else { return }
    do {
      try journal?.deleteStored(sessionID: id)
    } catch {
      var refusal = APIError(
        .serviceUnavailable,
        "session \(id) cannot be deleted from the database now (\(APIError.told(error))); "
          + "try again")
      refusal.headers.set("Retry-After", "1")
      throw refusal
    }
  }

  private static func checkDeleting(token: String?, storedHash: String) throws(APIError) {
    guard let token else {
      var error = APIError(.unauthorized, "deleting a session needs its token")
      error.headers.set("WWW-Authenticate", "Bearer")
      throw error
    }
    guard TokenHash.matches(token: token, storedHash: storedHash) else {
      throw APIError(.forbidden, "the token does not control this session")
    }
  }

  /// Whether this process parked session `id` (it is stored, not live here).
  func isParkedHere(_ id: String) -> Bool {
    live.withLock { $0[id] } == nil && parked.withLock { $0.contains(id) }
  }

  /// Deletes `id` when this process parked it and `token` controls it; false when it is not
  /// parked here.
  private func deleteParked(_ id: String, token: String?) throws(APIError) -> Bool {
    guard let journal = journal as? StorageJournal else { return false }
    // NB: under `adopting`, so that the session is not being brought back meanwhile.
    return try adopting.withLock { _ throws(APIError) -> Bool in
      guard isParkedHere(id) else { return false }
      let stored: StoredSession?
      do {
        stored = try journal.store.session(id: id)
      } catch {
        var refusal = APIError(
          .serviceUnavailable, "session \(id) cannot be read from the database now; try again")
        refusal.headers.set("Retry-After", "1")
        throw refusal
      }
      guard let stored else { return false }
      try Self.checkDeleting(token: token, storedHash: stored.tokenHash)
      try deleteStored(id)
      parked.withLock { _ = $0.remove(id) }
      forgetParked(id)
      forgetDeleted(id)
      logger.info("parked session \(id) deleted")
      return true
    }
  }

  /// Removes sessions nobody has touched for `limits.maxAge`, and parked ones nobody asked
  /// for in `limits.parkedMaxAge`.
  func removeExpired() {
    let now = wallClock()
    removeExpiredParked(now: now)
    var storeRefuses = false
    for session in listed where now - session.summary.updatedAt > limits.maxAge {
      // NB: the store is refusing: the rest of the stored ones wait for the next call; one
      // the store could not keep has no row, and goes without it (`deleteExpired`).
      let unstored = memoryOnly.withLock { $0.contains(session.id) }
      guard unstored || (!storeRefuses && deleteExpired(session.id)) else {
        storeRefuses = true
        continue
      }
      remove(session, reason: "the session expired")
    }
    // NB: one touched or brought back since is no longer expired, nor counted.
    undeletedExpired.withLock { ids in
      ids = ids.filter { id in
        if let session = live.withLock({ $0[id] }) {
          return now - session.summary.updatedAt > limits.maxAge
        }
        return parkedAt.withLock { $0[id] }.map { now - $0 > limits.parkedMaxAge } ?? false
      }
    }
  }

  /// Forgets `session`, already deleted from the store.
  private func remove(_ session: LiveSession, reason: String) {
    live.withLock { $0[session.id] = nil }
    quota.release(session.id)
    memoryOnly.withLock { _ = $0.remove(session.id) }
    inputLog.forget(session.id)
    session.disconnectAll(.goingAway, reason: reason)
    forgetDeleted(session.id)
    logger.info("session \(session.id) removed: \(reason)")
  }

  /// Forgets what is queued, held or kept of session `id`, just deleted from the store.
  func forgetDeleted(_ id: String) {
    journal?.deleted(sessionID: id)
    deletedSessions.report(id)
  }

  /// The writer committed these sessions' inputs through these ticks (the `stored` watermark).
  func stored(_ ticks: [String: Int64]) {
    for (id, tick) in ticks {
      live.withLock { $0[id] }?.stored(through: UInt64(max(tick, 0)))
    }
  }

  /// This process cannot store inputs now, for `problem`, or (nil) it can again: every live
  /// session tells the connections that sent it inputs (`unstored`, or their `stored`
  /// watermark again).
  func storing(problem: String?) {
    storageProblem.withLock { current in
      current = problem
      for session in all { session.storing(problem: problem) }
      for listener in storageListeners.withLock({ Array($0.values) }) { listener(problem) }
    }
  }

  /// Tells `body` of every change of whether inputs can be stored (`storing(problem:)`), and
  /// at once of a problem that stands now, until `stopListeningToStorage(key)`.
  func listenToStorage(_ key: ObjectIdentifier, _ body: @escaping @Sendable (String?) -> Void) {
    storageProblem.withLock { problem in
      storageListeners.withLock { $0[key] = body }
      if let problem { body(problem) }
    }
  }

  func stopListeningToStorage(_ key: ObjectIdentifier) {
    _ = storageListeners.withLock { $0.removeValue(forKey: key) }
  }

  /// Adds a session (new, or brought back from storage), and wakes the game loop for it.
  func adopt(_ session: LiveSession) {
    session.inputLog = inputLog
    session.helloWork = helloWork
    session.queryLimiter = queries
    live.withLock { $0[session.id] = session }
    storageProblem.withLock { problem in
      if let problem { session.storing(problem: problem) }
    }
    wake()
  }

  /// A new id of something this process holds in memory (a session, a compare group): this
  /// process's shard, a dot, then `identifier(bytes)` (just that for a lone process), so that
  /// nginx sends every request naming it here (scripts/cluster.py, docs/deployment.md).
  func routedIdentifier(_ bytes: [UInt8]) -> String {
    (shard.isEmpty ? "" : shard + ".") + Self.identifier(bytes)
  }

  /// 128 random bits as URL-safe base64 without padding (22 characters).
  static func identifier(_ bytes: [UInt8]) -> String {
    String(
      Base64.encode(bytes).compactMap { character -> Character? in
        switch character {
        case "+": "-"
        case "/": "_"
        case "=": nil
        default: character
        }
      })
  }
}
