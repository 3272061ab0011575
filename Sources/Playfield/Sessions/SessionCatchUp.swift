import JSON
import Simulation
import Storage

/// A stored session brought back (at start, or from parking) in bounded slices: its model from
/// the latest snapshot (or from its config and seed) stepped with the logged inputs to where
/// the session was, as a `StepJob` (label `restore`) below the realtime ticks. The
/// `LiveSession` stands in with the starting model meanwhile (`LiveSession.isRestoring`).
///
/// Only the scheduler's thread touches it, one slice at a time.
final class SessionCatchUp: @unchecked Sendable {
  /// The model it started from: the snapshot's, or the one made from the config.
  let start: any Simulation
  /// The tick the session was stored at (or its last logged input's).
  let target: UInt64
  private var model: any Simulation
  private var inputs: ArraySlice<LoggedInput>
  /// Why the rebuild failed (an input that no longer parses), once it has.
  private(set) var failure: String?

  /// Reads the session's latest snapshot and the inputs after it; throws when the stored
  /// session no longer loads.
  init(_ session: StoredSession, from store: some SessionStore) throws {
    guard let type = Demo.model(ofKind: session.kind) else {
      throw SimulationError(field: "kind", message: "unknown kind \(session.kind)")
    }
    let point = try store.resumePoint(sessionID: session.id)
    let model: any Simulation =
      if let snapshot = point.snapshot {
        try type.init(snapshot: snapshot.state)
      } else if session.logStart > 0 {
        throw SessionRestorer.compacted(session)
      } else {
        try type.init(config: try JSONValue.parse(session.config), seed: session.seed)
      }
    self.start = model
    self.model = model
    self.target = UInt64(max(session.tick, point.inputs.last?.tick ?? 0))
    self.inputs = point.inputs.drop { UInt64($0.tick) <= model.tick }
  }

  /// Whether any step is left to replay.
  var hasWork: Bool { model.tick < target }

  /// The rebuilt model (at `target` once the job finished without `failure`).
  var result: any Simulation { model }

  /// Steps toward `target` while the slice allows, each logged input in the step that
  /// produced its tick, in order; `.done` at the target or on a failure.
  func work(_ slice: inout StepSlice) -> StepJob.Progress {
    do {
      while model.tick < target, slice.mayStep() {
        let tick = model.tick + 1
        var batch: [JSONValue] = []
        while let input = inputs.first, UInt64(input.tick) == tick {
          batch.append(try JSONValue.parse(input.input))
          inputs = inputs.dropFirst()
        }
        _ = model.step(parsing: batch)
      }
    } catch {
      failure = "\(error)"
      return .done
    }
    return model.tick < target ? .more : .done
  }
}
