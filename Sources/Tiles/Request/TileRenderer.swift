import Foundation

/// Turns a tile request into PNG bytes: escape counts, colours, libpng. Pure and thread-safe.
public struct TileRenderer: Sendable {
  /// The kernel that computes the counts of tiles down to the double limit.
  public var kernel: EscapeTimeKernel
  /// The kernel for deeper tiles.
  public var deepKernel: PerturbationKernel
  /// Reference orbits shared by deep tiles.
  public var orbits: OrbitCache
  /// Threads one tile may use.
  public var threads: Int
  /// zlib and filter settings for palette PNGs.
  public var paletteOptions: PNGEncoder.Options
  /// zlib and filter settings for RGB PNGs.
  public var rgbOptions: PNGEncoder.Options

  /// A renderer; by default the fastest kernel on every core.
  public init(
    kernel: EscapeTimeKernel = .preferred, deepKernel: PerturbationKernel = PerturbationKernel(),
    orbits: OrbitCache = OrbitCache(),
    threads: Int = ProcessInfo.processInfo.activeProcessorCount,
    paletteOptions: PNGEncoder.Options = .palette, rgbOptions: PNGEncoder.Options = .rgb
  ) {
    self.kernel = kernel
    self.deepKernel = deepKernel
    self.orbits = orbits
    self.threads = max(1, threads)
    self.paletteOptions = paletteOptions
    self.rgbOptions = rgbOptions
  }

  /// The escape counts of `request`'s tile, with smooth counts when its palette needs them:
  /// the plain kernel down to `TileCoordinate.doubleLimit`, perturbation below.
  public func field(for request: TileRequest) -> EscapeField {
    let smooth = request.palette.isSmooth
    guard !request.tile.isShallow else {
      return kernel.render(
        Viewport(tile: request.tile), maxIterations: request.iterations, smooth: smooth,
        threads: threads)
    }
    let viewport = PerturbationViewport(tile: request.tile)
    let reference = orbits.reference(for: viewport, maxIterations: request.iterations)
    return deepKernel.render(
      viewport, reference: reference, maxIterations: request.iterations, smooth: smooth,
      threads: threads)
  }

  /// The PNG of `request`.
  public func png(for request: TileRequest) throws(PNGError) -> [UInt8] {
    let image = TileImage(field: field(for: request), palette: request.palette)
    return try image.encodePNG(paletteOptions: paletteOptions, rgbOptions: rgbOptions)
  }
}
