import HTTP
import JSON

/// `/api/sessions` and `/api/sessions/ID`: create, list, show and delete sessions.
struct SessionAPI: Sendable {
  let registry: SessionRegistry

  /// Largest request body, in bytes.
  static let maxBody = 64 * 1024

  /// `/api/sessions`: POST creates, GET lists.
  func collection(_ request: Request) -> Response {
    switch request.method {
    case .get, .head:
      let now = registry.wallClock()
      let sessions = registry.listed.map { $0.summary.json(now: now) }
      return .json(
        .object(["sessions": .array(sessions), "count": .number(Double(sessions.count))]))
    case .post:
      do {
        return try create(request)
      } catch {
        return error.response
      }
    default:
      return methodNotAllowed("GET, HEAD, POST")
    }
  }

  /// `/api/sessions/ID`: GET shows, DELETE (with the token) ends it.
  func member(_ request: Request, id: String) -> Response {
    switch request.method {
    case .get, .head:
      guard let session = registry.session(id) else {
        return APIError(.notFound, "no session \(id)").response
      }
      return .json(session.summary.json(now: registry.wallClock()))
    case .delete:
      do {
        try registry.delete(id, token: Self.token(in: request))
        return Response(status: .noContent, headers: ["Cache-Control": "no-store"])
      } catch {
        return error.response
      }
    default:
      return methodNotAllowed("GET, HEAD, DELETE")
    }
  }

  private func create(_ request: Request) throws(APIError) -> Response {
    guard request.declaresBody else {
      throw APIError(
        .lengthRequired, "send {\"kind\": NAME, \"config\": {...}} with a Content-Length")
    }
    if let type = request.headers["Content-Type"], !type.lowercased().hasPrefix("application/json")
    {
      throw APIError(.unsupportedMediaType, "send the session as application/json")
    }
    guard request.body.count <= Self.maxBody else {
      throw APIError(.contentTooLarge, "the body is larger than \(Self.maxBody) bytes")
    }
    guard !request.body.isEmpty else {
      throw APIError(.badRequest, "send {\"kind\": NAME, \"config\": {...}}")
    }
    let body: JSONValue
    do {
      body = try JSONValue.parse(request.body, maxDepth: 32)
    } catch {
      throw APIError(.badRequest, "the body is not valid JSON: \(error)")
    }
    guard case .object(let fields) = body else {
      throw APIError(.badRequest, "the body must be a JSON object")
    }
    if let unknown = fields.keys.sorted().first(where: { $0 != "kind" && $0 != "config" }) {
      throw APIError(.badRequest, "unknown field \(unknown); send kind and config", field: unknown)
    }
    guard let kindValue = fields["kind"] else {
      throw APIError(.badRequest, "kind is required", field: "kind")
    }
    guard let kind = kindValue.stringValue else {
      throw APIError(.badRequest, "kind must be a string", field: "kind")
    }
    let config = fields["config"] ?? .object([:])
    guard case .object = config else {
      throw APIError(.badRequest, "config must be an object", field: "config")
    }
    let (session, token, warning) = try registry.create(kind: kind, config: config)
    var json = session.summary.json(now: registry.wallClock())
    if case .object(var object) = json {
      object["token"] = .string(token)
      var urls = session.summary.urls
      urls["control"] = .string("/demos/\(kind)?session=\(session.id)&token=\(token)")
      object["urls"] = .object(urls)
      object["durable"] = .bool(warning == nil)
      if let warning { object["warning"] = .string(warning) }
      json = .object(object)
    }
    var response = Response.json(json, status: .created)
    response.headers.set("Location", "/api/sessions/\(session.id)")
    return response
  }

  /// The control token from `Authorization: Bearer T` or `?token=T`.
  static func token(in request: Request) -> String? {
    if let authorization = request.headers["Authorization"] {
      let parts = authorization.split(separator: " ", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "bearer" { return String(parts[1]) }
    }
    return (try? QueryParameters(request.query))?["token"]
  }

  func methodNotAllowed(_ allowed: String) -> Response {
    var error = APIError(.methodNotAllowed, "use \(allowed)")
    error.headers.set("Allow", allowed)
    return error.response
  }
}
