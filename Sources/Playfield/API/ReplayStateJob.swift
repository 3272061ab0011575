import JSON
import Simulation
import Storage

/// One `GET /api/sessions/ID/replay?tick=N` worked out as a `StepJob`: the model from its
/// starting point (`SessionRestorer.start`) stepped to tick N a slice at a time, charged to
/// the client who asked.
///
/// Only the scheduler's thread touches it, one slice at a time.
final class ReplayStateJob: @unchecked Sendable {
  let key: ReplayStates.Key
  private var model: any Simulation
  private var reader: InputLogReader
  /// The tick it started from (a snapshot's, or 0).
  let from: UInt64
  /// The answer once done: the state's hash, or why it failed.
  private(set) var answer: Result<JSONValue, APIError>?

  init(key: ReplayStates.Key, model: any Simulation, reader: InputLogReader) {
    self.key = key
    self.model = model
    self.reader = reader
    self.from = model.tick
  }

  /// Steps toward the tick while the slice allows; `.done` with `answer` set at the tick or on
  /// an error.
  func work(_ slice: inout StepSlice) -> StepJob.Progress {
    do {
      while model.tick < key.tick, slice.mayStep() {
        let inputs = try reader.inputs(at: Int64(model.tick + 1)) ?? []
        _ = model.step(parsing: try inputs.map { try JSONValue.parse($0.input) })
      }
    } catch {
      answer = .failure(APIError(.serviceUnavailable, "the replay failed: \(APIError.told(error))"))
      return .done
    }
    guard model.tick >= key.tick else { return .more }
    answer = .success(
      .object([
        "id": .string(key.session), "tick": .number(Double(model.tick)),
        "stateHash": .string(SessionAPI.hex(model.stateHash)), "from": .number(Double(from)),
      ]))
    return .done
  }
}
