import Foundation

/// Keeps this process's session leases alive: it records the leases the app takes, renews them
/// all every `duration / 3` seconds in one statement on a thread of its own, and reports those
/// found lost (another process adopted them after they ran out, e.g. while this one was paused
/// or cut off from the database), so the app stops stepping them.
///
/// While the database is unreachable, renewals fail and are retried at the next period; the
/// sessions go on in memory. A lease that ran out meanwhile but that no one took is renewed
/// when the database is back; one that another process took is reported lost, and its writes
/// are refused by the store (`WriteResult.lostSessions`) anyway.
public final class LeaseKeeper: @unchecked Sendable {
  // NB: @unchecked because every `var` below is guarded by `condition`, which is the lock.
  /// The owner name of every lease this keeper takes (one per process life).
  public let owner: String
  /// Seconds a lease lasts unless renewed.
  public let duration: Double
  private let store: any SessionStore
  private let wallClock: @Sendable () -> Double
  private let lost: @Sendable ([String]) -> Void
  private let condition = NSCondition()
  private var held: [String: Lease] = [:]
  private var failures = 0
  private var lastError: String?
  private var stopping = false
  private var finished = false

  /// Starts the renewing thread (unless `renewing` is false: then call `renew()` yourself).
  /// `wallClock` gives unix seconds; `lost` is called on the keeper's thread with sessions
  /// found lost.
  public init(
    store: any SessionStore, owner: String, duration: Double = 10,
    wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
    renewing: Bool = true, lost: @escaping @Sendable ([String]) -> Void = { _ in }
  ) {
    self.store = store
    self.owner = owner
    self.duration = duration
    self.wallClock = wallClock
    self.lost = lost
    guard renewing else {
      finished = true
      return
    }
    let thread = Thread { [self] in run() }
    thread.name = "playfield.lease-keeper"
    thread.start()
  }

  /// The terms of a lease taken now.
  public var terms: LeaseTerms {
    LeaseTerms(owner: owner, now: wallClock(), duration: duration)
  }

  /// Asks the store for a session's lease and, when acquired, keeps it.
  public func acquire(sessionID: String) throws -> LeaseAcquisition {
    let acquisition = try store.acquireLease(sessionID: sessionID, terms)
    if let lease = acquisition.lease { keep(lease) }
    return acquisition
  }

  /// Keeps a lease taken elsewhere (from `createSession(_:lease:)` with `terms`).
  public func keep(_ lease: Lease) {
    condition.lock()
    defer { condition.unlock() }
    held[lease.sessionID] = lease
  }

  /// Stops keeping a session's lease and returns it, for `SessionWriter.release` (which gives
  /// it up after the session's last rows); nil when none is kept.
  @discardableResult
  public func forget(sessionID: String) -> Lease? {
    condition.lock()
    defer { condition.unlock() }
    return held.removeValue(forKey: sessionID)
  }

  /// The lease kept for a session, if any.
  public func lease(sessionID: String) -> Lease? {
    condition.lock()
    defer { condition.unlock() }
    return held[sessionID]
  }

  /// Whether this process may still step a session: its lease is kept and has more than
  /// `margin` seconds left on the wall clock now. Past that point another process may adopt the
  /// session as soon as the lease runs out, so this one applies nothing more to it (the fence
  /// before apply; the store refusing stale writes is the fence after). The margin covers the
  /// time between this check and the step, and clocks a little apart.
  public func mayStep(sessionID: String, margin: Double) -> Bool {
    let now = wallClock()
    condition.lock()
    defer { condition.unlock() }
    guard let lease = held[sessionID] else { return false }
    return now < lease.expiresAt - margin
  }

  /// Renews every lease of `owner` now and returns the sessions found lost (no longer kept,
  /// and reported to `lost`); throws what the store threw, keeping every lease.
  @discardableResult
  public func renew() throws -> [String] {
    condition.lock()
    let before = held
    condition.unlock()
    let renewed: [Lease]
    do {
      renewed = try store.renewLeases(terms)
    } catch {
      condition.lock()
      failures += 1
      lastError = String(describing: error)
      condition.unlock()
      throw error
    }
    let still = Dictionary(uniqueKeysWithValues: renewed.map { ($0.sessionID, $0) })
    condition.lock()
    failures = 0
    lastError = nil
    var gone: [String] = []
    for (id, lease) in before {
      // NB: a lease forgotten or taken anew during the renewal is not this renewal's to judge.
      guard let current = held[id], current.isSameHold(as: lease) else { continue }
      if let renewedLease = still[id], renewedLease.isSameHold(as: lease) {
        held[id] = renewedLease
      } else {
        held[id] = nil
        gone.append(id)
      }
    }
    condition.unlock()
    gone.sort()
    if !gone.isEmpty { lost(gone) }
    return gone
  }

  /// Renewals failed in a row, and why the last one did; `nil` reason while they succeed.
  public var health: (failures: Int, lastError: String?) {
    condition.lock()
    defer { condition.unlock() }
    return (failures, lastError)
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
      _ = condition.wait(until: Date(timeIntervalSinceNow: duration / 3))
      guard !stopping else { return }
      condition.unlock()
      _ = try? renew()
      condition.lock()
    }
  }
}
