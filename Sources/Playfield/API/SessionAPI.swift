import HTTP
import JSON
import Simulation
import Storage

/// `/api/sessions` and `/api/sessions/ID`: create, list, show and delete sessions.
struct SessionAPI: Sendable {
  let registry: SessionRegistry
  /// Where replay states step their models, charged to the client who asked.
  var scheduler = StepScheduler()
  /// Replay-state answers, kept, and the fair places where they are worked out.
  var replayStates = ReplayStates()

  /// `GET /api/sessions`: the listed sessions, newest first.
  func list() -> Response {
    let now = registry.wallClock()
    if let journal = registry.journal as? StorageJournal, journal.leases != nil {
      return APIError.answer(with: journal.store) { store in
        let sessions = try everyProcessesSessions(store, now: now)
        return .json(
          .object(["sessions": .array(sessions), "count": .number(Double(sessions.count))]))
      }
    }
    let sessions = registry.listed.map { $0.summary.json(now: now) }
    return .json(.object(["sessions": .array(sessions), "count": .number(Double(sessions.count))]))
  }

  /// On a shared store: every process's sessions, newest first, as the store has them (those
  /// live here as this process sees them).
  private func everyProcessesSessions(_ store: any SessionStore, now: Double) throws
    -> [JSONValue]
  {
    let live = Dictionary(uniqueKeysWithValues: registry.listed.map { ($0.id, $0.summary) })
    return try store.listSessions(status: nil).filter { $0.status != .ended }.map { stored in
      let summary =
        live[stored.id]
        ?? SessionSummary(
          id: stored.id, kind: stored.kind, running: stored.status == .running,
          tick: UInt64(max(0, stored.tick)), spectators: 0, controllers: 0,
          createdAt: stored.createdAt, updatedAt: stored.updatedAt,
          config: (try? JSONValue.parse(stored.config)) ?? .null)
      return summary.json(now: now)
    }
  }

  /// `POST /api/sessions`: a new session for `client`.
  func create(_ request: Request, client: ClientKey) -> Response {
    do {
      return try make(request, client: client)
    } catch {
      return error.response
    }
  }

  /// `GET /api/sessions/ID`.
  func show(_ id: SessionID) -> Response {
    let session: LiveSession
    do {
      session = try registry.lookup(id.description)
    } catch {
      return error.response
    }
    return .json(session.summary.json(now: registry.wallClock()))
  }

  /// `DELETE /api/sessions/ID` with the token: ends it.
  func delete(_ request: Request, id: SessionID) -> Response {
    do {
      try registry.delete(id.description, token: Self.token(in: request))
      return Response(status: .noContent, headers: ["Cache-Control": "no-store"])
    } catch {
      return error.response
    }
  }

  /// `POST /api/sessions/ID/links` with the control token: new seat (drawing) links; the old
  /// ones are refused from now on and the guests who joined with them are disconnected.
  func renewLinks(_ request: Request, id: SessionID) -> Response {
    let session: LiveSession
    do {
      session = try registry.lookup(id.description)
    } catch {
      return error.response
    }
    guard let token = Self.token(in: request) else {
      var error = APIError(.unauthorized, "new links need the session's token")
      error.headers.set("WWW-Authenticate", "Bearer")
      return error.response
    }
    guard TokenHash.matches(token: token, storedHash: session.tokenHash) else {
      return APIError(.forbidden, "the token does not control this session").response
    }
    guard !session.type.seats.isEmpty else {
      return APIError(.notFound, "a \(session.kind) session has no guest links").response
    }
    let tokens: [(seat: Seat, token: String)]
    do {
      tokens = try session.renewSeatLinks()
    } catch {
      var refusal = APIError(
        .serviceUnavailable,
        "the new links could not be stored (\(APIError.told(error))); the old ones still work")
      refusal.headers.set("Retry-After", "5")
      return refusal.response
    }
    var urls: [String: JSONValue] = [:]
    var tokenFields: [String: JSONValue] = [:]
    for (seat, guest) in tokens {
      urls[seat.name] = .string("/demos/\(session.kind)?session=\(session.id)#token=\(guest)")
      tokenFields[seat.name] = .string(guest)
    }
    var response = Response.json(.object(["urls": .object(urls), "tokens": .object(tokenFields)]))
    response.headers.set("Cache-Control", "no-store")
    return response
  }

  private func make(_ request: Request, client: ClientKey) throws(APIError) -> Response {
    let body = try JSONBody(request, example: #"{"kind": NAME, "config": {...}}"#)
    try body.allowOnly(["kind", "config", "seed", "clock"])
    let kind = try body.string("kind")
    let config = body.fields["config"] ?? .object([:])
    guard case .object = config else {
      throw APIError(.badRequest, "config must be an object", field: "config")
    }
    let seed = try Self.seed(in: body)
    guard let clock = SessionClock.parse(body.fields["clock"]) else {
      throw APIError(
        .badRequest, "clock must be \"realtime\" (the default) or \"on-demand\"", field: "clock")
    }
    let (session, token, warning) = try registry.create(
      kind: kind, config: config, seed: seed, client: client, clock: clock)
    var json = session.summary.json(now: registry.wallClock())
    if case .object(var object) = json {
      object["token"] = .string(token)
      object["clock"] = .string(clock.rawValue)
      var urls = session.summary.urls
      // NB: tokens go after `#`: a fragment is never sent to a server, so it stays out of
      // request lines, logs and Referer (the page reads it and drops it from the address).
      urls["control"] = .string("/demos/\(kind)?session=\(session.id)#token=\(token)")
      for (seat, guest) in session.seatTokens {
        urls[seat.name] = .string("/demos/\(kind)?session=\(session.id)#token=\(guest)")
      }
      object["urls"] = .object(urls)
      object["durable"] = .bool(warning == nil)
      if let warning { object["warning"] = .string(warning) }
      json = .object(object)
    }
    var response = Response.json(json, status: .created)
    response.headers.set("Location", "/api/sessions/\(session.id)")
    return response
  }

  /// Most seed a client may choose: every integer up to it is exact in a JSON number.
  static let maxSeed = 9_007_199_254_740_991

  /// The optional `seed` field: an integer from 0 to `maxSeed`, or nil for a random seed.
  static func seed(in body: JSONBody) throws(APIError) -> UInt64? {
    guard let value = body.fields["seed"] else { return nil }
    guard let seed = value.intValue, (0...maxSeed).contains(seed) else {
      throw APIError(.badRequest, "seed must be an integer from 0 to \(maxSeed)", field: "seed")
    }
    return UInt64(seed)
  }

  /// The control token from `Authorization: Bearer T` or `?token=T`.
  static func token(in request: Request) -> String? {
    if let authorization = request.headers["Authorization"] {
      let parts = authorization.split(separator: " ", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "bearer" { return String(parts[1]) }
    }
    return (try? QueryParameters(request.query))?["token"]
  }
}
