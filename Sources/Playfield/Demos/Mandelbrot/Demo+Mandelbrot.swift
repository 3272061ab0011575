import Dispatch
import Tiles

extension Demo {
  /// The Mandelbrot explorer and its tiles (`/tiles/mandelbrot/Z/X/Y.png`).
  static let mandelbrot = Demo(
    page: "mandelbrot", title: "Mandelbrot explorer",
    summary: "Tap a quadrant to zoom 2x, or drag, wheel and pinch through server-rendered tiles.",
    seed: "iOS – Mandelbrot", group: .explorers, frame: Frame(560, 620),
    routes: { context in
      let environment = context.environment
      let tiles = ColdResourceService(
        TileResource(renderer: TileRenderer()), cacheBytes: environment.tileCacheBytes,
        limits: .init(
          running: 2, waiting: environment.tileQueueLength,
          perClient: environment.tileRendersPerClient,
          perAddress: environment.tileRendersPerClient * environment.familiesPerAddress,
          deadline: environment.tileWaitSeconds),
        workers: DispatchQueue(
          label: "playfield.tiles", qos: .userInitiated, attributes: .concurrent))
      return [
        Route(
          [.get], "/tiles/mandelbrot/{tile...}", [.crossOrigin], example: ["0", "0", "0.png"]
        ) { (call, path: PathSegments) in
          tiles.respond(to: call.request, path: path.segments, client: call.client)
        }
      ]
    })
}
