extension Demo {
  /// The Apollonian sphere viewer and the packing service it reads (`/api/spheres/R/L`).
  static let apollonian = Demo(
    page: "apollonian", title: "Apollonian spheres",
    summary: "An Apollonian sphere packing computed on the server, drawn with WebGL2: "
      + "levels 0 to 10, drag to turn, wheel or pinch to zoom.",
    seed: "3D viewer for our Apollonian service", group: .explorers,
    routes: { context in
      let limits = context.environment.limits
      let spheres = ColdResourceService(
        SphereResource(), name: "spheres", cacheBytes: limits[.sphereCacheBytes],
        limits: limits.queue(
          running: 1, waiting: .sphereQueue, perClient: .sphereComputationsPerClient,
          deadline: .sphereWait))
      context.meters.add(
        spheres, name: "spheres", perClient: Limit.sphereComputationsPerClient.name,
        queue: Limit.sphereQueue.name,
        wait: Limit.sphereWait.name)
      return [
        Route(
          [.get], "/api/spheres/{radius}/{level}", [.api, .crossOrigin], example: ["1", "0"]
        ) { (call, path: PathSegments) in
          spheres.respond(to: call.request, path: path.segments, client: call.client)
        }
      ]
    })
}
