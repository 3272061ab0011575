import HTTP
import JSON
import Server
import Storage
import WebSocket

/// `POST /api/compare` makes a compare group, `GET /ws/compare/ID?token=T` plays it, and
/// `GET /compare` is its page (docs/compare.md).
struct CompareAPI: Sendable {
  let compares: CompareRegistry
  let random: @Sendable (Int) -> [UInt8]
  /// Mints a group's id from random bytes: this process's shard first, as a session's
  /// (`SessionRegistry.routedIdentifier`), so that nginx sends `/ws/compare/ID` here.
  let identifier: @Sendable ([UInt8]) -> String
  let wallClock: @Sendable () -> Double
  /// Where recordings are read; nil without a database.
  let journal: StorageJournal?
  /// Inputs a recording pane reads from its log at a time (`--replay-chunk-inputs`).
  let chunkSize: Int
  /// Where the panes' logs are read as they play.
  let storeCalls: StoreCalls

  var routes: [Route] {
    [
      Route([.get], "/compare", [.page]) { call in
        .response(call.app.demoPage(.compare, embedded: false, request: call.request))
      },
      // NB: on a store worker (with a database), where recordings are read.
      Route([.post], "/api/compare", [.api, .guardsState, .store], storeCost: StoreCalls.costly) {
        call in
        .response(create(call.request, client: call.client))
      },
      Route([.get], "/ws/compare/{group}", [.guardsState]) { (call, id: SessionID) in
        socket(
          call.request, id: id.description, origins: call.app.origins,
          options: call.app.boundedSessionOptions)
      },
    ]
  }

  func create(_ request: Request, client: ClientKey) -> Response {
    do {
      let body = try JSONBody(
        request, example: #"{"kind": NAME, "seed": N, "config": {...}, "variants": [{...}, {...}]}"#
      )
      let checked = try CompareRequest(body) {
        random(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & UInt64(SessionAPI.maxSeed)
      }
      if !checked.recordings.isEmpty && journal == nil {
        throw APIError(.serviceUnavailable, "recordings need the database")
      }
      let (panes, end, ambient) = try checked.panes { [journal, chunkSize, storeCalls] id in
        guard let journal else { return nil }
        return try StoredRecording.read(journal: journal, id: id, chunkSize: chunkSize)?
          .readingOn(storeCalls, for: client)
      }
      let id = identifier(random(16))
      let token = SessionRegistry.identifier(random(16))
      let group = CompareGroup(
        id: id, tokenHash: TokenHash.hash(token: token), client: client, kind: checked.kind,
        panes: panes, end: end, readouts: checked.readouts, ambient: ambient, now: wallClock(),
        wake: compares.wake)
      try compares.add(group)
      let described: [JSONValue] = zip(checked.overrides, panes).enumerated().map {
        index, pane in
        Self.describe(pane.1, overrides: pane.0, extra: ["index": .number(Double(index))])
      }
      let readouts = checked.readouts ?? CompareMachine<WebSocket>.readoutNames(of: panes[0].model)
      var response = Response.json(
        .object([
          "id": .string(id), "token": .string(token), "kind": .string(checked.kind),
          "seed": .number(Double(checked.seed)), "config": checked.base,
          "end": .number(Double(end)), "panes": .array(described),
          "ambient": ambient.map { ambient in
            Self.describe(
              ambient.pane, overrides: checked.ambient?.given ?? .null,
              extra: ["end": .number(Double(ambient.end))])
          } ?? .null,
          "readouts": .array(readouts.map { .string($0) }),
          "urls": .object([
            "socket": .string("/ws/compare/\(id)"),
            "page": .string("/compare?group=\(id)#token=\(token)"),
          ]),
        ]), status: .created)
      response.headers.set("Cache-Control", "no-store")
      return response
    } catch let error as APIError {
      return error.response
    } catch {
      return APIError(.internalServerError, "the group cannot start: \(error)").response
    }
  }

  /// A pane in the `201`: its overrides, normalized config, offset and recording, and `extra`.
  private static func describe(
    _ pane: ComparePane, overrides: JSONValue, extra: [String: JSONValue]
  ) -> JSONValue {
    .object(
      extra.merging([
        "overrides": overrides, "config": pane.model.config,
        "offset": .number(Double(pane.offset)),
        "recording": pane.recording.map { recording in
          .object([
            "session": .string(recording.session),
            "first": .number(Double(recording.first)),
            "last": .number(Double(recording.last)),
          ])
        } ?? .null,
      ]) { $1 })
  }

  /// `options`: the session sockets' (`Application.boundedSessionOptions`): a viewer's commands
  /// are a few dozen bytes, parsed whole on the event loop, so a message over
  /// `--session-message-bytes` is refused by its frame's header (close 1009), unread.
  func socket(
    _ request: Request, id: String, origins: OriginPolicy, options: WebSocketHandshake.Options
  ) -> Reply {
    if let refusal = origins.check(request) { return .response(refusal) }
    guard let group = compares.group(id) else {
      return .response(APIError(.notFound, "no compare group \(id)").response)
    }
    guard let token = SessionAPI.token(in: request) else {
      return .response(
        APIError(.unauthorized, "a compare group's socket needs its token (?token=T)").response)
    }
    guard TokenHash.matches(token: token, storedHash: group.tokenHash) else {
      return .response(APIError(.forbidden, "the token does not open this compare group").response)
    }
    switch WebSocketHandshake.evaluate(request, options: options) {
    case .accept(let accepted):
      return .webSocket(
        accepted,
        CompareSocketHandler(group: group, wallClock: wallClock))
    case .reject(let response):
      return .response(response)
    }
  }
}
