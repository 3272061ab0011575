import HTTP
import Server
import Synchronization
import Tiles

/// `/tiles/mandelbrot/Z/X/Y.png` (and `.counts`, the raw escape counts): tiles rendered off
/// the event loop, kept in a bounded LRU cache, with concurrent requests for one cold tile
/// computed once.
///
/// Cached tiles are answered at once; renders go through a `RenderQueue` (a few at a time,
/// each client in turn, bounded, with a deadline), and `iter` is snapped to `IterationSteps`.
final class TileService: Sendable {
  let renderer: TileRenderer
  let cache: TileCache<TileRequest>
  private let queue: Mutex<RenderQueue<Render>>
  /// Monotonic seconds, for the queue's deadline.
  private let clock: @Sendable () -> Double

  /// A render waiting for its turn: what to draw, for whom, and where the answer goes.
  struct Render: Sendable {
    var tile: TileRequest
    var client: ClientKey
    var headers: HTTPHeaders
    var pending: PendingResponse
  }

  /// - Parameter cacheBytes: most bytes of PNG kept in memory.
  init(
    cacheBytes: Int, limits: RenderQueue<Render>.Limits = .init(),
    renderer: TileRenderer = TileRenderer(),
    clock: @escaping @Sendable () -> Double = {
      Double(MonotonicTime.now().nanoseconds) / 1e9
    }
  ) {
    self.renderer = renderer
    self.cache = TileCache(capacity: cacheBytes, maxConcurrentComputations: limits.running)
    self.queue = Mutex(RenderQueue(limits: limits))
    self.clock = clock
  }

  func handle(
    _ request: Request, zoom: String, x: String, file: String, client: ClientKey
  ) -> Reply {
    guard request.method == .get || request.method == .head else {
      return .response(
        HTTPError(.methodNotAllowed, "tiles accept GET and HEAD", headers: ["Allow": "GET, HEAD"])
          .response)
    }
    var tile: TileRequest
    do {
      tile = try TileRequest.parse(
        zoom: Substring(zoom), x: Substring(x), file: Substring(file), query: request.query)
    } catch {
      return .response(HTTPError(HTTPStatus(error.status), error.message).response)
    }
    tile.iterations = IterationSteps.snap(tile.iterations)
    var headers = Self.headers
    headers.set("Content-Type", tile.format.mediaType)
    headers.add("ETag", tile.etag)
    if let answer = Preconditions.answer(request, etag: tile.etag, headers: headers) {
      return .response(answer)
    }
    if let png = cache.cachedValue(for: tile) {
      return .response(Response(status: .ok, headers: headers, body: png))
    }
    let render = Render(tile: tile, client: client, headers: headers, pending: PendingResponse())
    let admission = queue.withLock { $0.submit(render, client: client, now: clock()) }
    switch admission {
    case .start(let render):
      run(render)
    case .wait:
      break
    case .refuse(_, let refusal):
      return .response(Self.refused(refusal))
    }
    return .later(render.pending)
  }

  /// Renders (or joins a render of) the tile, answers, and hands the freed slot on.
  private func run(_ render: Render) {
    let renderer = self.renderer
    let tile = render.tile
    cache.fetch(
      tile, compute: { try renderer.render(tile, clock: { 0 }).body },
      completion: { [self] result in
        switch result {
        case .success(let png):
          render.pending.succeed(Response(status: .ok, headers: render.headers, body: png))
        case .failure(let error):
          render.pending.succeed(
            HTTPError(.internalServerError, "the tile could not be drawn: \(error)").response)
        }
        let (start, expired) = queue.withLock { $0.finish(client: render.client, now: clock()) }
        for (late, refusal) in expired { late.pending.succeed(Self.refused(refusal)) }
        for next in start { run(next) }
      })
  }

  /// 429 for a client over its share, 503 when the queue is full, with `Retry-After`.
  static func refused(_ refusal: RenderQueue<Render>.Refusal) -> Response {
    let message =
      refusal.tooManyFromClient
      ? "you have too many tiles rendering; wait for them before asking for more"
      : "the tile renderer is busy; try again shortly"
    return HTTPError(
      refusal.tooManyFromClient ? .tooManyRequests : .serviceUnavailable, message,
      headers: ["Retry-After": String(refusal.retryAfter), "Cache-Control": "no-store"]
    ).response
  }

  /// Headers of every tile: tiles never change for a given URL.
  static let headers: HTTPHeaders = [
    "Content-Type": "image/png",
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    "Access-Control-Allow-Origin": "*",
  ]
}
