import Dispatch
import Foundation

/// A write-behind queue between the 60 Hz game loop and the store.
///
/// Enqueuing takes a lock for a moment and never waits for I/O. A thread of its own writes what
/// is queued every `flushInterval` in ONE transaction. A failed flush (busy, full, read-only,
/// I/O) puts its rows back and is retried with backoff; rows are never dropped silently: only
/// when the backlog reaches `maxPendingInputs` are new inputs refused, and counted in `status`.
/// Each flush commits a prefix of what was enqueued, so a kill -9 loses at most the writes of
/// the last interval (plus any backlog that could not be written). Call `close` before exit.
///
/// With leases (`hold`), each session's rows carry the lease they were made under; when the
/// store refuses them because another process took the session over, the writer drops the
/// session's queued rows and tells `leaseLost`, so the app stops stepping it.
///
/// The writer's time is shared among clients like the scheduler's: one flush writes at most
/// `maxBatchBytes` of input rows, each client (`charge`, `admit`'s payer) getting a fair share
/// of them (`PendingWrites.fairShare`), and the rest goes in the flush that follows at once. So
/// one client's flood waits in its own share, and another client's rows are committed in the
/// next transaction whatever the flood has queued.
public final class SessionWriter: @unchecked Sendable {
  // NB: @unchecked because every `var` below is guarded by `condition`, which is the lock.
  private let store: any SessionStore
  private let configuration: WriterConfiguration
  private let now: @Sendable () -> Double
  private let condition = NSCondition()
  private var pending: PendingWrites
  /// The batch being written now, counted with the pending rows until it commits.
  private var inFlight = WriteBatch()
  /// The stamps of `inFlight`'s input rows (`PendingWrites.takenStamps`).
  private var inFlightStamps: [UInt64] = []
  /// The inputs, bytes, and bytes by session of `inFlight`.
  private var inFlightInputs = 0
  private var inFlightBytes = 0
  private var inFlightSessionBytes: [String: Int] = [:]
  /// Every session with a row in the flush under way: its inputs and snapshots, and also its
  /// progress and lease release, which carry no bytes.
  private var inFlightSessions: Set<String> = []
  /// Who pays for each session's queued bytes (`append(payer:)`), for back-pressure.
  private var payers: [String: String] = [:]
  /// Steps waiting for room in the queue (`admit`), oldest first.
  private var waiters: [(payer: String, go: @Sendable (String?) -> Void)] = []
  /// Rows and bytes of inputs committed since start, and the most bytes ever queued.
  private var writtenRows = 0
  private var writtenBytes = 0
  private var peakBytes = 0
  private var schedule: FlushSchedule
  /// Flushes begun so far, and the number of the last one that committed.
  private var flushesBegun: UInt64 = 0
  private var lastCommitted: UInt64 = 0
  /// Writes accepted so far, and how many of them are committed.
  private var enqueued: UInt64 = 0
  private var durable: UInt64 = 0
  private var flushRequested = false
  private var stopping = false
  private var abandoned = false
  private var finished = false
  private var rejectedInputs = 0
  private var lastError: (any Error)?
  /// Sessions lost to another process, and the rows refused or dropped with them.
  private var lostSessions = 0
  private var refusedRows = 0
  private let leaseLost: @Sendable ([String]) -> Void
  /// Told after each commit of the sessions whose inputs it wrote, with the last tick written.
  private let stored: @Sendable ([String: Int64]) -> Void
  /// When each queued tick's inputs were queued, by the `enqueued` count they reach: a flush
  /// that makes everything through that count durable records how long they waited.
  private var queuedAt: [(through: UInt64, at: Double)] = []
  private var latency = CommitLatency()
  /// When the flush under way began (`now`), nil between flushes.
  private var flushStartedAt: Double?

  /// Starts the flush thread. `now` is a steady clock in seconds, used for pacing and for
  /// `commitLatency`; `leaseLost` is called on the writer's thread with the sessions whose
  /// rows the store refused because another process holds them now.
  public init(
    store: any SessionStore, configuration: WriterConfiguration = WriterConfiguration(),
    now: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 },
    leaseLost: @escaping @Sendable ([String]) -> Void = { _ in },
    stored: @escaping @Sendable ([String: Int64]) -> Void = { _ in }
  ) {
    self.stored = stored
    self.store = store
    self.configuration = configuration
    self.now = now
    self.leaseLost = leaseLost
    self.pending = PendingWrites(snapshotsPerSession: configuration.snapshotsPerSession)
    self.schedule = FlushSchedule(
      interval: configuration.flushInterval, maxBackoff: configuration.maxBackoff, now: now())
    let thread = Thread { [self] in run() }
    thread.name = "playfield.session-writer"
    thread.start()
  }

  /// Queues an input; false when it was refused (backlog full or writer closed).
  @discardableResult
  public func append(_ input: LoggedInput) -> Bool {
    append(contentsOf: [input])
  }

  /// Queues a tick's inputs, all or none; false when they were refused (they would overflow
  /// the backlog, or the writer is closed). Call it before applying them: an input refused
  /// here must not take effect, or the log would not replay to what clients saw.
  ///
  /// `admitted`: the inputs were taken from their clients while `admitsInput()` said yes, and
  /// acknowledged; they are queued whatever the backlog now, so nothing acknowledged is lost
  /// (the backlog may pass its bound by what was admitted but not yet applied when it filled).
  ///
  /// `packed`: the inputs (of one tick, of one session that steps on demand) join that
  /// session's packed row (`LoggedInput.packed`).
  @discardableResult
  public func append(
    contentsOf inputs: [LoggedInput], admitted: Bool = false, packed: Bool = false
  ) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard !stopping else { return false }
    let waiting = pending.inputCount + inFlightInputs
    guard admitted || waiting + inputs.count <= configuration.maxPendingInputs else {
      rejectedInputs += inputs.count
      return false
    }
    let stamp = enqueued + 1
    if packed {
      pending.appendPacked(inputs, stamp: stamp)
    } else {
      for input in inputs { pending.append(input, stamp: stamp) }
    }
    peakBytes = max(peakBytes, pending.inputBytes + inFlightBytes)
    enqueued += UInt64(inputs.count)
    // NB: bounded while the store is away; the inputs queued then go unmeasured.
    if queuedAt.count < CommitLatency.capacity { queuedAt.append((enqueued, now())) }
    return true
  }

  /// Whether a client's input may be taken now: fewer than `maxPendingInputs` inputs wait to
  /// be written. A refusal is counted in `status.rejectedInputs`.
  public func admitsInput() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard !stopping else { return false }
    guard pending.inputCount + inFlightInputs < configuration.maxPendingInputs else {
      rejectedInputs += 1
      return false
    }
    return true
  }

  /// Charges `sessionID`'s rows to `payer` (its owner) when they share out a flush and the
  /// queue (`admit` charges the sessions it is told of too); a session charged to nobody is
  /// its own payer.
  public func charge(sessionID: String, to payer: String) {
    condition.lock()
    defer { condition.unlock() }
    payers[sessionID] = payer
  }

  /// Whether `payer` may add to the queue now (`WriteAdmission`): true, and `go` is never
  /// called; or false, and `go` is called later on the writer's thread once a flush has made
  /// room (with nil), or with why it is refused when the database cannot be written and the
  /// queue is at its bound (at once, on the calling thread, when it already is).
  /// `sessions`: the sessions whose inputs it will add, charged to `payer` from now on.
  public func admit(
    payer: String, sessions: [String] = [], _ go: @escaping @Sendable (String?) -> Void
  ) -> Bool {
    condition.lock()
    for id in sessions where payers[id] != payer { payers[id] = payer }
    let decision = stopping ? .refuse("the server is shutting down") : admission(for: payer)
    if decision == .wait { waiters.append((payer, go)) }
    condition.unlock()
    switch decision {
    case .go: return true
    case .refuse(let why): go(why)
    case .wait: break
    }
    return false
  }

  /// The decision for `payer` now (call with the lock held).
  private func admission(for payer: String) -> WriteAdmission {
    let queued = pending.bytes + inFlightBytes
    guard queued >= configuration.maxPendingBytes / 2 else { return .go }
    var byPayer: [String: Int] = [:]
    for (id, bytes) in pending.sessionBytes { byPayer[payers[id] ?? id, default: 0] += bytes }
    for (id, bytes) in inFlightSessionBytes { byPayer[payers[id] ?? id, default: 0] += bytes }
    return WriteAdmission.decide(
      queued: queued, bound: configuration.maxPendingBytes, mine: byPayer[payer] ?? 0,
      fillers: byPayer.count, cannotWrite: cannotWrite)
  }

  /// Why the database cannot be written, while flushes fail (call with the lock held).
  private var cannotWrite: String? {
    guard schedule.failures > 0 else { return nil }
    return "the database cannot be written: " + (lastError.map(Self.describe) ?? "unknown error")
  }

  /// Takes the waiters that may go now (or are refused) out of the queue (lock held); call
  /// each outside the lock.
  private func admittedWaiters() -> [(@Sendable (String?) -> Void, String?)] {
    guard !waiters.isEmpty else { return [] }
    var ready: [(@Sendable (String?) -> Void, String?)] = []
    var still: [(payer: String, go: @Sendable (String?) -> Void)] = []
    for waiter in waiters {
      switch stopping ? .refuse("the server is shutting down") : admission(for: waiter.payer) {
      case .go: ready.append((waiter.go, nil))
      case .refuse(let why): ready.append((waiter.go, why))
      case .wait: still.append(waiter)
      }
    }
    waiters = still
    return ready
  }

  /// Why a client's input is refused now: the database cannot be written and the queue is at
  /// its bound in bytes (counted in `status.rejectedInputs`); nil otherwise (a writer that is
  /// merely behind takes it).
  public func refusesInput() -> String? {
    condition.lock()
    defer { condition.unlock() }
    // NB: asked for every input a client sends: the queue's bytes (a sum over every session's
    // snapshots) are counted only while flushes fail, which a healthy writer never does.
    guard let cannotWrite, pending.bytes + inFlightBytes >= configuration.maxPendingBytes
    else { return nil }
    rejectedInputs += 1
    return cannotWrite
  }

  /// Queues a snapshot; only the newest few per session are kept while they wait.
  public func save(_ snapshot: Snapshot) {
    enqueue { $0.add(snapshot) }
  }

  /// Queues a status and tick update; only the latest per session is kept while it waits.
  public func update(_ progress: SessionProgress) {
    enqueue { $0.record(progress) }
  }

  /// Writes the session's rows queued from now on under `lease` (call it when acquiring or
  /// renewing). Rows still queued under an earlier lease of that session are dropped: another
  /// process has held it since, so the store would refuse them.
  public func hold(_ lease: Lease) {
    condition.lock()
    defer { condition.unlock() }
    refusedRows += pending.hold(lease)
  }

  /// Gives `lease` up in the same transaction that writes the session's last queued rows
  /// (when the app lets a session go, e.g. parks it, so another process may adopt it).
  public func release(_ lease: Lease) {
    enqueue { $0.release(lease) }
  }

  /// Drops what is queued for a session, e.g. because it was deleted.
  public func forget(sessionID: String) {
    condition.lock()
    defer { condition.unlock() }
    pending.discard(sessionID: sessionID)
    payers[sessionID] = nil
  }

  /// Blocks until everything queued before the call is committed (or refused because another
  /// process took its session); false after `timeout` seconds.
  @discardableResult
  public func flush(timeout: Double = 10) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    let target = enqueued
    // NB: writes dropped by `forget` count as enqueued but will never be written.
    if pending.isEmpty && inFlight.isEmpty { durable = target }
    flushRequested = true
    condition.broadcast()
    while durable < target {
      guard !finished, condition.wait(until: deadline) else { return durable >= target }
    }
    return true
  }

  /// Blocks until `sessionID`'s writes queued before the call are committed (or refused
  /// because another process took the session): its own share of the writer, not everyone's
  /// queue (a flood of another client's rows does not hold it); false after `timeout` seconds.
  @discardableResult
  public func flush(sessionID: String, timeout: Double = 10) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    let target = enqueued
    // NB: its progress, snapshots and release replace older ones (they carry no count): they
    // are written by the next flush that commits, unless its inputs hold them back.
    let others = pending.hasOtherWrites(of: sessionID) ? flushesBegun : nil
    // NB: the flush under way may hold any of its rows, its progress too (before, only rows
    // with bytes were waited for: a parked session's last progress, in flight alone, was read
    // back older than its clients had been told). Rows a failed flush puts back go in a later one.
    let underWay = inFlightSessions.contains(sessionID) ? flushesBegun : nil
    let waiting = {
      (self.pending.oldestStamp(of: sessionID).map { $0 <= target } ?? false)
        || underWay.map { self.lastCommitted < $0 } ?? false
        || others.map { self.lastCommitted <= $0 } ?? false
    }
    guard waiting() else { return true }
    flushRequested = true
    condition.broadcast()
    while waiting() {
      guard !finished, condition.wait(until: deadline) else { return !waiting() }
    }
    return true
  }

  /// Flushes what is queued and stops the thread; false when writes were still failing after
  /// `timeout` seconds (they are then lost, and `status` says how many).
  @discardableResult
  public func close(timeout: Double = 10) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    stopping = true
    flushRequested = true
    condition.broadcast()
    while !finished {
      guard condition.wait(until: deadline) else {
        abandoned = true
        condition.broadcast()
        while !finished { condition.wait() }
        break
      }
    }
    return pending.isEmpty
  }

  /// Inputs held while the database cannot be written before new ones are refused.
  public var maxPendingInputs: Int { configuration.maxPendingInputs }

  /// How long the inputs of the latest ticks waited from being queued to being committed.
  public var commitLatency: CommitLatency {
    condition.lock()
    defer { condition.unlock() }
    return latency
  }

  /// The queue's health now.
  public var status: WriterStatus {
    condition.lock()
    defer { condition.unlock() }
    let inputs = pending.inputCount + inFlightInputs
    let bytes = pending.bytes + inFlightBytes
    return WriterStatus(
      pendingInputs: inputs, pendingSnapshots: pending.snapshotCount + inFlight.snapshots.count,
      pendingProgress: pending.progress.count + inFlight.progress.count,
      rejectedInputs: rejectedInputs, consecutiveFailures: schedule.failures,
      lastError: lastError.map(Self.describe), lastErrorKind: (lastError as? SQLiteError)?.kind,
      isBacklogFull: inputs >= configuration.maxPendingInputs, lostSessions: lostSessions,
      refusedRows: refusedRows, pendingBytes: bytes, peakBytes: peakBytes,
      waitingSteps: waiters.count, writtenRows: writtenRows, writtenBytes: writtenBytes)
  }

  /// Failed flushes in a row (0 after a success), and when the flush under way began (the
  /// writer's steady clock; nil between flushes): whether writes work now, read ten times a
  /// second (`StorageWatch`), so cheaper than `status`.
  public var writing: (failures: Int, flushingSince: Double?) {
    condition.lock()
    defer { condition.unlock() }
    return (schedule.failures, flushStartedAt)
  }

  /// Bytes queued before on-demand steps wait (`WriterConfiguration.maxPendingBytes`).
  public var maxPendingBytes: Int { configuration.maxPendingBytes }

  private func enqueue(_ change: (inout PendingWrites) -> Void) {
    condition.lock()
    defer { condition.unlock() }
    guard !stopping else { return }
    change(&pending)
    peakBytes = max(peakBytes, pending.bytes + inFlightBytes)
    enqueued += 1
  }

  private func run() {
    condition.lock()
    defer { condition.unlock() }
    while true {
      let action = schedule.action(
        at: now(), hasPending: !pending.isEmpty, flushRequested: flushRequested,
        stopping: stopping, abandoned: abandoned)
      switch action {
      case .exit:
        finished = true
        condition.broadcast()
        let refused = waiters
        waiters = []
        condition.unlock()
        for waiter in refused { waiter.go("the server is shutting down") }
        condition.lock()
        return
      case .wait(let seconds):
        _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
      case .flush:
        flushRequested = false
        flushesBegun += 1
        let number = flushesBegun
        let queuedInputs = pending.inputCount
        let queuedBytes = pending.sessionBytes
        let batch = pending.take(
          budget: stopping ? .max : configuration.maxBatchBytes,
          payer: { [payers] in payers[$0] ?? $0 })
        // NB: under the lock since the take: any input row still queued was left by it.
        let rationed = !pending.inputs.isEmpty
        let through = enqueued
        inFlight = batch
        inFlightStamps = pending.takenStamps
        // NB: by what the take removed from the queue's counts, never by reading the rows again.
        inFlightInputs = queuedInputs - pending.inputCount
        inFlightSessionBytes = queuedBytes
        for (id, left) in pending.sessionBytes { inFlightSessionBytes[id, default: 0] -= left }
        inFlightSessionBytes = inFlightSessionBytes.filter { $0.value > 0 }
        for snapshot in batch.snapshots {
          inFlightSessionBytes[snapshot.sessionID, default: 0] += snapshot.state.count + 32
        }
        inFlightBytes = inFlightSessionBytes.values.reduce(0, +)
        inFlightSessions = batch.sessions
        flushStartedAt = now()
        condition.unlock()
        let result = Result { try store.write(batch) }
        condition.lock()
        flushStartedAt = nil
        inFlight = WriteBatch()
        let stamps = inFlightStamps
        inFlightStamps = []
        inFlightInputs = 0
        inFlightBytes = 0
        inFlightSessionBytes = [:]
        inFlightSessions = []
        switch result {
        case .success(let written):
          writtenRows += batch.inputs.count
          writtenBytes += batch.inputs.reduce(0) { $0 + $1.queuedBytes }
          // With nothing left, writes queued during the flush were all dropped by `forget`;
          // rows a rationed take left are older than `through`.
          durable =
            pending.isEmpty ? enqueued : min(through, (pending.oldestStamp() ?? through + 1) - 1)
          // NB: what the take left goes at once, not after the interval.
          if rationed { flushRequested = true }
          let committedAt = now()
          let done = queuedAt.prefix { $0.through <= durable }.count
          for queued in queuedAt.prefix(done) { latency.record(committedAt - queued.at) }
          queuedAt.removeFirst(done)
          lastError = nil
          lastCommitted = number
          schedule.succeeded(at: now())
          if !written.lostSessions.isEmpty {
            for id in written.lostSessions { pending.discard(sessionID: id) }
            lostSessions += written.lostSessions.count
            refusedRows += written.refusedRows
            if pending.isEmpty { durable = enqueued }
            condition.unlock()
            leaseLost(written.lostSessions)
            condition.lock()
          }
          let storedTicks = Self.lastTicks(of: batch.inputs, except: written.lostSessions)
          if !storedTicks.isEmpty {
            condition.unlock()
            stored(storedTicks)
            condition.lock()
          }
        case .failure(let error):
          pending.restore(batch, stamps: stamps)
          lastError = error
          schedule.failed(at: now())
        }
        condition.broadcast()
        let ready = admittedWaiters()
        if !ready.isEmpty {
          condition.unlock()
          for (go, why) in ready { go(why) }
          condition.lock()
        }
      }
    }
  }

  /// The last tick of each session's `inputs`, but for the sessions `except`.
  static func lastTicks(of inputs: [LoggedInput], except: [String]) -> [String: Int64] {
    var ticks: [String: Int64] = [:]
    for input in inputs { ticks[input.sessionID] = max(ticks[input.sessionID] ?? 0, input.tick) }
    for id in except { ticks[id] = nil }
    return ticks
  }

  private static func describe(_ error: any Error) -> String {
    String(describing: error)
  }
}
