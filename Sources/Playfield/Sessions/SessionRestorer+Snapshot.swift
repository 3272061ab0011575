import JSON
import Simulation
import Storage

extension SessionRestorer {
  /// The stored session's model at `tick`, from the nearest snapshot at or before it (or from
  /// tick 0 without one) with the log read a chunk at a time, and the tick it started from.
  static func rebuild(_ session: StoredSession, at tick: UInt64, store: any SessionStore)
    throws -> (any Simulation, from: UInt64)
  {
    var (model, reader) = try start(session, at: tick, fromStart: false, store: store)
    let from = model.tick
    try replay(&model, reading: &reader, through: tick)
    return (model, from)
  }

  /// Why a state before its log's start (or from tick 0) of a session whose log was compacted
  /// cannot be rebuilt: its log starts at its earliest kept snapshot.
  static func compacted(_ session: StoredSession) -> SimulationError {
    SimulationError(
      field: "tick",
      message: "session \(session.id) keeps its log only from tick \(session.logStart) (an "
        + "on-demand session's log is compacted behind its snapshots), so no state before it "
        + "can be rebuilt")
  }

  /// Where a rebuild of the stored session at `tick` starts: the nearest snapshot at or before
  /// it (or tick 0 without one, or always with `fromStart`), and a reader of the inputs after.
  /// Throws when that would be tick 0 of a session whose log starts later (`compacted`).
  static func start(
    _ session: StoredSession, at tick: UInt64, fromStart: Bool, store: any SessionStore
  ) throws -> (any Simulation, InputLogReader) {
    guard let type = Demo.model(ofKind: session.kind) else {
      throw SimulationError(field: "kind", message: "unknown kind \(session.kind)")
    }
    var model: any Simulation
    if !fromStart, let snapshot = try store.snapshot(sessionID: session.id, atOrBefore: Int64(tick))
    {
      model = try type.init(snapshot: snapshot.state)
    } else if session.logStart > 0 {
      throw compacted(session)
    } else {
      model = try type.init(config: try JSONValue.parse(session.config), seed: session.seed)
    }
    let reader = InputLogReader(
      store: store, sessionID: session.id, chunkSize: chunkSize, after: Int64(model.tick),
      compacting: session.clock == SessionClock.onDemand.rawValue)
    return (model, reader)
  }
}
