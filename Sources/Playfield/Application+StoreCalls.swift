import HTTP
import Server

extension Application {
  /// Whether a request for a route with `traits` reads or writes the store, and so is answered
  /// from `storeCalls`, off the event loop: a `.store` route whenever there is a database, an
  /// `.adopts` route when the session it names is not live here but may be brought back
  /// (parked here, or anyone's on a shared store).
  func touchesStore(_ traits: RouteTraits, segments: [String]) -> Bool {
    guard journal != nil else { return false }
    if traits.contains(.store) { return true }
    guard traits.contains(.adopts), let id = Self.sessionID(in: segments) else { return false }
    return registry.mayBringBack(id)
  }

  /// The bounds of `storeCalls`: two workers for any call and a third for cheap ones (at most
  /// 50 ms, a request body under about 160 KB), one address's expensive calls on at most one
  /// of the two (`StoreCalls`).
  static func storeCallLimits(_ limits: Limits) -> FairQueue<StoreCalls.Job>.Limits {
    var queue: FairQueue<StoreCalls.Job>.Limits = limits.queue(
      running: 2, waiting: .storeCallQueue, perClient: .storeCallsPerClient,
      deadline: .storeCallWait)
    queue.cheapRunning = 1
    queue.cheapSeconds = 0.05
    queue.expensivePerAddress = 1
    return queue
  }

  /// The estimated seconds of a store call of `route` for `request`: what the route says of
  /// it (`Route.storeCost`), else by the request's body.
  static func storeCallCost(_ route: Route, _ request: Request) -> Double {
    route.storeCost?(request) ?? StoreCalls.estimate(bodyBytes: request.body.count)
  }

  /// Answers `call` on a store worker, charged to its client and estimated by
  /// `storeCallCost`: with what `handler` replies there (a session another process holds: 503,
  /// `sessionNotHere`), made final by `finish`; a WebSocket upgrade too (the worker's
  /// `.webSocket` reply goes back to the event loop, which sends the 101).
  func answerOffEventLoop(
    _ call: RouteCall, segments: [String], route: Route,
    finish: @escaping @Sendable (Response) -> Response, handler: @escaping Route.Handler
  ) -> Reply {
    let cost = Self.storeCallCost(route, call.request)
    let style = route.traits.errorStyle
    return storeCalls.answer(client: call.client, cost: cost, style: style) { [self] () -> Reply in
      // NB: a session parked here is deleted where it is stored (`SessionRegistry.delete`),
      // never brought back first: that would need a live place of its owner.
      let deletesParked =
        call.request.method == .delete && segments.count == 3
        && Self.sessionID(in: segments).map { registry.isParkedHere($0) } == true
      let elsewhere: Reply? = deletesParked ? nil : sessionNotHere(segments: segments)
      return switch elsewhere ?? handler(call) {
      case .response(let response): .response(finish(response))
      case .later(let pending): .later(pending.map(finish))
      case let reply: reply
      }
    }
  }
}
