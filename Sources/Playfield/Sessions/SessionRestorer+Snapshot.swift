import JSON
import Simulation
import Storage

extension SessionRestorer {
  /// The stored session's model at `tick`, from the nearest snapshot at or before it (or from
  /// tick 0 without one), and the tick it started from.
  static func rebuild(_ session: StoredSession, at tick: UInt64, store: some SessionStore)
    throws -> (any Simulation, from: UInt64)
  {
    guard let type = Simulations.named(session.kind) else {
      throw SimulationError(field: "kind", message: "unknown kind \(session.kind)")
    }
    let point = try store.resumePoint(sessionID: session.id, atOrBefore: Int64(tick))
    var model: any Simulation
    if let snapshot = point.snapshot {
      model = try type.init(snapshot: snapshot.state)
    } else {
      model = try type.init(config: try JSONValue.parse(session.config), seed: session.seed)
    }
    let from = model.tick
    try replay(&model, inputs: point.inputs, through: tick)
    return (model, from)
  }
}
