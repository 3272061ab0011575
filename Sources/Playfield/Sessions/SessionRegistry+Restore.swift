import Storage
import WebSocket

extension SessionRegistry {
  /// Adopts a stored session at once, standing in with its latest snapshot, and replays the
  /// rest of its log as a job of the step scheduler (`SessionCatchUp`) charged to `owner`, or
  /// to the session itself when nobody is known (after a restart). Until the job is done the
  /// session takes no tick; whoever joins meanwhile gets the `hello` once it is where it was.
  /// Throws when the stored session no longer loads.
  @discardableResult
  func restore(
    _ stored: StoredSession, store: some SessionStore, journal: SessionJournal, owner: ClientKey?
  ) throws -> LiveSession {
    let catchUp = try SessionCatchUp(stored, from: store)
    return restore(stored, catchUp: catchUp, journal: journal, owner: owner)
  }

  /// `restore`, from its snapshot already read (`catchUp`).
  @discardableResult
  func restore(
    _ stored: StoredSession, catchUp: SessionCatchUp, journal: SessionJournal, owner: ClientKey?
  ) -> LiveSession {
    // NB: an on-demand session comes back on demand, never running on the tick.
    let clock = SessionClock(stored: stored.clock)
    let running = stored.status == .running && clock == .realtime
    let session = LiveSession(
      id: stored.id, model: catchUp.start, seed: stored.seed, tokenHash: stored.tokenHash,
      createdAt: stored.createdAt, running: running, journal: journal,
      idlePause: limits.idlePause, clock: monotonicClock, seatGeneration: stored.seatGeneration,
      paused: true, wake: wake, onDemand: clock == .onDemand ? onDemand : nil,
      restoring: catchUp.hasWork, snapshotInputs: inputLog.snapshotEvery)
    if catchUp.hasWork { session.restoring(to: catchUp.target) }
    adopt(session)
    guard catchUp.hasWork else { return session }
    scheduler.submit(
      StepJob(
        client: owner ?? ClientKey(address: "session \(stored.id)"), label: "restore",
        work: { catchUp.work(&$0) },
        completion: { [self] outcome in
          // NB: deleted or expired meanwhile: whoever waited to join is told.
          guard live.withLock({ $0[stored.id] === session }) else {
            return session.restoreFailed(.goingAway, reason: "the session was removed")
          }
          switch outcome {
          case .finished where catchUp.failure == nil:
            session.restored(catchUp.result, running: running)
            logger.info("session \(stored.id) restored at tick \(catchUp.target)")
          case .finished:
            unrestorable(session, reason: catchUp.failure ?? "")
          case .refused(let reason):
            unrestorable(session, reason: reason)
          case .cancelled:
            // NB: the scheduler stops only when the server does.
            break
          }
        }))
    return session
  }

  /// Drops a session whose log could not be replayed: its joiners are told, the store keeps it.
  private func unrestorable(_ session: LiveSession, reason: String) {
    let removed = live.withLock { live -> Bool in
      guard live[session.id] === session else { return false }
      live[session.id] = nil
      return true
    }
    guard removed else { return }
    quota.release(session.id)
    inputLog.forget(session.id)
    (journal as? StorageJournal)?.release(sessionID: session.id)
    session.restoreFailed(.internalError, reason: "the session could not be restored")
    logger.error("cannot restore session \(session.id): \(reason)")
  }
}
