import HTTP
import Testing

@testable import Playfield

/// Every route of the real table, walked: a wrong method is 405 with the right `Allow`, HEAD
/// answers like GET, and OPTIONS lists the methods.
@Suite(.serialized) struct RouteWalkTests {
  static let methods: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]
  static let host: HTTPHeaders = ["Host": "localhost"]

  /// The methods the path's routes take together (several routes may share a path).
  static func allowed(_ path: String, in table: RouteTable) -> [HTTPMethod] {
    let segments = try! URLPath.segments(path[...])
    let union = Set(
      table.routes.filter { route in
        // NB: flatMap, so that a route whose captures do not parse (the files route, for a
        // path that names no file) does not count.
        route.pattern.match(segments).flatMap {
          route.match($0, Request(method: .get, target: path))
        } != nil
      }.flatMap(\.allowed))
    return HTTPMethod.allowOrder.filter(union.contains)
  }

  @Test func everyRouteAnswersWrongMethodsWith405AndItsAllow() throws {
    let app = try TestApplication()
    defer { app.shutdown() }
    let table = app.application.routes
    #expect(table.routes.count >= 25, "the app's, the demos' and the files' routes")
    for route in table.routes {
      let path = route.examplePath
      let allow = Self.allowed(path, in: table)
      #expect(Set(route.allowed).isSubset(of: allow), "\(route.pattern)")
      for method in Self.methods where !allow.contains(method) {
        let response = app.request(method, path, headers: Self.host)
        #expect(response.status == .methodNotAllowed, "\(method) \(path)")
        #expect(response.headers["Allow"] == allow.allowField, "\(method) \(path)")
      }
    }
  }

  @Test func everyRouteAnswersOptionsWithItsAllow() throws {
    let app = try TestApplication()
    defer { app.shutdown() }
    let table = app.application.routes
    for route in table.routes {
      let path = route.examplePath
      let response = app.request(.options, path, headers: Self.host)
      #expect(response.status == .noContent, "OPTIONS \(path)")
      #expect(response.headers["Allow"] == Self.allowed(path, in: table).allowField, "\(path)")
      let preflight = app.request(
        .options, path,
        headers: ["Host": "localhost", "Origin": "https://elsewhere.example"])
      #expect(
        (preflight.headers["Access-Control-Allow-Origin"] == "*")
          == route.traits.contains(.crossOrigin), "\(path)")
    }
  }

  @Test func everyGetRouteAnswersHeadLikeGet() throws {
    let app = try TestApplication()
    defer { app.shutdown() }
    // NB: a page mints a new client cookie each time, and a computed body tells its timing
    // once; neither is part of the representation.
    let varying: Set<String> = ["set-cookie", "server-timing"]
    func fields(_ response: Response) -> [String] {
      response.headers.filter { !varying.contains($0.name.lowercased()) }
        .map { "\($0.name.lowercased()): \($0.value)" }.sorted()
    }
    for route in app.application.routes.routes where route.methods.contains(.get) {
      let path = route.examplePath
      let get = app.request(.get, path, headers: Self.host)
      let head = app.request(.head, path, headers: Self.host)
      #expect(head.status == get.status, "HEAD \(path)")
      #expect(fields(head) == fields(get), "HEAD \(path)")
      #expect(head.body == get.body, "the connection, not the handler, leaves HEAD's body out")
    }
  }

  @Test func onlyTheRoutesThatHoldStateCheckTheHost() throws {
    let app = try TestApplication()
    defer { app.shutdown() }
    for route in app.application.routes.routes where route.methods.contains(.get) {
      let path = route.examplePath
      let response = app.request(.get, path, headers: ["Host": "rebound.example"])
      #expect(
        (response.status == .misdirectedRequest) == route.traits.contains(.guardsState), "\(path)")
    }
  }

  /// Every route that may read or write the store says so, so that it runs on a store worker:
  /// those that name a session (which may be brought back from the store) and the tables of
  /// mazes and scores; static files and pages of no session never do.
  @Test func routesThatTouchTheStoreAreMarked() throws {
    let app = try TestApplication()
    defer { app.shutdown() }
    for route in app.application.routes.routes {
      let path = route.pattern.description
      let marked = !route.traits.isDisjoint(with: [.store, .adopts])
      let names =
        path.contains("{session}") || path.hasPrefix("/api/mazes")
        || path.hasPrefix("/api/highscores") || path.hasPrefix("/api/recipes")
        || path.hasPrefix("/ws/recipes")
      if names { #expect(marked, "\(path) touches the store") }
      if path.hasPrefix("/{path") || path.hasPrefix("/js/") || path.hasPrefix("/tiles") {
        #expect(!marked, "\(path) never touches the store")
      }
    }
    let creates = app.application.routes.routes.first {
      $0.pattern.description == "/api/sessions" && $0.methods == [.post]
    }
    #expect(creates?.traits.contains(.store) == true)
  }

  /// A store call whose answer grows with what is stored, not with its body (a whole book's
  /// export; a comparison waiting for its recordings' rows; a list of 1,000 recipes), is
  /// charged as expensive, so it never takes the worker kept for cheap calls.
  @Test func storeCallsLongWhateverTheirBodyAreNotCheap() throws {
    let app = try TestApplication()
    defer { app.shutdown() }
    let limits = Application.storeCallLimits(Limits())
    let long: Set = ["/api/recipes/export", "/api/compare"]
    var seen: Set<String> = []
    for route in app.application.routes.routes where route.traits.contains(.store) {
      let path = route.pattern.description
      let cost = Application.storeCallCost(route, Request(method: .get, target: path))
      #expect(limits.isCheap(cost) == !long.contains(path), "\(path)")
      if long.contains(path) { seen.insert(path) }
    }
    #expect(seen == long)
    let list = try #require(
      app.application.routes.routes.first { $0.pattern.description == "/api/recipes" })
    // A list reads each recipe's stored summary (a few KB at most): only the longest is not
    // cheap. (Each recipe was parsed whole before: any list past 24 was not.)
    for (target, cheap) in [
      ("/api/recipes?limit=20", true), ("/api/recipes?limit=100", true),
      ("/api/recipes?q=soup&limit=1000", false), ("/api/recipes?limit=-5", true),
    ] {
      let cost = Application.storeCallCost(list, Request(method: .get, target: target))
      #expect(limits.isCheap(cost) == cheap, "\(target)")
    }
    // A body makes any other call expensive: a 1 MB page.
    let imports = try #require(
      app.application.routes.routes.first { $0.pattern.description == "/api/recipes/import" })
    var page = Request(method: .post, target: "/api/recipes/import")
    page.body = Array(repeating: 0x20, count: 1 << 20)
    #expect(!limits.isCheap(Application.storeCallCost(imports, page)))
  }
}
