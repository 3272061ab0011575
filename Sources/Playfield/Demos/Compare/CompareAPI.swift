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
  let wallClock: @Sendable () -> Double

  var routes: [Route] {
    [
      Route([.get], "/compare", [.page]) { call in
        .response(call.app.demoPage(.compare, embedded: false, request: call.request))
      },
      Route([.post], "/api/compare", [.api, .guardsState]) { call in
        .response(create(call.request, client: call.client))
      },
      Route([.get], "/ws/compare/{group}", [.guardsState]) { (call, id: SessionID) in
        socket(call.request, id: id.description, origins: call.app.origins)
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
      let id = SessionRegistry.identifier(random(16))
      let token = SessionRegistry.identifier(random(16))
      let group = CompareGroup(
        id: id, tokenHash: TokenHash.hash(token: token), client: client, request: checked,
        now: wallClock(), wake: compares.wake)
      try compares.add(group)
      let panes: [JSONValue] = zip(checked.overrides, checked.panes).enumerated().map {
        index, pane in
        .object([
          "index": .number(Double(index)), "overrides": pane.0, "config": pane.1.config,
        ])
      }
      var response = Response.json(
        .object([
          "id": .string(id), "token": .string(token), "kind": .string(checked.kind),
          "seed": .number(Double(checked.seed)), "config": checked.base,
          "end": .number(Double(checked.end)), "panes": .array(panes),
          "urls": .object([
            "socket": .string("/ws/compare/\(id)"),
            "page": .string("/compare?group=\(id)#token=\(token)"),
          ]),
        ]), status: .created)
      response.headers.set("Cache-Control", "no-store")
      return response
    } catch {
      return error.response
    }
  }

  func socket(_ request: Request, id: String, origins: OriginPolicy) -> Reply {
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
    switch WebSocketHandshake.evaluate(request, options: Application.sessionOptions) {
    case .accept(let accepted):
      return .webSocket(
        accepted,
        CompareSocketHandler(group: group, wallClock: wallClock))
    case .reject(let response):
      return .response(response)
    }
  }
}
