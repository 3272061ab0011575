import Tiles

extension Demo {
  /// The Mandelbrot explorer and its tiles (`/tiles/mandelbrot/Z/X/Y.png`).
  static let mandelbrot = Demo(
    page: "mandelbrot", title: "Mandelbrot explorer",
    summary: "Tap a quadrant to zoom 2x, or drag, wheel and pinch through server-rendered tiles.",
    seed: "iOS – Mandelbrot", group: .explorers, frame: Frame(560, 620),
    routes: { context in
      let limits = context.environment.limits
      let tiles = ColdResourceService(
        TileResource(renderer: TileResource.renderer()), name: "tiles",
        cacheBytes: limits[.tileCacheBytes],
        limits: limits.queue(
          running: 2, waiting: .tileQueue, perClient: .tileRendersPerClient, deadline: .tileWait))
      context.meters.add(
        tiles, name: "tiles", perClient: Limit.tileRendersPerClient.name,
        queue: Limit.tileQueue.name,
        wait: Limit.tileWait.name)
      return [
        Route(
          [.get], "/tiles/mandelbrot/{tile...}", [.crossOrigin], example: ["0", "0", "0.png"]
        ) { (call, path: PathSegments) in
          tiles.respond(to: call.request, path: path.segments, client: call.client)
        }
      ]
    })
}
