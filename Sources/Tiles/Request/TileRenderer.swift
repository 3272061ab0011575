import Foundation

/// Turns a tile request into PNG bytes (escape counts, colours, libpng) or the counts' bytes.
/// Pure and thread-safe: the caller supplies the clock for timings and the cancellation.
public struct TileRenderer: Sendable {
  /// The kernel that computes the counts of tiles down to the double limit.
  public var kernel: EscapeTimeKernel
  /// The kernel for deeper tiles.
  public var deepKernel: PerturbationKernel
  /// Reference orbits shared by deep tiles.
  public var orbits: OrbitCache
  /// Threads one tile may use.
  public var threads: Int
  /// Where those threads come from: a pool of the caller's (at a lower priority), else
  /// Dispatch's.
  public var pool: RenderPool?
  /// zlib and filter settings for palette PNGs.
  public var paletteOptions: PNGEncoder.Options
  /// zlib and filter settings for RGB PNGs.
  public var rgbOptions: PNGEncoder.Options

  /// A renderer; by default the fastest kernel on every core.
  public init(
    kernel: EscapeTimeKernel = .preferred, deepKernel: PerturbationKernel = PerturbationKernel(),
    orbits: OrbitCache = OrbitCache(),
    threads: Int = ProcessInfo.processInfo.activeProcessorCount, pool: RenderPool? = nil,
    paletteOptions: PNGEncoder.Options = .palette, rgbOptions: PNGEncoder.Options = .rgb
  ) {
    self.kernel = kernel
    self.deepKernel = deepKernel
    self.orbits = orbits
    self.threads = max(1, threads)
    self.pool = pool
    self.paletteOptions = paletteOptions
    self.rgbOptions = rgbOptions
  }

  /// The escape counts of `request`'s tile, with smooth counts when its palette needs them:
  /// the plain kernel down to `TileCoordinate.doubleLimit`, perturbation below.
  public func field(for request: TileRequest) -> EscapeField {
    // NB: without a cancellation nothing stops early, so it never throws.
    try! field(for: request, cancellation: nil, clock: { 0 }).field
  }

  /// The PNG of `request`.
  public func png(for request: TileRequest) throws(PNGError) -> [UInt8] {
    let image = TileImage(field: field(for: request), palette: request.palette)
    return try image.encodePNG(paletteOptions: paletteOptions, rgbOptions: rgbOptions)
  }

  /// The body of `request` (PNG or counts) and how long its phases took by `clock` (monotonic
  /// seconds); throws `RenderStopped` soon after `cancellation` says so (nothing of the render
  /// is kept), or `PNGError`.
  public func render(
    _ request: TileRequest, cancellation: RenderCancellation? = nil,
    clock: @escaping @Sendable () -> Double
  ) throws -> RenderedTile {
    let start = clock()
    let (field, found) = try field(for: request, cancellation: cancellation, clock: clock)
    let computed = clock()
    let body: [UInt8]
    switch request.format {
    case .png:
      body = try TileImage(field: field, palette: request.palette).encodePNG(
        paletteOptions: paletteOptions, rgbOptions: rgbOptions)
    case .counts:
      body = field.countsBody
    }
    let timings = RenderTimings(
      reference: found.map { $0 - start }, pixels: computed - (found ?? start),
      encoding: clock() - computed)
    return RenderedTile(body: body, timings: timings)
  }

  /// What rendering `request` may cost at most (see `RenderEstimate`); cheap and never blocks.
  public func estimate(for request: TileRequest) -> RenderEstimate {
    let cap = request.iterations
    let pixels = TileCoordinate.size * TileCoordinate.size * cap
    guard !request.tile.isShallow else {
      return RenderEstimate(
        kernel: .plain, pixelUpdates: pixels, referenceUpdates: 0, referenceLimbs: 0)
    }
    let viewport = PerturbationViewport(tile: request.tile)
    let cached = orbits.cachedReference(for: viewport, maxIterations: cap) != nil
    return RenderEstimate(
      kernel: .perturbation, pixelUpdates: pixels, referenceUpdates: cached ? 0 : 4 * cap,
      referenceLimbs: viewport.limbCount)
  }

  /// The counts, and when (by `clock`) the reference was at hand (nil for plain tiles, which
  /// need none).
  private func field(
    for request: TileRequest, cancellation: RenderCancellation?, clock: @Sendable () -> Double
  ) throws(RenderStopped) -> (field: EscapeField, referenceFound: Double?) {
    let smooth = request.format == .png && request.palette.isSmooth
    try cancellation?.check()
    guard !request.tile.isShallow else {
      let field = try kernel.render(
        Viewport(tile: request.tile), maxIterations: request.iterations, smooth: smooth,
        threads: threads, pool: pool, cancellation: cancellation)
      return (field, nil)
    }
    let viewport = PerturbationViewport(tile: request.tile)
    let reference = try orbits.reference(
      for: viewport, maxIterations: request.iterations, cancellation: cancellation)
    let found = clock()
    let field = try deepKernel.render(
      viewport, reference: reference, maxIterations: request.iterations, smooth: smooth,
      threads: threads, pool: pool, cancellation: cancellation)
    return (field, found)
  }
}
