import Storage

extension SessionRegistry {
  /// Makes room for one more session of `client` (or anyone's, when `client` is nil): parks
  /// the longest-untouched session nobody is connected to, among the client's own (at the
  /// `.client` bound), its address's (at the `.address` bound) or all.
  /// False when every candidate has someone connected.
  func parkIdle(of client: ClientKey?, at bound: SessionQuota.Bound = .client) -> Bool {
    let candidates = listed.filter { session in
      let summary = session.summary
      guard summary.spectators + summary.controllers == 0 else { return false }
      guard let client else { return true }
      let owner = quota.owner(of: session.id)
      switch bound {
      case .client: return owner == client
      case .address, .reserve: return owner?.address == client.address
      }
    }
    guard let oldest = candidates.min(by: { $0.summary.updatedAt < $1.summary.updatedAt }),
      journal != nil
    else { return false }
    // NB: no snapshot here (the game loop owns the model); the periodic snapshots and the
    // input log bring it back, as after a crash.
    parked.withLock { _ = $0.insert(oldest.id) }
    live.withLock { $0[oldest.id] = nil }
    quota.release(oldest.id)
    logger.info("session \(oldest.id) parked: idle and unwatched, to make room")
    return true
  }

  /// Brings a parked session back from storage when someone asks for it.
  func unpark(_ id: String) -> LiveSession? {
    guard parked.withLock({ $0.remove(id) }) != nil,
      let journal = journal as? StorageJournal
    else { return nil }
    do {
      // The session's last progress and inputs may still be queued.
      journal.writer.flush(timeout: 2)
      guard let stored = try journal.store.session(id: id), stored.status != .ended else {
        return nil
      }
      let model = try SessionRestorer.rebuild(stored, from: journal.store)
      let session = LiveSession(
        id: stored.id, model: model, seed: stored.seed, tokenHash: stored.tokenHash,
        createdAt: stored.createdAt, running: stored.status == .running, journal: journal,
        idlePause: limits.idlePause, clock: monotonicClock)
      adopt(session)
      logger.info("session \(id) unparked")
      return session
    } catch {
      logger.error("cannot bring back parked session \(id): \(error)")
      return nil
    }
  }
}
