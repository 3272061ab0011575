import HTTP
import Server
import Testing

@testable import Playfield

/// The table's rules, on a small table: patterns, first match, 404, 405 with `Allow`, HEAD,
/// OPTIONS and CORS preflights.
@Suite struct RouteTableTests {
  static func answer(_ text: String) -> Route.Handler {
    { _ in .response(Response(status: .ok, body: Array(text.utf8))) }
  }

  let table = RouteTable([
    Route([.get], "/") { call in .response(Response(status: .ok, body: Array("root".utf8))) },
    Route([.get], "/things/{thing}", [.crossOrigin]) { (_, id: SessionID) in
      .response(Response(status: .ok, body: Array("get \(id)".utf8)))
    },
    Route([.delete], "/things/{thing}", [.api]) { (_, id: SessionID) in
      .response(Response(status: .noContent, body: Array("delete \(id)".utf8)))
    },
    Route([.post], "/things/{thing}/poke") { (_, id: SessionID) in
      .response(Response(status: .ok, body: Array("poke \(id)".utf8)))
    },
    Route(
      [.get], "/{path...}", example: ["a"],
      parse: { segments, _ in segments.joined(separator: "/") == "real/file" ? "file" : nil },
      handle: { _, name in .response(Response(status: .ok, body: Array(name.utf8))) }),
  ])

  func resolve(_ method: HTTPMethod, _ path: String) -> RouteTable.Resolution {
    let request = Request(method: method, target: path, headers: ["Origin": "http://o"])
    return table.resolve(request, segments: try! URLPath.segments(request.path))
  }

  func body(_ resolution: RouteTable.Resolution) -> String? {
    guard case .handle(_, let handler) = resolution else { return nil }
    let app = try! TestApplication(database: false)
    defer { app.shutdown() }
    let call = RouteCall(
      request: Request(method: .get, target: "/"),
      context: RequestContext(remoteAddress: "127.0.0.1", serverAddress: "127.0.0.1:80"),
      app: app.application)
    guard case .response(let response) = handler(call) else { return nil }
    return String(decoding: response.body, as: UTF8.self)
  }

  @Test func patternsMatchLiteralsCapturesAndTheRest() {
    let session = PathPattern("/api/sessions/{session}/state")
    #expect(session.match(["api", "sessions", "abc", "state"]) == ["abc"])
    #expect(session.match(["api", "sessions", "abc"]) == nil)
    #expect(session.match(["api", "sessions", "abc", "state", "x"]) == nil)
    #expect(session.match(["api", "session", "abc", "state"]) == nil)
    let rest = PathPattern("/tiles/mandelbrot/{tile...}")
    #expect(rest.match(["tiles", "mandelbrot", "1", "2", "3.png"]) == ["1", "2", "3.png"])
    #expect(rest.match(["tiles", "mandelbrot"]) == nil)
    #expect(PathPattern("/").match([]) == [])
    #expect(PathPattern("/").match(["x"]) == nil)
    #expect(PathPattern("/a/b").match(["a", "b"]) == [])
    #expect(
      PathPattern("/api/spheres/{radius}/{level}").path(with: ["1", "7"]) == "/api/spheres/1/7")
  }

  @Test func theFirstRouteThatTakesTheMethodAnswers() {
    #expect(body(resolve(.get, "/")) == "root")
    #expect(body(resolve(.get, "/things/7")) == "get 7")
    #expect(body(resolve(.delete, "/things/7")) == "delete 7")
    #expect(body(resolve(.post, "/things/7/poke")) == "poke 7")
    #expect(body(resolve(.get, "/real/file")) == "file")
  }

  @Test func headIsAnsweredByGet() {
    #expect(body(resolve(.head, "/things/7")) == "get 7")
    guard case .methodNotAllowed(let allow, _, _) = resolve(.head, "/things/7/poke") else {
      Issue.record("HEAD of a POST-only path is 405")
      return
    }
    #expect(allow.allowField == "POST, OPTIONS")
  }

  @Test func aPathNoRouteTakesIsNotFound() {
    for path in ["/nothing", "/things", "/things/7/pull", "/real"] {
      guard case .notFound = resolve(.get, path) else {
        Issue.record("\(path) should be 404")
        continue
      }
    }
    guard case .notFound = resolve(.post, "/nothing") else {
      Issue.record("POST of a path no route matches is 404, not 405")
      return
    }
  }

  @Test func aWrongMethodIs405WithTheUnionOfThePathsMethods() {
    guard case .methodNotAllowed(let allow, let style, _) = resolve(.put, "/things/7") else {
      Issue.record("PUT /things/7 should be 405")
      return
    }
    #expect(allow.allowField == "GET, HEAD, DELETE, OPTIONS")
    #expect(style == .json, "one of the path's routes is an API")
    guard case .methodNotAllowed(let fileAllow, .text, _) = resolve(.post, "/real/file") else {
      Issue.record("POST of a file should be 405")
      return
    }
    #expect(fileAllow.allowField == "GET, HEAD, OPTIONS")
  }

  @Test func optionsListsTheMethodsAndSaysWhetherOtherSitesMayRead() {
    guard case .options(let allow, let crossOrigin) = resolve(.options, "/things/7") else {
      Issue.record("OPTIONS /things/7 should be answered")
      return
    }
    #expect(allow.allowField == "GET, HEAD, DELETE, OPTIONS" && crossOrigin)
    guard case .options(_, false) = resolve(.options, "/things/7/poke") else {
      Issue.record("OPTIONS of a route that is not cross-origin grants nothing")
      return
    }
    #expect(table.allMethods.allowField == "GET, HEAD, POST, DELETE, OPTIONS")
  }

  @Test func aCORSPreflightGetsTheGrantOnlyOnCrossOriginRoutes() {
    var request = Request(
      method: .options, target: "/things/7",
      headers: ["Origin": "https://elsewhere.example", "Access-Control-Request-Method": "GET"])
    request.headers.add("Access-Control-Request-Headers", "if-none-match")
    let granted = Application.options(request, allow: [.get, .head, .options], crossOrigin: true)
    #expect(granted.status == .noContent)
    #expect(granted.headers["Access-Control-Allow-Origin"] == "*")
    #expect(granted.headers["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS")
    #expect(granted.headers["Access-Control-Allow-Headers"] == "if-none-match")
    let refused = Application.options(request, allow: [.get, .head, .options], crossOrigin: false)
    #expect(refused.headers["Access-Control-Allow-Origin"] == nil)
    #expect(refused.headers["Allow"] == "GET, HEAD, OPTIONS")
  }

  /// A route answered without a handler (the static files): GET and HEAD get the answer with the
  /// route's traits, another method 405, and a path it does not parse falls through.
  @Test func anAnsweringRouteAnswersGetAndHeadAndFallsThroughOnWhatItDoesNotParse() {
    let table = RouteTable([
      Route(
        answering: [.get], "/{path...}", [.crossOrigin],
        parse: { segments, _ in segments.joined(separator: "/") == "real/file" ? "file" : nil },
        respond: { name, request in
          Response(status: .ok, body: Array("\(name) \(request.headers["Origin"] ?? "")".utf8))
        }),
      Route([.get], "/{path...}") { _ in .response(Response(status: .ok, body: [0x21])) },
    ])
    func resolve(_ method: HTTPMethod, _ path: String) -> RouteTable.Resolution {
      let request = Request(method: method, target: path, headers: ["Origin": "http://o"])
      return table.resolve(request, segments: try! URLPath.segments(request.path))
    }
    for method in [HTTPMethod.get, .head] {
      guard case .answered(let traits, let response) = resolve(method, "/real/file") else {
        Issue.record("\(method) of the file is answered by the route")
        continue
      }
      #expect(traits == [.crossOrigin])
      #expect(String(decoding: response.body, as: UTF8.self) == "file http://o")
    }
    guard case .methodNotAllowed(let allow, _, let traits) = resolve(.post, "/real/file") else {
      Issue.record("POST of the file is 405")
      return
    }
    #expect(allow.allowField == "GET, HEAD, OPTIONS" && traits == [.crossOrigin])
    guard case .handle = resolve(.get, "/other") else {
      Issue.record("a path the answering route does not parse goes to the next route")
      return
    }
  }
}
