import JSON
import Logging
import Simulation
import Storage

/// Brings stored sessions back at start: the latest snapshot, then the logged inputs replayed
/// tick by tick up to where the session was.
enum SessionRestorer {
  /// Restores every session that was not ended; returns how many came back. Nobody watches
  /// them yet: a running one comes back paused for lack of spectators, and costs nothing until
  /// someone joins (which resumes it where it was).
  static func restore(
    from store: any SessionStore, into registry: SessionRegistry, journal: SessionJournal,
    logger: Logger
  ) -> Int {
    let stored: [StoredSession]
    do {
      stored = try store.listSessions()
    } catch {
      logger.error("cannot list stored sessions: \(error)")
      return 0
    }
    var restored = 0
    for session in stored where session.status != .ended {
      do {
        let model = try rebuild(session, from: store)
        // NB: an on-demand session comes back on demand, never running on the tick.
        let onDemand = SessionClock(stored: session.clock) == .onDemand
        registry.adopt(
          LiveSession(
            id: session.id, model: model, seed: session.seed, tokenHash: session.tokenHash,
            createdAt: session.createdAt, running: session.status == .running && !onDemand,
            journal: journal, idlePause: registry.limits.idlePause, clock: registry.monotonicClock,
            seatGeneration: session.seatGeneration, paused: true, wake: registry.wake,
            onDemand: onDemand ? registry.onDemand : nil))
        restored += 1
      } catch {
        logger.error("cannot restore session \(session.id): \(error)")
      }
    }
    return restored
  }

  /// The model of a stored session at its last stored tick (or its last logged input).
  static func rebuild(_ session: StoredSession, from store: some SessionStore) throws
    -> any Simulation
  {
    guard let type = Demo.model(ofKind: session.kind) else {
      throw SimulationError(field: "kind", message: "unknown kind \(session.kind)")
    }
    let point = try store.resumePoint(sessionID: session.id)
    var model: any Simulation
    if let snapshot = point.snapshot {
      model = try type.init(snapshot: snapshot.state)
    } else {
      model = try type.init(config: try JSONValue.parse(session.config), seed: session.seed)
    }
    let target = UInt64(max(session.tick, point.inputs.last?.tick ?? 0))
    try replay(&model, inputs: point.inputs, through: target)
    return model
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

  /// Steps `model` to tick `target`, applying each logged input in the step that produced its
  /// tick, in order.
  static func replay(_ model: inout any Simulation, inputs: [LoggedInput], through target: UInt64)
    throws
  {
    var next = inputs.drop { UInt64($0.tick) <= model.tick }
    while model.tick < target {
      let tick = model.tick + 1
      var batch: [JSONValue] = []
      while let input = next.first, UInt64(input.tick) == tick {
        batch.append(try JSONValue.parse(input.input))
        next = next.dropFirst()
      }
      _ = model.step(parsing: batch)
    }
  }
}
