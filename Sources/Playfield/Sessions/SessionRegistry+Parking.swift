import Storage

extension SessionRegistry {
  /// Makes room for one more session of `client` (or anyone's, when `client` is nil): parks
  /// the longest-idle session nobody is connected to (`idleLonger`), among the client's own (at the
  /// `.client` bound), its address's (at the `.address` bound) or all. Connections count from
  /// the moment they join (`LiveSession.isWatched`), not from the next tick's summary.
  /// An on-demand session's last steps, not shown yet, are published by the park itself
  /// (`LiveSession.tryPark(now:)`); before, it counted as in use until the game loop had shown
  /// them (up to 250 ms of 429s for its owner), and a show under way could still miss them.
  /// A session the store could not keep (`memoryOnly`) is never parked: that would lose it.
  /// The id of the session parked; nil when every candidate has someone connected.
  @discardableResult
  func parkIdle(of client: ClientKey?, at bound: SessionQuota.Bound = .client) -> String? {
    let candidates = parkCandidates(of: client, at: bound)
    // NB: a message to the session, refused when a batch attached it since the check above
    // (then the next oldest); a join that raced the check is told to reconnect, and nothing
    // is applied or logged here once its lease is given up below.
    let longestIdle = candidates.map { ($0, $0.summary) }
      .sorted(by: { Self.idleLonger($0.1, than: $1.1) }).map(\.0)
    let now = wallClock()
    guard let oldest = longestIdle.first(where: { $0.tryPark(now: now) }) else { return nil }
    // NB: no snapshot here (the game loop owns the model); the periodic snapshots and the
    // input log bring it back, as after a crash.
    parked.withLock { _ = $0.insert(oldest.id) }
    live.withLock { $0[oldest.id] = nil }
    if let owner = quota.owner(of: oldest.id) { parkedOwners.withLock { $0[oldest.id] = owner } }
    parkedAt.withLock { $0[oldest.id] = oldest.summary.updatedAt }
    quota.release(oldest.id)
    (journal as? StorageJournal)?.release(sessionID: oldest.id)
    logger.info("session \(oldest.id) parked: idle and unwatched, to make room")
    return oldest.id
  }

  /// The sessions `parkIdle` may park for `client` at `bound` (see there), in no order; none
  /// without a store.
  func parkCandidates(of client: ClientKey?, at bound: SessionQuota.Bound) -> [LiveSession] {
    guard journal != nil else { return [] }
    let unstored = memoryOnly.withLock { $0 }
    return listed.filter { session in
      guard !unstored.contains(session.id) else { return false }
      let summary = session.summary
      guard !session.isWatched, !session.isRestoring,
        summary.spectators + summary.controllers == 0
      else {
        return false
      }
      guard let client else { return true }
      let owner = quota.owner(of: session.id)
      switch bound {
      case .client: return owner == client
      case .address, .reserve: return owner?.address == client.address
      case .onDemand: return owner == client && quota.isOnDemand(session.id)
      }
    }
  }

  /// Whether `a` has been idle longer than `b`: it lost its last client (`idleSince`; a session
  /// not yet ticked since it was made, from its creation) earlier, then it is older. Not
  /// `updatedAt`: a running session's is its last tick, the same for every running one.
  static func idleLonger(_ a: SessionSummary, than b: SessionSummary) -> Bool {
    let (idleA, idleB) = (a.idleSince ?? a.createdAt, b.idleSince ?? b.createdAt)
    return idleA != idleB ? idleA < idleB : a.createdAt < b.createdAt
  }

  /// Whether asking for session `id` would read the store: it is not live here, and was parked
  /// here or (on a shared store) may be anyone's.
  func mayBringBack(_ id: String) -> Bool {
    guard let journal = journal as? StorageJournal, live.withLock({ $0[id] }) == nil else {
      return false
    }
    return journal.leases != nil || parked.withLock { $0.contains(id) }
  }

  /// Brings a session back from storage when someone asks for it: one this process parked,
  /// or, on a shared store, one whose lease is free or ran out (its process died or let it go).
  /// A session another live process holds stays there (`heldElsewhere` says by whom).
  func unpark(_ id: String) -> LiveSession? {
    guard let journal = journal as? StorageJournal else { return nil }
    // NB: one at a time, so that two requests for one session never bring back two copies.
    return adopting.withLock { _ in
      if let session = live.withLock({ $0[id] }) { return session }
      return bringBack(id, journal: journal)
    }
  }

  /// Seconds a parked session's return waits for its queued writes to be stored.
  static let unparkFlushWait = 2.0

  /// Brings back session `parked`, parked for an admission that the exact count across the
  /// cluster then refused (whose place is free again), as an ordinary return does, except that
  /// it parks nothing: past its owner's places here or across the cluster (another process
  /// admitted one of the owner's sessions meanwhile) it stays parked. Under `adopting` when
  /// `locked` is false; the caller holds it otherwise.
  func unparkRefused(_ parked: String?, locked: Bool = false) {
    guard let parked, let journal = journal as? StorageJournal else { return }
    func back() {
      guard live.withLock({ $0[parked] }) == nil else { return }
      if bringBack(parked, journal: journal, mayPark: false) != nil {
        logger.info("session \(parked) back: the admission it was parked for was refused")
      }
    }
    if locked { back() } else { adopting.withLock { _ in back() } }
  }

  /// `unpark` under `adopting`; with `mayPark` false, a return that needs a place made here
  /// stays parked.
  private func bringBack(_ id: String, journal: StorageJournal, mayPark: Bool = true)
    -> LiveSession?
  {
    let wasParked = parked.withLock { $0.remove(id) } != nil
    guard wasParked || journal.leases != nil else { return nil }
    // The session's last inputs and progress may still be queued: it comes back only once
    // they are stored, never from an older state than its clients were told of. Until then it
    // stays parked, and the asker is told to ask again.
    if wasParked, !journal.writer.flush(sessionID: id, timeout: Self.unparkFlushWait) {
      parked.withLock { _ = $0.insert(id) }
      var refusal = APIError(
        .serviceUnavailable,
        "session \(id) cannot come back yet: its last inputs are not stored; ask again")
      refusal.headers.set("Retry-After", "1")
      noteNotBack(id, refusal)
      logger.warning("session \(id) stays parked: its last inputs are not stored yet")
      return nil
    }
    do {
      // NB: the holder seen last stays known until the store answers, so that a request
      // asking meanwhile (on another store worker) still hears "held elsewhere", not 404.
      let adopted = try journal.adopt(sessionID: id)
      unreachable.withLock { _ = $0.remove(id) }
      switch adopted {
      case nil, .acquired:
        heldElsewhere.withLock { $0[id] = nil }
      case .missing:
        heldElsewhere.withLock { $0[id] = nil }
        return gone(id, wasParked: wasParked)
      case .held(let lease):
        // NB: clients are told the holder's shard, never its host, pid or address.
        heldElsewhere.withLock { $0[id] = LeaseOwner.shard(of: lease.owner) ?? "" }
        if wasParked { forgetParked(id) }
        return nil
      }
      guard let stored = try journal.store.session(id: id) else {
        journal.release(sessionID: id)
        return gone(id, wasParked: wasParked)
      }
      guard stored.status != .ended else {
        journal.release(sessionID: id)
        if wasParked { forgetParked(id) }
        return nil
      }
      // NB: it comes back charged to its owner's live places, not to whoever asked.
      let owner = parkedOwners.withLock { $0[id] } ?? Self.owner(of: stored)
      // A session refused its return stays parked as it was.
      func stayParked() {
        guard wasParked else { return }
        parked.withLock { _ = $0.insert(id) }
        parkedOwners.withLock { $0[id] = owner }
        parkedAt.withLock { $0[id] = $0[id] ?? stored.updatedAt }
      }
      let onDemand = SessionClock(stored: stored.clock) == .onDemand
      let told = "session \(id) is parked and cannot come back now (it counts for its owner): "
      // NB: a place that needs another of the owner's sessions parked is taken only once this
      // one is known to load (its snapshot read and decoded): a return that fails evicts
      // nobody. Before, the other was parked first, for nothing.
      var prepared: SessionCatchUp?
      var parkedFor: String?
      do {
        try admitLive(id, client: owner, onDemand: onDemand, mayPark: false, told: told)
      } catch {
        guard mayPark else {
          journal.release(sessionID: id)
          stayParked()
          noteNotBack(id, error)
          return nil
        }
        prepared = try SessionCatchUp(stored, from: journal.store)
        do {
          // NB: the cluster is asked before the park, allowing for what it takes off the
          // owner's counts: a return it refuses parks nothing. Before, it was asked only once
          // another of the owner's sessions had been parked here, for nothing.
          parkedFor = try admitLive(
            id, client: owner, onDemand: onDemand, mayPark: true, told: told
          ) {
            self.clusterRefusal(stored, owner: owner, journal: journal, parking: $0)
          }
        } catch {
          journal.release(sessionID: id)
          stayParked()
          noteNotBack(id, error)
          return nil
        }
      }
      if parkedFor != nil { betweenClusterChecks?() }
      // On a shared store, the owner's sessions other processes hold count too, as for a
      // create: an adoption never takes a client past its quota across the cluster. Another
      // process may have admitted one of the owner's sessions since the count before the park:
      // the session parked for this return comes back (before, it stayed parked for nothing).
      if let refusal = clusterRefusal(stored, owner: owner, journal: journal) {
        quota.release(id)
        journal.release(sessionID: id)
        stayParked()
        noteNotBack(id, refusal)
        unparkRefused(parkedFor, locked: true)
        return nil
      }
      noteNotBack(id, nil)
      // NB: the replay from the snapshot is a job charged to the owner, not done here (on an
      // event loop); joiners get their hello once it is done.
      let session: LiveSession
      do {
        let catchUp = try prepared ?? SessionCatchUp(stored, from: journal.store)
        session = restore(stored, catchUp: catchUp, journal: journal, owner: owner)
      } catch {
        quota.release(id)
        throw error
      }
      // NB: only now: one that failed to come back stays parked with its owner and age (it
      // stayed parked without them before, and so never expired).
      parkedOwners.withLock { _ = $0.removeValue(forKey: id) }
      parkedAt.withLock { _ = $0.removeValue(forKey: id) }
      logger.info("session \(id) unparked from tick \(session.summary.tick)")
      return session
    } catch {
      journal.release(sessionID: id)
      // NB: it stays parked, to be asked for again (it was lost until a restart before).
      if wasParked { parked.withLock { _ = $0.insert(id) } }
      unreachable.withLock {
        if $0.count >= Self.maxUnreachable { $0.removeAll() }
        $0.insert(id)
      }
      logger.error("cannot bring back session \(id): \(error)")
      return nil
    }
  }

  /// Session `id`, asked for, has no row: deleted meanwhile, by an idle expiry that raced its
  /// parking, or on a shared store by another process. Nothing of it is kept here. Before, a
  /// parked one's owner and age outlived the row (the owner's next create past its stored
  /// share picked that ghost as the oldest parked session to delete, and was refused), and in
  /// a cluster the replay-state answers kept by a process that did not delete it were still
  /// served (every process not holding a session asks the store here first).
  private func gone(_ id: String, wasParked: Bool) -> LiveSession? {
    if wasParked { forgetParked(id) }
    forgetDeleted(id)
    return nil
  }
}

extension SessionRegistry {
  /// Why `stored`, just admitted here for `owner` (`admitLive`), may not come back: on a
  /// shared store, the owner's (or its address's) live sessions held by the other processes,
  /// with those held here, pass its quota. Nil when it fits, or on a store without leases.
  /// A store that cannot answer refuses nothing (the lease was just taken, so it answered).
  func clusterRefusal(_ stored: StoredSession, owner: ClientKey, journal: StorageJournal)
    -> APIError?
  {
    guard let refused = clusterRefusal(stored, owner: owner, journal: journal, parking: nil)
    else { return nil }
    refusals.note(refused.bound.limitName)
    return refused.error
  }

  /// `clusterRefusal`, with the bound passed and not counted in `/metrics`; with `parking`,
  /// asked before `stored` is admitted here, for after its admission and a park that takes
  /// `parking` off the owner's counts (`admitLive`'s `beforePark`).
  func clusterRefusal(
    _ stored: StoredSession, owner: ClientKey, journal: StorageJournal, parking: ClientCounts?
  ) -> (bound: SessionQuota.Bound, error: APIError)? {
    clusterRefusal(
      owner: owner, clock: SessionClock(stored: stored.clock), journal: journal,
      parking: parking,
      told: "session \(stored.id) cannot come back now (it counts for its owner): ")
  }

  /// Whether one more live session of `owner` on `clock` here would take it past its quota
  /// across the processes sharing the store, counting a park that takes `parking` off its
  /// counts here: the bound and what the client is told (`told` prefixed), or nil.
  func clusterRefusal(
    owner: ClientKey, clock: SessionClock, journal: StorageJournal, parking: ClientCounts?,
    told: String
  ) -> (bound: SessionQuota.Bound, error: APIError)? {
    guard let leases = journal.leases else { return nil }
    let onDemand = clock == .onDemand
    var claim = quota.claim(for: owner, onDemand: onDemand)
    if let parking {
      claim.heldHere.client += 1 - parking.client
      claim.heldHere.address += 1 - parking.address
      claim.heldHere.onDemand += (onDemand ? 1 : 0) - parking.onDemand
    }
    do {
      try journal.store.checkClaim(claim, clock: clock.rawValue, holder: leases.terms)
    } catch StoreError.clientQuota(let passed) {
      let bound = SessionQuota.Bound(passed)
      return (
        bound,
        APIError(
          .tooManyRequests,
          told + quota.message(bound) + " (counted across every process of this service)")
      )
    } catch {
      logger.warning("cannot count the owner's sessions across the processes: \(error)")
    }
    return nil
  }
}

extension SessionRegistry {
  /// Drops sessions another process took over (this one was paused or cut off from the
  /// database past their leases): their clients are told to reconnect, and nothing of them is
  /// stepped or written here again. The store keeps them; their new holder steps them.
  func dropLost(_ ids: [String]) {
    for id in ids {
      guard let session = live.withLock({ $0.removeValue(forKey: id) }) else { continue }
      quota.release(id)
      inputLog.forget(id)
      session.disconnectAll(
        .tryAgainLater, reason: "the session moved to another process; reconnect")
      logger.warning("session \(id) dropped: another process holds it now")
    }
  }
}
