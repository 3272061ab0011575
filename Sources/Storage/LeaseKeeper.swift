import Dispatch
import Foundation

/// Keeps this process's session leases alive: it records the leases the app takes, renews them
/// all every `duration / 3` seconds in one statement on a thread of its own, and reports those
/// found lost (another process adopted them after they ran out, e.g. while this one was paused
/// or cut off from the database), so the app stops stepping them.
///
/// While the database is unreachable, renewals fail and are retried every half second; the
/// sessions go on in memory (`mayStep`: while every renewal since the last success failed only
/// because the store could not be reached, no other process can take a lease either). A lease
/// that ran out meanwhile but that no one took is renewed when the database is back; one that
/// another process took is reported lost, and its writes are refused by the store
/// (`WriteResult.lostSessions`) anyway.
///
/// A gap in this process's own steady clock longer than `pauseGap` (it was paused: SIGSTOP,
/// SIGCONT) ends that allowance until a renewal answers: the store may have come back during
/// the pause and another process adopted the sessions.
public final class LeaseKeeper: @unchecked Sendable {
  // NB: @unchecked because every `var` below is guarded by `condition`, which is the lock.
  /// The owner name of every lease this keeper takes (one per process life).
  public let owner: String
  /// Seconds a lease lasts unless renewed.
  public let duration: Double
  private let store: any SessionStore
  /// The longest gap in the steady clock between two beats that is not taken for a pause.
  public let pauseGap: Double
  /// The clock lease terms are judged by; nil: the database's own (`LeaseTerms.now`).
  private let wallClock: (@Sendable () -> Double)?
  private let steadyClock: @Sendable () -> Double
  private let lost: @Sendable ([String]) -> Void
  private let answered: @Sendable () -> Void
  /// Where the renewing thread says that renewals fail, and that they succeed again.
  private let log: @Sendable (String) -> Void
  private let condition = NSCondition()
  private var held: [String: Lease] = [:]
  /// Until when (steady time) each kept lease may be stepped on: the moment its last
  /// successful request (acquire, create or renewal) was SENT, plus `duration`. The database
  /// judges expiry by its own clock from when it received that request, which is later: so
  /// this process stops stepping no later than another may adopt, however far apart the two
  /// machines' wall clocks are and however long the answer took to come back.
  private var steadyUntil: [String: Double] = [:]
  private var failures = 0
  private var lastError: String?
  /// When the renewal under way was sent (steady time), nil between renewals.
  private var renewalSentAt: Double?
  /// Whether every renewal failed since the last success failed because the store could not be
  /// reached (a connection refused or lost), not because of what it answered.
  private var unreachableOnly = true
  /// The steady time of the last beat (`beat()`), nil before the first.
  private var lastBeat: Double?
  /// Set by a pause (a gap between beats past `pauseGap`); cleared by a renewal that answers,
  /// begun after the pause was seen (at `pauseSeenAt`, steady time).
  private var pausedSinceAnswer = false
  private var pauseSeenAt = -Double.infinity
  private var stopping = false
  private var finished = false
  /// Renewals failed in a row, and when the renewal under way was sent (steady time; nil
  /// between renewals): read ten times a second (`StorageWatch`).
  public var renewing: (failures: Int, since: Double?) {
    condition.lock()
    defer { condition.unlock() }
    return (failures, renewalSentAt)
  }

  /// Since start: renewals that answered, renewals that failed, leases found lost.
  private var counts = (renewed: UInt64(0), failed: UInt64(0), lost: UInt64(0))

  /// Starts the renewing thread and the beating one (unless `renewing` is false: then call
  /// `renew()` and `beat()` yourself). `wallClock`, when given, is the time in unix seconds the
  /// store judges leases by (tests); nil, the database's own clock does (`now()` on PostgreSQL,
  /// SQLite's clock). `steadyClock` gives seconds that run on while the process is stopped; `lost` is called on the keeper's thread with
  /// sessions found lost, `answered` when a renewal succeeds after failures (the store is back);
  /// `log` gets a line when renewals start failing (and every `logEvery`th failure in a row
  /// after), and one when they succeed again.
  public init(
    store: any SessionStore, owner: String, duration: Double = 10, pauseGap: Double = 1,
    wallClock: (@Sendable () -> Double)? = nil,
    steadyClock: @escaping @Sendable () -> Double = {
      Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    },
    renewing: Bool = true, lost: @escaping @Sendable ([String]) -> Void = { _ in },
    answered: @escaping @Sendable () -> Void = {},
    log: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.store = store
    self.owner = owner
    self.duration = duration
    self.pauseGap = pauseGap
    self.wallClock = wallClock
    self.steadyClock = steadyClock
    self.lost = lost
    self.answered = answered
    self.log = log
    guard renewing else {
      finished = true
      return
    }
    beat()
    let thread = Thread { [self] in run() }
    thread.name = "playfield.lease-keeper"
    thread.start()
    let beating = Thread { [self] in beatUntilStopped() }
    beating.name = "playfield.lease-clock"
    beating.start()
  }

  /// The terms of a lease taken now.
  public var terms: LeaseTerms {
    LeaseTerms(owner: owner, now: wallClock?(), duration: duration)
  }

  /// The steady clock now: read it just before sending a request that takes a lease, and hand
  /// it to `keep(_:sentAt:)`.
  public var steadyNow: Double { steadyClock() }

  /// Asks the store for a session's lease and, when acquired, keeps it.
  public func acquire(sessionID: String) throws -> LeaseAcquisition {
    let sentAt = steadyClock()
    let acquisition = try store.acquireLease(sessionID: sessionID, terms)
    if let lease = acquisition.lease { keep(lease, sentAt: sentAt) }
    return acquisition
  }

  /// Keeps a lease taken elsewhere (from `createSession(_:lease:)` with `terms`), asked for at
  /// `sentAt` (steady time; now when not given).
  public func keep(_ lease: Lease, sentAt: Double? = nil) {
    let sentAt = sentAt ?? steadyClock()
    condition.lock()
    defer { condition.unlock() }
    held[lease.sessionID] = lease
    steadyUntil[lease.sessionID] = sentAt + duration
  }

  /// Stops keeping a session's lease and returns it, for `SessionWriter.release` (which gives
  /// it up after the session's last rows); nil when none is kept.
  @discardableResult
  public func forget(sessionID: String) -> Lease? {
    condition.lock()
    defer { condition.unlock() }
    steadyUntil[sessionID] = nil
    return held.removeValue(forKey: sessionID)
  }

  /// The lease kept for a session, if any.
  public func lease(sessionID: String) -> Lease? {
    condition.lock()
    defer { condition.unlock() }
    return held[sessionID]
  }

  /// Whether this process may still step a session: its lease is kept, and either has more
  /// than `margin` seconds left on this process's steady clock (`steadyUntil`: counted from
  /// when the request that took or renewed it was sent), or every renewal since the last
  /// success failed only because the store could not be reached (and none was made since a
  /// pause).
  ///
  /// Past the margin another process may adopt the session as soon as the lease runs out, so
  /// this one applies nothing more to it (the fence before apply; the store refusing stale
  /// writes is the fence after). The margin covers the time between this check and the step,
  /// and clocks a little apart. While the store is unreachable no process can adopt anything
  /// (adopting is a write to the store), so the sessions go on in memory; when it is back, the
  /// first renewal finds out which leases are still ours (docs/deployment.md, "What survives
  /// which failure").
  public func mayStep(sessionID: String, margin: Double) -> Bool {
    let steady = steadyClock()
    condition.lock()
    defer { condition.unlock() }
    guard held[sessionID] != nil, let until = steadyUntil[sessionID] else { return false }
    if steady < until - margin { return true }
    // NB: a beat missed is seen here too, before the beating thread runs again after SIGCONT.
    notePause(at: steady)
    return isCutOff && !pausedSinceAnswer
  }

  /// Sets `pausedSinceAnswer` when the last beat is more than `pauseGap` before `steady`.
  private func notePause(at steady: Double) {
    guard let lastBeat, steady - lastBeat > pauseGap else { return }
    pausedSinceAnswer = true
    pauseSeenAt = steady
  }

  /// Whether renewals fail, each only because the store could not be reached.
  private var isCutOff: Bool {
    failures > 0 && unreachableOnly
  }

  /// Notes that the process runs now (the beating thread calls it ten times a second): a gap
  /// since the last beat longer than `pauseGap` means the process was stopped, and ends
  /// stepping on a lease that ran out until a renewal answers.
  public func beat() {
    let steady = steadyClock()
    condition.lock()
    defer { condition.unlock() }
    notePause(at: steady)
    lastBeat = steady
  }

  /// Renews every lease of `owner` now and returns the sessions found lost (no longer kept,
  /// and reported to `lost`); throws what the store threw, keeping every lease.
  @discardableResult
  public func renew() throws -> [String] {
    let startedAt = steadyClock()
    condition.lock()
    let before = held
    renewalSentAt = startedAt
    condition.unlock()
    let renewed: [Lease]
    do {
      renewed = try store.renewLeases(terms)
    } catch {
      condition.lock()
      renewalSentAt = nil
      failures += 1
      counts.failed += 1
      lastError = String(describing: error)
      if (error as? PostgresError)?.kind != .connection { unreachableOnly = false }
      condition.unlock()
      throw error
    }
    return settle(renewed, before: before, sentAt: startedAt)
  }

  /// Takes in what a renewal sent at `sentAt` (steady time) found, `renewed`, for the leases
  /// kept when it was sent (`before`): each renewed one may be stepped until `sentAt` plus
  /// `duration`; the others are reported lost. Returns the lost ones.
  func settle(_ renewed: [Lease], before: [String: Lease], sentAt startedAt: Double) -> [String] {
    let still = Dictionary(uniqueKeysWithValues: renewed.map { ($0.sessionID, $0) })
    condition.lock()
    renewalSentAt = nil
    let wasFailing = failures > 0
    counts.renewed += 1
    failures = 0
    lastError = nil
    unreachableOnly = true
    // NB: an answer to a renewal sent before a pause says nothing of what happened during it.
    if startedAt >= pauseSeenAt { pausedSinceAnswer = false }
    var gone: [String] = []
    for (id, lease) in before {
      // NB: a lease forgotten or taken anew during the renewal is not this renewal's to judge.
      guard let current = held[id], current.isSameHold(as: lease) else { continue }
      if let renewedLease = still[id], renewedLease.isSameHold(as: lease) {
        held[id] = renewedLease
        steadyUntil[id] = max(steadyUntil[id] ?? -.infinity, startedAt + duration)
      } else {
        held[id] = nil
        steadyUntil[id] = nil
        gone.append(id)
      }
    }
    counts.lost += UInt64(gone.count)
    condition.unlock()
    gone.sort()
    if !gone.isEmpty { lost(gone) }
    if wasFailing { answered() }
    return gone
  }

  /// Renewals failed in a row, and why the last one did; `nil` reason while they succeed.
  /// `cutOff`: every one of them failed because the store could not be reached, and the
  /// process was not paused since, so sessions go on past their leases.
  public var health: (failures: Int, lastError: String?, cutOff: Bool) {
    condition.lock()
    defer { condition.unlock() }
    return (failures, lastError, isCutOff && !pausedSinceAnswer)
  }

  /// Since start: renewals that answered, renewals that failed, and leases found lost; with the
  /// leases held now (for `/metrics`).
  public var totals: (renewed: UInt64, failed: UInt64, lost: UInt64, held: Int) {
    condition.lock()
    defer { condition.unlock() }
    return (counts.renewed, counts.failed, counts.lost, held.count)
  }

  /// Stops renewing (the leases then run out unless given up: see `releaseAll`).
  public func stop() {
    condition.lock()
    defer { condition.unlock() }
    stopping = true
    condition.broadcast()
    while !finished { condition.wait() }
  }

  /// Stops renewing and gives up every lease of `owner` (at shutdown, after the writer's last
  /// rows are written), so other processes may adopt the sessions at once.
  @discardableResult
  public func releaseAll() throws -> Int {
    stop()
    condition.lock()
    held = [:]
    steadyUntil = [:]
    condition.unlock()
    return try store.releaseLeases(owner: owner)
  }

  private func run() {
    condition.lock()
    defer {
      finished = true
      condition.broadcast()
      condition.unlock()
    }
    while !stopping {
      // NB: while renewals fail, sooner, so that the store's return is noticed at once.
      let period = failures > 0 ? min(duration / 3, Self.retryPeriod) : duration / 3
      _ = condition.wait(until: Date(timeIntervalSinceNow: period))
      guard !stopping else { return }
      condition.unlock()
      renewAndSay()
      condition.lock()
    }
  }

  /// Renews, and logs a failure that starts a run of them (and every `logEvery`th after), and
  /// the success that ends one.
  func renewAndSay() {
    let before = health.failures
    do {
      try renew()
      if before > 0 {
        log("lease renewals succeed again, after \(before) failed in a row")
      }
    } catch {
      let failures = health.failures
      if failures == 1 || failures % Self.logEvery == 0 {
        log(
          "cannot renew this process's \(totals.held) session leases (\(failures) failed in a row, "
            + "retrying every \(Self.retryPeriod) s): \(error)")
      }
    }
  }

  /// Failures in a row between two log lines about them (10 s at the retry period).
  static let logEvery = 20

  /// Seconds between renewals while they fail.
  static let retryPeriod = 0.5

  /// Seconds between beats.
  static let beatPeriod = 0.1

  private func beatUntilStopped() {
    condition.lock()
    while !stopping {
      condition.unlock()
      beat()
      condition.lock()
      _ = condition.wait(until: Date(timeIntervalSinceNow: Self.beatPeriod))
    }
    condition.unlock()
  }
}
