import Dispatch
import HTTP
import JSON
import Server
import Storage

extension SessionAPI {
  /// `GET /api/sessions/ID/state`: the exact tick and state hash, read on the game loop.
  func state(_ request: Request, id: String) -> Reply {
    guard request.method == .get || request.method == .head else {
      return .response(methodNotAllowed("GET, HEAD"))
    }
    guard let session = registry.session(id) else {
      return .response(APIError(.notFound, "no session \(id)").response)
    }
    let pending = PendingResponse()
    let queued = session.send(
      .inspect { state in
        pending.succeed(
          .json(
            .object([
              "id": .string(id), "tick": .number(Double(state.tick)),
              "stateHash": .string(Self.hex(state.stateHash)), "running": .bool(state.running),
            ])))
      })
    guard queued else {
      return .response(APIError(.serviceUnavailable, "the session is busy; try again").response)
    }
    return .later(pending)
  }

  /// `GET /api/sessions/ID/replay?tick=N`: replays the stored session from tick 0 (its config,
  /// seed and logged inputs) to tick N and reports that state's hash.
  func replayState(_ request: Request, id: String) -> Reply {
    guard request.method == .get || request.method == .head else {
      return .response(methodNotAllowed("GET, HEAD"))
    }
    guard let journal = registry.journal as? StorageJournal else {
      return .response(APIError(.serviceUnavailable, "replays need the database").response)
    }
    let tick: UInt64
    do {
      let query = try QueryParameters(request.query)
      guard let text = query["tick"], let value = UInt64(text), value <= 100_000_000 else {
        throw APIError(.badRequest, "tick must be an integer from 0 to 100000000", field: "tick")
      }
      tick = value
    } catch let error as APIError {
      return .response(error.response)
    } catch {
      return .response(APIError(.badRequest, "\(error)").response)
    }
    let pending = PendingResponse()
    DispatchQueue.global().async {
      pending.succeed(Self.replayHash(journal: journal, id: id, tick: tick))
    }
    return .later(pending)
  }

  private static func replayHash(journal: StorageJournal, id: String, tick: UInt64) -> Response {
    _ = journal.writer.flush(timeout: 5)
    do {
      guard let stored = try journal.store.session(id: id) else {
        return APIError(.notFound, "no stored session \(id)").response
      }
      guard tick <= UInt64(max(0, stored.tick)) else {
        return APIError(
          .badRequest, "tick must not pass the session's stored tick \(stored.tick)", field: "tick"
        ).response
      }
      let model = try SessionRestorer.replayFromStart(stored, through: tick, store: journal.store)
      return .json(
        .object([
          "id": .string(id), "tick": .number(Double(model.tick)),
          "stateHash": .string(hex(model.stateHash)),
        ]))
    } catch {
      return APIError(.serviceUnavailable, "the replay failed: \(error)").response
    }
  }

  /// A 64-bit hash as 16 hex digits (JSON numbers cannot hold 64 bits exactly).
  static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
