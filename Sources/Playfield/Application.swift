import Deflate
import HTTP
import Logging
import Server
import Storage
import Synchronization
import WebSocket

/// The Playfield web app: the route table, wired to the pieces in `Environment`.
///
/// `handle` is the one pipeline every request goes through: the table resolves it (404, 405
/// with `Allow`, OPTIONS), the route's traits are applied (the host check, CORS, pages), and the
/// route's handler answers, with HEAD answered by GET's.
public final class Application: HTTPHandler {
  let environment: Environment
  let files: StaticFiles
  let pages: Pages
  let demos: [Demo]
  let registry: SessionRegistry
  let sessionAPI: SessionAPI
  /// Requests that read or write the store, answered off the event loops.
  let storeCalls: StoreCalls
  let gameLoop: GameLoop
  let journal: StorageJournal?
  let origins: OriginPolicy
  let hosts: HostPolicy
  let replays: ReplayRegistry
  /// Every route: the app's own, each demo's, then the static files.
  let routes: RouteTable
  /// The browser client families issued, per address.
  let families: Mutex<ClientFamilies>
  /// Input-log pages being read, a few at a time, each charged to its reader (nil without a
  /// database).
  let inputPages: ColdResourceService<InputPageResource>?
  /// What `/metrics` reads beyond the app's own parts.
  let meters: Meters
  /// The store's failures as `/healthz` last found them, in full (logged when they change).
  let healthProblem = Mutex("")
  /// What the demos' parts do at shutdown (the shopping lists' last writes).
  let atShutdown = ShutdownHooks()

  public init(environment: Environment) throws {
    self.environment = environment
    let logger = environment.logger
    let files = StaticFiles(
      root: environment.publicDirectory, gzip: { try? Gzip.compress($0) })
    self.files = files
    self.pages = try Pages(directory: environment.templatesDirectory)
    self.demos = Demo.all
    self.origins = OriginPolicy(allowedOrigins: environment.allowedOrigins)
    self.hosts = HostPolicy(names: environment.allowedHosts)

    // Storage: without a database the app still serves, with sessions in memory only.
    let limits = environment.limits
    var journal: StorageJournal?
    if let path = environment.databasePath {
      do {
        var storeLimits = StoreLimits()
        storeLimits.maxMazesPerClient = limits[.mazesPerClient]
        storeLimits.maxMazesPerAddress = limits[.mazesPerClient] * limits[.familiesPerAddress]
        storeLimits.maxRecipesPerBook = limits[.recipesPerBook]
        storeLimits.maxRecipeBytesPerClient = limits[.recipeBytesPerClient]
        let stored = StoredPlaces(limits)
        storeLimits.maxSessions = stored.total
        storeLimits.maxSessionsPerClient = stored.perClient
        storeLimits.maxSessionsPerAddress = stored.perAddress
        let shared = PostgresURL.isPostgreSQL(path)
        var writing = WriterConfiguration()
        writing.maxPendingBytes = limits[.pendingBytes]
        writing.maxBatchBytes = limits[.writerBatchBytes]
        journal = StorageJournal(
          store: try environment.openStore(path, storeLimits, environment.serving),
          owner: shared
            ? LeaseOwner.unique(shard: environment.shard, serving: environment.serving) : nil,
          configuration: writing, logger: logger)
      } catch let error as DatabaseLockError {
        throw error  // NB: another process has the SQLite file; serving beside it would fork it.
      } catch  where PostgresURL.isPostgreSQL(path) {
        throw error  // NB: a shared store that is wrong or away at start is the operator's to fix.
      } catch {
        logger.error("cannot open the database \(path): \(error); sessions will not be stored")
      }
    }
    self.journal = journal
    self.families = Mutex(ClientFamilies(perAddress: limits[.familiesPerAddress]))
    self.storeCalls = StoreCalls(limits: Self.storeCallLimits(limits))
    var pageQueue: ColdResourceService<InputPageResource>.Limits = limits.queue(
      running: 1, waiting: .inputPageQueue, perClient: .inputPagesPerClient,
      deadline: .inputPageWait)
    pageQueue.cheapRunning = 0
    self.inputPages = journal.map { journal in
      ColdResourceService(
        InputPageResource(journal: journal, pageBytes: limits[.inputPageBytes]),
        name: "input-pages", cacheBytes: 0, limits: pageQueue, pool: InputPageResource.pool)
    }
    let wake = GameLoopWake()
    let scheduler = StepScheduler(clock: environment.monotonicClock)
    let registry = SessionRegistry(
      journal: journal, limits: SessionLimits(limits), random: environment.random,
      wallClock: environment.wallClock, monotonicClock: environment.monotonicClock, logger: logger,
      wake: { wake.signal() }, scheduler: scheduler, shard: environment.shard,
      betweenClusterChecks: environment.betweenClusterChecks)
    self.registry = registry
    journal?.lostSessions.on { registry.dropLost($0) }
    journal?.storedInputs.on { registry.stored($0) }
    journal?.storing.on { registry.storing(problem: $0) }
    let replayStates = ReplayStates(
      limits: limits.queue(
        running: limits[.replayStates], waiting: .replayStateQueue,
        perClient: .replayStatesPerClient, deadline: .replayStateWait))
    registry.deletedSessions.on { replayStates.forget(session: $0) }
    self.sessionAPI = SessionAPI(
      registry: registry, scheduler: scheduler, replayStates: replayStates)
    let meters = Meters(refusals: registry.refusals)
    self.meters = meters
    if let inputPages {
      meters.add(
        inputPages, name: "input-pages", perClient: Limit.inputPagesPerClient.name,
        queue: Limit.inputPageQueue.name, wait: Limit.inputPageWait.name)
    }
    let compares = CompareRegistry(
      perClient: limits[.comparesPerClient],
      perAddress: limits[.comparesPerClient] * limits[.familiesPerAddress],
      limit: limits[.maxCompares], idleLimit: limits[.idlePause],
      wallClock: environment.wallClock, wake: { wake.signal() })
    let context = DemoContext(
      environment: environment, registry: registry, store: journal?.store, meters: meters,
      compares: compares, storeCalls: storeCalls, atShutdown: atShutdown)
    self.routes = RouteTable(
      Self.appRoutes + demos.flatMap { $0.routes(context) } + Self.fileRoutes(files))
    if let journal, journal.leases != nil {
      // NB: on a shared store, each stored session is adopted by the process asked for it
      // first (`SessionRegistry.unpark`), not by whichever starts first.
      logger.info("sessions on the shared store are adopted when asked for")
    } else if let journal {
      let count = SessionRestorer.restore(
        from: journal.store, into: registry, journal: journal, logger: logger)
      if count.live > 0 { logger.info("restored \(count.live) stored sessions") }
      if count.parked > 0 {
        logger.info(
          "\(count.parked) stored sessions stay parked (past the limits), back when asked")
      }
    }
    let replays = ReplayRegistry(
      perAddress: limits[.replaysPerAddress], wake: { wake.signal() })
    self.replays = replays
    self.gameLoop = GameLoop(
      wallClock: environment.wallClock, sessions: { registry.all },
      replays: { replays.all + compares.all }, owner: { registry.quota.owner(of: $0) },
      maintenance: { registry.removeExpired() }, scheduler: scheduler, wake: wake)
    if environment.gameLoop == .thread { gameLoop.start() }
  }

  /// Runs one game-loop tick now: every session and replay advances once (for a `.manual`
  /// game loop).
  public func tick() {
    gameLoop.tickOnce()
  }

  public func handle(_ request: Request, context: RequestContext) -> Reply {
    if let refusal = familyConnectionRefusal(request, context) { return .response(refusal) }
    // RFC 9110 §9.3.7: OPTIONS * asks about the server itself.
    if request.target == "*" {
      return .response(
        Response(status: .noContent, headers: ["Allow": routes.allMethods.allowField]))
    }
    let segments: [String]
    do {
      segments = try URLPath.segments(request.path)
    } catch {
      return .response(error.response)
    }
    switch routes.resolve(request, segments: segments) {
    case .notFound:
      return .response(notFound(request))
    case .methodNotAllowed(let allow, let style, let traits):
      return .response(
        traits.decorate(
          style.response(
            .methodNotAllowed, "\(request.method) is not allowed here; use \(allow.allowField)",
            headers: ["Allow": allow.allowField])))
    case .options(let allow, let crossOrigin):
      return .response(Self.options(request, allow: allow, crossOrigin: crossOrigin))
    case .answered(let traits, let response):
      return .response(traits.decorate(response))
    case .handle(let route, let handler):
      let traits = route.traits
      if traits.contains(.guardsState), let refusal = hosts.refusal(request) {
        // NB: in the route's style, so that a page's `fetch` reads the reason and shows it.
        return .response(traits.errorStyle.response(.misdirectedRequest, refusal))
      }
      var call = RouteCall(request: request, context: context, app: self)
      if request.method == .head {
        // RFC 9110 §9.3.2: HEAD is GET without the body, which the connection leaves out; a
        // HEAD never upgrades.
        var asGET = request
        asGET.method = .get
        asGET.headers.remove("Upgrade")
        call = RouteCall(request: asGET, context: context, app: self)
      }
      if touchesStore(traits, segments: segments) {
        let asked = call
        return answerOffEventLoop(
          call, segments: segments, route: route,
          finish: { [self] in traits.decorate(traits.contains(.page) ? page($0, asked) : $0) },
          handler: handler)
      }
      switch handler(call) {
      case .response(var response):
        if traits.contains(.page) { response = page(response, call) }
        return .response(traits.decorate(response))
      case .later(let pending) where traits.contains(.crossOrigin):
        // NB: an answer finished on another thread (a tile, a 503 from its queue) carries the
        // grant as well, or a page on another site could not read its status or Retry-After.
        return .later(pending.map { traits.decorate($0) })
      case let reply:
        return reply
      }
    }
  }

  /// Stops the game loop and writes everything to storage before the process exits.
  public func shutdown() {
    gameLoop.stop()
    for session in registry.all { session.snapshotNow() }
    atShutdown.run()
    journal?.close()
  }

  /// 204 with `Allow`; for a cross-origin route asked by a CORS preflight, the grant too
  /// (Fetch standard, CORS protocol: any origin, the route's methods, the headers asked for).
  static func options(_ request: Request, allow: [HTTPMethod], crossOrigin: Bool) -> Response {
    var response = Response(status: .noContent, headers: ["Allow": allow.allowField])
    guard crossOrigin, request.headers.contains("Origin") else { return response }
    response.headers.set("Access-Control-Allow-Origin", "*")
    response.headers.set("Access-Control-Allow-Methods", allow.allowField)
    if let asked = request.headers["Access-Control-Request-Headers"] {
      response.headers.set("Access-Control-Allow-Headers", asked)
    }
    response.headers.set("Access-Control-Max-Age", "86400")
    response.headers.set("Access-Control-Expose-Headers", RouteTraits.exposedHeaders)
    return response
  }

  /// Who `request` counts against: its address, with its browser family when known.
  func client(_ request: Request, _ context: RequestContext) -> ClientKey {
    families.withLock {
      $0.key(address: context.client, presenting: ClientCookie.id(in: request))
    }
  }

  /// A rendered page with an ETag and conditional requests honoured; a browser without a known
  /// client family gets a new one (`ClientCookie`).
  private func page(_ response: Response, _ call: RouteCall) -> Response {
    var response = Preconditions.validate(response, for: call.request)
    let client = call.client
    if client.family == nil {
      let id = SessionRegistry.identifier(environment.random(16))
      families.withLock { _ = $0.issue(id, to: client.address) }
      response.headers.add("Set-Cookie", ClientCookie.setCookie(id))
    }
    return response
  }
}
