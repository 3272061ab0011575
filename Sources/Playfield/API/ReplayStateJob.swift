import JSON
import Simulation
import Storage
import Synchronization

/// One `GET /api/sessions/ID/replay?tick=N` worked out as a `StepJob`: the model from its
/// starting point (`SessionRestorer.start`) stepped to tick N a slice at a time, charged to
/// the client who asked.
///
/// The slices step only through the chunk of the log in hand: when the next one is needed the
/// step job ends without an answer, and `readNextChunk()` reads it off the scheduler's thread
/// (the store may wait: PostgreSQL frozen) before a new step job goes on. One thread at a time
/// touches it: the scheduler's for a slice, then the reading thread, handed over in turn.
final class ReplayStateJob: @unchecked Sendable {
  let key: ReplayStates.Key
  private var model: any Simulation
  private var reader: InputLogReader
  /// The next tick's inputs, read by `readNextChunk()`.
  private var ahead: [LoggedInput]?
  /// The step job under way, which the asker's leaving cancels.
  let stepping = Mutex<StepJob?>(nil)
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
  /// an error, and `.done` without one when the log's next chunk must be read first.
  func work(_ slice: inout StepSlice) -> StepJob.Progress {
    guard answer == nil else { return .done }
    do {
      while model.tick < key.tick, slice.mayStep() {
        let tick = Int64(model.tick + 1)
        let inputs: [LoggedInput]
        if let read = ahead {
          inputs = read
          ahead = nil
        } else if let inHand = try reader.inputs(at: tick, mayRead: false) {
          inputs = inHand
        } else {
          return .done
        }
        _ = model.step(parsing: try inputs.map { try JSONValue.parse($0.input) })
      }
    } catch {
      fail(error)
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

  /// Reads the next tick's inputs from the store, reading its next chunk: never on the
  /// scheduler's thread.
  func readNextChunk() {
    do {
      ahead = try reader.inputs(at: Int64(model.tick + 1)) ?? []
    } catch {
      fail(error)
    }
  }

  private func fail(_ error: any Error) {
    answer = .failure(APIError(.serviceUnavailable, "the replay failed: \(APIError.told(error))"))
  }
}
