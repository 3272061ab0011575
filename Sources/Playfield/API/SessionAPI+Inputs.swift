import Dispatch
import HTTP
import JSON
import Server
import Storage

extension SessionAPI {
  /// Most inputs in one page of `GET /api/sessions/ID/inputs`.
  static let inputsPage = 10_000

  /// `GET /api/sessions/ID/inputs?after=TICK`: the logged inputs, by tick, oldest first. It
  /// names who sent what (the painters of a canvas), so it needs the session's control token.
  func inputs(_ request: Request, id: SessionID) -> Reply {
    let id = id.description
    guard let journal = registry.journal as? StorageJournal else {
      return .response(APIError(.serviceUnavailable, "the input log needs the database").response)
    }
    guard let token = Self.token(in: request) else {
      var error = APIError(.unauthorized, "the input log needs the session's token")
      error.headers.set("WWW-Authenticate", "Bearer")
      return .response(error.response)
    }
    var after: Int64 = 0
    do {
      let query = try QueryParameters(request.query)
      try query.requireDistinctNames()
      if let text = query["after"] {
        guard let value = Int64(text), value >= 0 else {
          return .response(
            APIError(.badRequest, "after must be a tick, 0 or more", field: "after").response)
        }
        after = value
      }
    } catch {
      return .response(error.response)
    }
    let pending = PendingResponse()
    DispatchQueue.global().async { [after] in
      _ = journal.writer.flush(timeout: 5)
      do {
        guard let stored = try journal.store.session(id: id) else {
          return pending.succeed(APIError(.notFound, "no stored session \(id)").response)
        }
        guard TokenHash.matches(token: token, storedHash: stored.tokenHash) else {
          return pending.succeed(
            APIError(.forbidden, "the token does not control this session").response)
        }
        let logged = try journal.store.inputs(sessionID: id, afterTick: after)
        let page = logged.prefix(Self.inputsPage)
        let items: [JSONValue] = page.map { input in
          .object([
            "tick": .number(Double(input.tick)),
            "input": (try? JSONValue.parse(input.input)) ?? .null,
          ])
        }
        pending.succeed(
          .json(
            .object([
              "id": .string(id), "inputs": .array(items),
              "more": .bool(logged.count > page.count),
            ])))
      } catch {
        pending.succeed(APIError(storage: error).response)
      }
    }
    return .later(pending)
  }
}
