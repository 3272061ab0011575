import Deflate
import Dispatch
import HTTP
import JSON
import Logging
import Server
import Simulation
import Storage
import Synchronization
import Tiles
import WebSocket

/// The Playfield web app: every route, wired to the pieces in `Environment`.
public final class Application: HTTPHandler {
  let environment: Environment
  let files: StaticFiles
  let pages: Pages
  let demos: [Demo]
  let registry: SessionRegistry
  let sessionAPI: SessionAPI
  let gameLoop: GameLoop
  let journal: StorageJournal?
  let origins: OriginPolicy
  let hosts: HostPolicy
  let replays: ReplayRegistry
  let highScores: HighScoreAPI
  let mazes: MazeAPI
  let tiles: ColdResourceService<TileResource>
  let spheres: ColdResourceService<SphereResource>
  /// The browser client families issued, per address.
  let families: Mutex<ClientFamilies>

  public init(environment: Environment) throws {
    self.environment = environment
    let logger = environment.logger
    self.files = StaticFiles(root: environment.publicDirectory, gzip: { try? Gzip.compress($0) })
    self.pages = try Pages(directory: environment.templatesDirectory)
    self.demos = Demo.all
    self.origins = OriginPolicy(allowedOrigins: environment.allowedOrigins)
    self.hosts = HostPolicy(names: environment.allowedHosts)

    // Storage: without a database the app still serves, with sessions in memory only.
    var journal: StorageJournal?
    if let path = environment.databasePath {
      do {
        var storeLimits = StoreLimits()
        storeLimits.maxMazesPerClient = environment.mazesPerClient
        storeLimits.maxMazesPerAddress = environment.mazesPerClient * environment.familiesPerAddress
        journal = StorageJournal(
          store: try environment.openStore(path, storeLimits), logger: logger)
      } catch {
        logger.error("cannot open the database \(path): \(error); sessions will not be stored")
      }
    }
    self.journal = journal
    self.families = Mutex(ClientFamilies(perAddress: environment.familiesPerAddress))
    let limits = SessionLimits(
      maxLive: environment.maxSessions, idlePause: environment.idlePause,
      maxAge: environment.sessionMaxAge, perClient: environment.sessionsPerClient,
      perAddress: environment.sessionsPerClient * environment.familiesPerAddress,
      maxInputs: environment.inputsPerSession)
    let registry = SessionRegistry(
      journal: journal, limits: limits, random: environment.random,
      wallClock: environment.wallClock, monotonicClock: environment.monotonicClock, logger: logger)
    self.registry = registry
    self.sessionAPI = SessionAPI(registry: registry)
    self.highScores = HighScoreAPI(registry: registry, store: journal?.store)
    self.mazes = MazeAPI(
      store: journal?.store, wallClock: environment.wallClock, random: environment.random)
    self.tiles = ColdResourceService(
      TileResource(renderer: TileRenderer()), cacheBytes: environment.tileCacheBytes,
      limits: .init(
        running: 2, waiting: environment.tileQueueLength,
        perClient: environment.tileRendersPerClient,
        perAddress: environment.tileRendersPerClient * environment.familiesPerAddress,
        deadline: environment.tileWaitSeconds),
      workers: DispatchQueue(label: "playfield.tiles", qos: .userInitiated, attributes: .concurrent)
    )
    self.spheres = ColdResourceService(
      SphereResource(), cacheBytes: environment.sphereCacheBytes,
      limits: .init(
        running: 1, waiting: environment.sphereQueueLength,
        perClient: environment.sphereComputationsPerClient,
        perAddress: environment.sphereComputationsPerClient * environment.familiesPerAddress,
        deadline: environment.sphereWaitSeconds),
      workers: DispatchQueue(
        label: "playfield.spheres", qos: .userInitiated, attributes: .concurrent))
    if let journal {
      let count = SessionRestorer.restore(
        from: journal.store, into: registry, journal: journal, logger: logger)
      if count > 0 { logger.info("restored \(count) stored sessions") }
    }
    let replays = ReplayRegistry()
    self.replays = replays
    self.gameLoop = GameLoop(
      wallClock: environment.wallClock, sessions: { registry.all },
      replays: { replays.all }, maintenance: { registry.removeExpired() })
    if environment.gameLoop == .thread { gameLoop.start() }
  }

  /// Runs one game-loop tick now: every session and replay advances once (for a `.manual`
  /// game loop).
  public func tick() {
    gameLoop.tickOnce()
  }

  public func handle(_ request: Request, context: RequestContext) -> Reply {
    if request.target == "*" {
      return .response(Response(status: .noContent, headers: ["Allow": Self.allMethods]))
    }
    let segments: [String]
    do {
      segments = try URLPath.segments(request.path)
    } catch {
      return .response(error.response)
    }
    let route = Route(segments: segments)
    if route.guardsState, let refusal = hosts.check(request) { return .response(refusal) }
    switch route {
    case .gallery:
      return page(request, client: client(request, context)) { gallery() }
    case .health:
      return readOnly(request) { health() }
    case .sessionsAPI:
      return .response(sessionAPI.collection(request, client: client(request, context)))
    case .sessionAPI(let id):
      return .response(sessionAPI.member(request, id: id))
    case .sessionSocket(let id):
      return sessionSocket(request, id: id)
    case .sessionState(let id):
      return sessionAPI.state(request, id: id)
    case .sessionReplayState(let id):
      return sessionAPI.replayState(request, id: id)
    case .sessionInputs(let id):
      return sessionAPI.inputs(request, id: id)
    case .replaySocket(let id):
      return replaySocket(request, id: id)
    case .tile(let zoom, let x, let file):
      return readOnly(request, .text) {
        tiles.respond(to: request, path: [zoom, x, file], client: client(request, context))
      }
    case .oEmbed:
      return .response(OEmbed(demos: demos).handle(request))
    case .sessionsPage:
      return page(request, client: client(request, context)) { sessionsPage() }
    case .replayPage(let id):
      return page(request, client: client(request, context)) { replayPage(id, request: request) }
    case .highScores:
      return .response(highScores.handle(request))
    case .mazes:
      return .response(mazes.collection(request))
    case .maze(let name):
      return .response(mazes.member(request, name: name, client: client(request, context)))
    case .demosAPI:
      return readOnly(request) { .json(Demo.listing(demos)) }
    case .spheres(let radius, let level):
      return readOnly(request, .json) {
        spheres.respond(to: request, path: [radius, level], client: client(request, context))
      }
    case .demo(let name), .embed(let name):
      guard let demo = demos.first(where: { $0.name == name }) else {
        return .response(notFound(request))
      }
      let embedded = route == .embed(name)
      return page(request, client: client(request, context)) {
        demoPage(demo, embedded: embedded, request: request)
      }
    case .echoSocket:
      switch WebSocketHandshake.evaluate(request, options: Self.echoOptions) {
      case .accept(let accepted):
        return .webSocket(accepted, EchoHandler())
      case .reject(let response):
        return .response(response)
      }
    case .file(let segments):
      if var response = files.response(for: segments, request: request) {
        // NB: other sites import the host library as an ES module, which needs CORS.
        if segments.first == "js", segments.last?.hasPrefix("playfield-embed") == true {
          response.headers.set("Access-Control-Allow-Origin", "*")
        }
        return .response(response)
      }
      return .response(notFound(request))
    }
  }

  /// Stops the game loop and writes everything to storage before the process exits.
  public func shutdown() {
    gameLoop.stop()
    for session in registry.all { session.snapshotNow() }
    journal?.close()
  }

  private func health() -> Response {
    let stats = gameLoop.statistics
    var body: [String: JSONValue] = [
      "status": "ok",
      "sessions": .number(Double(registry.count)),
      "ticks": .number(Double(stats.ticks)),
      "droppedTicks": .number(Double(stats.droppedTicks)),
      "tickLatenessMs": .object([
        "p50": .number(stats.latenessP50), "p99": .number(stats.latenessP99),
        "max": .number(stats.latenessMax),
      ]),
      "tickWorkMs": .number(stats.workMean),
      "throttled": .object(stats.throttled.mapValues { .number(Double($0)) }),
    ]
    if let journal {
      let status = journal.writer.status
      body["storage"] = .string(status.summary)
      if !status.isHealthy { body["status"] = "degraded" }
      let file = journal.checkFile()
      body["databaseFile"] = .string(file.description)
      if file != .same { body["status"] = "degraded" }
    } else {
      body["storage"] = "off"
    }
    return .json(.object(body))
  }

  private func sessionSocket(_ request: Request, id: String) -> Reply {
    if let refusal = origins.check(request) { return .response(refusal) }
    guard let session = registry.session(id) else {
      return .response(APIError(.notFound, "no session \(id)").response)
    }
    var role = SessionRole.spectator
    if let token = SessionAPI.token(in: request) {
      if TokenHash.matches(token: token, storedHash: session.tokenHash) {
        role = .controller
      } else if let seat = SeatToken.seat(
        presenting: token, type: session.type, tokenHash: session.tokenHash)
      {
        role = .guest(seat)
      } else {
        return .response(APIError(.forbidden, "the token does not control this session").response)
      }
    }
    switch WebSocketHandshake.evaluate(request, options: Self.sessionOptions) {
    case .accept(let accepted):
      return .webSocket(
        accepted, SessionSocketHandler(session: session, role: role, inputLog: registry.inputLog))
    case .reject(let response):
      return .response(response)
    }
  }

  private func replaySocket(_ request: Request, id: String) -> Reply {
    if let refusal = origins.check(request) { return .response(refusal) }
    guard let journal else {
      return .response(APIError(.serviceUnavailable, "replays need the database").response)
    }
    switch WebSocketHandshake.evaluate(request, options: Self.sessionOptions) {
    case .accept(let accepted):
      return .webSocket(
        accepted,
        ReplaySocketHandler(
          sessionID: id, journal: journal, replays: replays,
          chunkSize: environment.replayChunkInputs))
    case .reject(let response):
      return .response(response)
    }
  }

  /// Session channels compress when the client asks.
  static let sessionOptions = WebSocketHandshake.Options()

  /// `/ws/echo` picks the first subprotocol offered and compresses when asked.
  static let echoOptions = WebSocketHandshake.Options(subprotocols: .firstOffered)

  static let allMethods = "GET, HEAD, POST, DELETE, OPTIONS"

  // MARK: Pages

  private func gallery() -> Response {
    let shelves: [[String: Any]] = Demo.Group.allCases.compactMap { group in
      let members = demos.filter { $0.group == group }
      guard !members.isEmpty else { return nil }
      return ["group": group.rawValue, "title": group.title, "demos": members.map(card)]
    }
    return pages.render(
      "gallery", ["title": "Playfield", "groups": shelves, "hasDemos": !demos.isEmpty])
  }

  /// One gallery card: a live preview for a simulation, else the demo's icon
  /// (`Templates/icons/NAME.mustache`, or a lettered tile when it has none).
  private func card(_ demo: Demo) -> [String: Any] {
    var card: [String: Any] = [
      "name": demo.name, "title": demo.title, "summary": demo.summary, "seed": demo.seed,
      "group": demo.group.rawValue,
    ]
    if demo.isSession {
      card["preview"] = preview(demo)
    } else if let icon = pages.fragment("icons/\(demo.name)", [:]) {
      card["icon"] = icon
    } else {
      card["initial"] = String(demo.title.prefix(1))
    }
    return card
  }

  /// The embed page a gallery card shows live: a simulation's showcase session, watched.
  private func preview(_ demo: Demo) -> String {
    guard demo.isSession else { return "/embed/\(demo.name)?preview" }
    guard let session = registry.showcase(demo.name) else { return "/embed/\(demo.name)?preview" }
    return "/embed/\(demo.name)?session=\(session.id)&watch&preview"
  }

  /// A demo's body (`Templates/demos/NAME.mustache`) inside the site layout or, embedded, the
  /// bare layout that any site may frame.
  private func demoPage(_ demo: Demo, embedded: Bool, request: Request) -> Response {
    let host = request.headers["Host"] ?? "127.0.0.1"
    let pageURL = "http://\(host)\(request.target)"
    var context: [String: Any] = [
      "oembed": "/oembed?url=" + Self.percentEncode(pageURL),
      "title": demo.title, "name": demo.name, "summary": demo.summary, "embedded": embedded,
      "simulation": demo.isSession,
      "frameWidth": OEmbed.naturalSize(of: demo.name).width,
      "frameHeight": OEmbed.naturalSize(of: demo.name).height,
      "otherDemos": demos.filter { $0.name != demo.name }.map {
        ["name": $0.name, "title": $0.title]
      },
      "preview": embedded
        && (try? QueryParameters(request.query))?.names.contains("preview") == true,
    ]
    guard let body = pages.fragment("demos/\(demo.name)", context) else {
      return HTTPError(.internalServerError, "the template demos/\(demo.name) is missing").response
    }
    context["content"] = body
    return pages.render(
      embedded ? "embed" : "demo", context, framing: embedded ? .anyone : .sameOrigin)
  }

  private func sessionsPage() -> Response {
    let now = environment.wallClock()
    let rows: [[String: Any]] = registry.listed.map { session in
      let summary = session.summary
      return [
        "id": summary.id, "kind": summary.kind,
        "title": Demo.title(of: summary.kind),
        "age": Self.age(now - summary.createdAt), "tick": summary.tick,
        "watching": summary.spectators + summary.controllers,
        "status": summary.running ? "running" : "stopped",
      ]
    }
    return pages.render("sessions", ["sessions": rows, "hasSessions": !rows.isEmpty])
  }

  private func replayPage(_ id: String, request: Request) -> Response {
    guard let session = registry.session(id) else { return notFound(request) }
    return pages.render(
      "replay",
      [
        "id": id, "kind": session.kind, "title": Demo.title(of: session.kind),
        "hasDatabase": journal != nil,
      ])
  }

  /// Percent-encodes everything but unreserved characters (RFC 3986 §2.3).
  static func percentEncode(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.append(Character(UnicodeScalar(byte)))
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        out += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return out
  }

  /// `42 s`, `5 min`, `3 h` or `2 d`.
  static func age(_ seconds: Double) -> String {
    let s = max(0, Int(seconds))
    if s < 60 { return "\(s) s" }
    if s < 3600 { return "\(s / 60) min" }
    if s < 86_400 { return "\(s / 3600) h" }
    return "\(s / 86_400) d"
  }

  private func notFound(_ request: Request) -> Response {
    let wantsHTML = request.headers["Accept"].map { $0.contains("text/html") } ?? false
    guard wantsHTML, request.method == .get || request.method == .head else {
      return HTTPError(.notFound, "nothing at \(request.path)").response
    }
    return pages.render(
      "not-found",
      [
        "title": "Not found",
        "path": String(request.path),
        "demos": demos.map { ["name": $0.name, "title": $0.title] },
      ], status: .notFound)
  }

  /// Answers GET and HEAD with `make()`, anything else with 405.
  private func readOnly(_ request: Request, _ style: ErrorStyle, _ make: () -> Reply) -> Reply {
    guard request.method == .get || request.method == .head else {
      return .response(
        style.response(
          .methodNotAllowed, "this resource accepts GET and HEAD", headers: ["Allow": "GET, HEAD"]))
    }
    return make()
  }

  /// Answers GET and HEAD with `make()`, anything else with 405.
  private func readOnly(_ request: Request, _ make: () -> Response) -> Reply {
    guard request.method == .get || request.method == .head else {
      return .response(
        HTTPError(
          .methodNotAllowed, "this page accepts GET and HEAD", headers: ["Allow": "GET, HEAD"]
        )
        .response)
    }
    return .response(make())
  }

  /// Who `request` counts against: its address, with its browser family when known (looked up
  /// only on the routes with quotas or pages, not for every static file).
  private func client(_ request: Request, _ context: RequestContext) -> ClientKey {
    families.withLock {
      $0.key(address: context.remoteAddress, presenting: ClientCookie.id(in: request))
    }
  }

  /// A rendered page: GET and HEAD only, with an ETag and conditional requests honoured; a
  /// browser without a known client family gets a new one (`ClientCookie`).
  private func page(_ request: Request, client: ClientKey, _ make: () -> Response) -> Reply {
    readOnly(request) {
      var response = Preconditions.validate(make(), for: request)
      if client.family == nil {
        let id = SessionRegistry.identifier(environment.random(16))
        families.withLock { _ = $0.issue(id, to: client.address) }
        response.headers.add("Set-Cookie", ClientCookie.setCookie(id))
      }
      return response
    }
  }
}
