import JSON
import Logging
import Simulation
import Storage

/// Brings stored sessions back at start: the latest snapshot, then the logged inputs replayed
/// tick by tick up to where the session was.
enum SessionRestorer {
  /// Restores the sessions that were not ended, newest first, as far as the limits allow:
  /// each is charged to its owner's live places (`SessionRegistry.admitLive`, without parking
  /// any), and those past them stay parked, back when asked for. Returns how many came back
  /// live and how many stay parked. Each is adopted
  /// at once from its latest snapshot, and the rest of its log is replayed as a job of the step
  /// scheduler (`SessionRegistry.restore`), so that a heavy session's replay never holds up the
  /// start or the ticks. Nobody watches them yet: a running one comes back paused for lack of
  /// spectators, and costs nothing until someone joins (which resumes it where it was).
  static func restore(
    from store: any SessionStore, into registry: SessionRegistry, journal: SessionJournal,
    logger: Logger
  ) -> (live: Int, parked: Int) {
    let stored: [StoredSession]
    do {
      stored = try store.listSessions()
    } catch {
      logger.error("cannot list stored sessions: \(error)")
      return (0, 0)
    }
    var restored = 0
    var parked = 0
    // NB: listed newest first, so the most recently used come back live.
    for session in stored where session.status != .ended {
      let owner = SessionRegistry.owner(of: session)
      do {
        try registry.admitLive(
          session.id, client: owner, onDemand: SessionClock(stored: session.clock) == .onDemand,
          mayPark: false)
      } catch {
        registry.keepParked(session, owner: owner)
        parked += 1
        continue
      }
      do {
        try registry.restore(session, store: store, journal: journal, owner: owner)
        restored += 1
      } catch {
        registry.quota.release(session.id)
        logger.error("cannot restore session \(session.id): \(error)")
      }
    }
    return (restored, parked)
  }

  /// Inputs read from the log at a time when replaying to a tick.
  static let chunkSize = 1024

  /// Steps `model` to tick `target` with the inputs `reader` yields for each step (a reader that
  /// waits for the store, so it always yields).
  static func replay(
    _ model: inout any Simulation, reading reader: inout InputLogReader, through target: UInt64
  ) throws {
    while model.tick < target {
      let inputs = try reader.inputs(at: Int64(model.tick + 1)) ?? []
      _ = model.step(parsing: try inputs.map { try JSONValue.parse($0.input) })
    }
  }
}
