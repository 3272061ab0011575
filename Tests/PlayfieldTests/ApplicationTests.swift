import HTTP
import JSON
import Simulation
import Testing

@testable import Playfield

/// The whole app without a socket: pages, the demo list, oEmbed and the session APIs, driven
/// through a test environment with a manual clock and a manual game loop.
@Suite(.serialized) struct ApplicationTests {
  // MARK: Pages

  @Test func theGalleryShowsEveryDemoOfTheListOnce() throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    let page = app.request(.get, "/")
    #expect(page.status == .ok && page.headers["Content-Type"] == "text/html; charset=utf-8")
    for demo in Demo.all {
      #expect(page.text.contains("href=\"/demos/\(demo.name)\""), "\(demo.name)")
      #expect(page.text.contains("data-group=\"\(demo.group.rawValue)\""))
    }
    #expect(page.text.components(separatedBy: "class=\"card\"").count - 1 == Demo.all.count)
  }

  @Test func everyDemoHasAPageAndAFrameableEmbed() throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    for demo in Demo.all {
      let page = app.request(.get, "/demos/\(demo.name)")
      #expect(page.status == .ok, "\(demo.name)")
      #expect(page.text.contains("/js/demos/\(demo.name).js"))
      #expect(page.text.contains("demo-session") == demo.isSession)
      #expect(page.headers["Content-Security-Policy"]?.contains("frame-ancestors 'self'") == true)
      let embed = app.request(.get, "/embed/\(demo.name)")
      #expect(embed.status == .ok)
      #expect(embed.headers["Content-Security-Policy"]?.contains("frame-ancestors *") == true)
      #expect(embed.headers["X-Frame-Options"] == nil)
    }
  }

  @Test func anUnknownDemoIsAHelpful404ListingTheDemos() throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    let page = app.request(.get, "/demos/spaceships", headers: ["Accept": "text/html"])
    #expect(page.status == .notFound && page.text.contains("the gallery"))
    for demo in Demo.all { #expect(page.text.contains(demo.title)) }
    #expect(app.request(.get, "/demos/spaceships").status == .notFound)
    #expect(app.request(.post, "/demos/maze").status == .methodNotAllowed)
  }

  @Test func theDemoListAPIFollowsDemoAll() throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    let body = try app.json(.get, "/api/demos")
    let demos = try #require(body["demos"]?.arrayValue)
    #expect(demos.compactMap { $0["name"]?.stringValue } == Demo.all.map(\.name))
    #expect(demos.compactMap { $0["session"]?.boolValue } == Demo.all.map(\.isSession))
    #expect(app.request(.post, "/api/demos").status == .methodNotAllowed)
  }

  @Test(
    arguments: [
      ("url=http%3A%2F%2Fexample.com%2F", 404), ("url=http%3A%2F%2Fh%2Fdemos%2Fnope", 404),
      ("", 404), ("url=http%3A%2F%2Fh%2Fdemos%2Fmaze&format=xml", 200),
      ("url=http%3A%2F%2Fh%2Fdemos%2Fmaze&format=yaml", 501),
      ("url=http%3A%2F%2Fh%2Fdemos%2Fmaze&maxwidth=0", 400),
      ("url=http%3A%2F%2Fh%2Fdemos%2Fmaze&maxheight=tall", 400),
      ("url=http%3A%2F%2Fh%2Fdemos%2Fmaze%3Fsession%3Dabc&maxwidth=300", 200),
    ])
  func oEmbedAnswersDemoPagesAndRefusesTheRest(query: String, status: Int) throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    let response = app.request(.get, "/oembed?\(query)", headers: ["Host": "h"])
    #expect(response.status.code == status)
    #expect(response.headers["Access-Control-Allow-Origin"] == "*", "every answer, errors too")
    if query.hasSuffix("format=xml") {
      #expect(String(decoding: response.body, as: UTF8.self).contains("<oembed>"))
    } else if status == 200 {
      let body = try JSONValue.parse(response.body)
      #expect(body["width"] == 300)
      #expect(
        body["html"]?.stringValue?.contains("src=\"http://h/embed/maze?session=abc\"") == true)
    }
  }

  @Test func healthReportsTheGameLoopAndStorage() throws {
    let app = try TestApplication()
    defer { app.shutdown() }
    _ = try app.json(.post, "/api/sessions", ["kind": "maze"])
    let body = try app.json(.get, "/healthz")
    #expect(body["status"] == "ok" && body["sessions"] == 1)
    #expect(body["storage"]?.stringValue?.isEmpty == false)
    #expect(app.request(.delete, "/healthz").status == .methodNotAllowed)
  }

  // MARK: Sessions

  @Test func aSessionIsCreatedListedShownAndDeletedWithItsToken() throws {
    let app = try TestApplication()
    defer { app.shutdown() }
    let created = app.request(.post, "/api/sessions", json: ["kind": "maze"])
    #expect(created.status == .created)
    let session = try JSONValue.parse(created.body)
    let id = try #require(session["id"]?.stringValue)
    let token = try #require(session["token"]?.stringValue)
    #expect(created.headers["Location"] == "/api/sessions/\(id)")
    #expect(session["title"] == .string(MazeBall.title) && session["durable"] == true)

    let listed = try app.json(.get, "/api/sessions")
    #expect(listed["count"] == 1 && listed["sessions"]?[0]?["id"] == .string(id))

    #expect(app.request(.delete, "/api/sessions/\(id)").status == .unauthorized)
    #expect(
      app.request(.delete, "/api/sessions/\(id)", headers: ["Authorization": "Bearer nope"])
        .status == .forbidden)
    #expect(
      app.request(.delete, "/api/sessions/\(id)", headers: ["Authorization": "Bearer \(token)"])
        .status == .noContent)
    #expect(app.request(.get, "/api/sessions/\(id)").status == .notFound)
  }

  @Test(
    arguments: [
      (#"{"kind": "spaceships"}"#, "kind"),
      (
        #"{"kind": "bouncing-balls", "config": {"balls": 0}}"#,
        "config.balls"
      ), (#"{"kind": "maze", "config": []}"#, "config"),
      (#"{"kind": "maze", "colour": 1}"#, "colour"), (#"{"config": {}}"#, "kind"),
    ])
  func badSessionRequestsAre400sNamingTheField(body: String, field: String) throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    let response = app.request(
      .post, "/api/sessions", json: try JSONValue.parse(body))
    #expect(response.status == .badRequest)
    #expect(try JSONValue.parse(response.body)["field"] == .string(field))
  }

  @Test func listingsAreNewestFirst() throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    var ids: [String] = []
    for kind in ["maze", "holes", "tag-cloud"] {
      ids.append(try app.json(.post, "/api/sessions", ["kind": .string(kind)])["id"]!.stringValue!)
      app.clock.advance(1)
    }
    let listed = try app.json(.get, "/api/sessions")["sessions"]?.arrayValue ?? []
    #expect(listed.compactMap { $0["id"]?.stringValue } == ids.reversed())
    let page = app.request(.get, "/sessions").text
    let positions = ids.compactMap { page.range(of: $0)?.lowerBound }
    #expect(positions.count == 3 && positions == positions.sorted().reversed())
  }

  @Test func theGameLoopStepsARunningSessionOncePerTick() throws {
    let app = try TestApplication(database: false)
    defer { app.shutdown() }
    let id = try app.json(.post, "/api/sessions", ["kind": "bouncing-balls"])["id"]!.stringValue!
    app.tick(10)
    let state = try app.json(.get, "/api/sessions/\(id)/state")
    // NB: the state is read during the tick that answers it, so it is one further.
    #expect(state["tick"] == 11 && state["running"] == true)
    #expect(try app.json(.get, "/api/sessions/\(id)")["tick"] == 11)
  }

  @Test func aSessionNobodyWatchesPausesAndResumesWhereItWas() throws {
    let app = try TestApplication(database: false) { $0.limits[.idlePause] = 30 }
    defer { app.shutdown() }
    let id = try app.json(.post, "/api/sessions", ["kind": "maze"])["id"]!.stringValue!
    app.tick()
    app.clock.advance(29)
    app.tick()
    #expect(try app.json(.get, "/api/sessions/\(id)")["paused"] == false)
    app.clock.advance(1)
    app.tick()
    let paused = try app.json(.get, "/api/sessions/\(id)")
    #expect(paused["paused"] == true && paused["running"] == false && paused["idle"] == true)
    let tick = try #require(paused["tick"]?.intValue)
    app.tick(100)
    #expect(try app.json(.get, "/api/sessions/\(id)")["tick"]?.intValue == tick)
  }

  @Test func aReplayOfTheLogReachesTheLiveSessionsExactState() throws {
    let app = try TestApplication()
    defer { app.shutdown() }
    let created = try app.json(.post, "/api/sessions", ["kind": "bouncing-balls"])
    let id = created["id"]!.stringValue!
    let token = try #require(created["token"]?.stringValue)
    let session = try #require(app.application.registry.session(id))
    for tick in 0..<40 {
      if tick % 7 == 0 {
        let message: JSONValue = [
          "type": "add-ball", "x": .number(10 * tick), "y": 20, "vx": 100, "vy": -50,
        ]
        session.send(.input(try #require(try BouncingBalls.checkedInput(from: message))))
      }
      app.tick()
    }
    app.application.registry.session(id)?.send(.stop)
    let live = try app.json(.get, "/api/sessions/\(id)/state")
    let tick = try #require(live["tick"]?.intValue)
    let replayed = try app.json(.get, "/api/sessions/\(id)/replay?tick=\(tick)")
    #expect(replayed["stateHash"] == live["stateHash"], "\(replayed) vs \(live)")
    #expect(app.request(.get, "/api/sessions/\(id)/inputs").status == .unauthorized)
    #expect(
      app.request(.get, "/api/sessions/\(id)/inputs?token=wrong").status == .forbidden)
    let inputs = try JSONValue.parse(
      app.request(.get, "/api/sessions/\(id)/inputs", headers: ["Authorization": "Bearer \(token)"])
        .body)
    #expect(inputs["inputs"]?.arrayValue?.count == 6)
    #expect(
      app.request(.get, "/api/sessions/\(id)/replay?tick=1&tick=2").status == .badRequest,
      "a repeated key is refused, not read as its first value")
    #expect(app.request(.get, "/api/sessions/\(id)/replay?tick=-1").status == .badRequest)
    #expect(
      app.request(.get, "/api/sessions/\(id)/inputs?after=x&token=\(token)").status == .badRequest)
  }

  @Test func theReplayAndSessionsPagesShowTitles() throws {
    let app = try TestApplication()
    defer { app.shutdown() }
    let id = try app.json(.post, "/api/sessions", ["kind": "holes"])["id"]!.stringValue!
    #expect(app.request(.get, "/sessions").text.contains(Holes.title))
    let replay = app.request(.get, "/sessions/\(id)/replay")
    #expect(replay.status == .ok && replay.text.contains(Holes.title))
    #expect(app.request(.get, "/sessions/nope/replay").status == .notFound)
  }
}
