import Foundation

/// Turns a tile request into PNG bytes: escape counts, colours, libpng. Pure and thread-safe.
public struct TileRenderer: Sendable {
  /// The kernel that computes the counts.
  public var kernel: EscapeTimeKernel
  /// Threads one tile may use.
  public var threads: Int
  /// zlib and filter settings for palette PNGs.
  public var paletteOptions: PNGEncoder.Options
  /// zlib and filter settings for RGB PNGs.
  public var rgbOptions: PNGEncoder.Options

  /// A renderer; by default the fastest kernel on every core.
  public init(
    kernel: EscapeTimeKernel = .preferred,
    threads: Int = ProcessInfo.processInfo.activeProcessorCount,
    paletteOptions: PNGEncoder.Options = .palette, rgbOptions: PNGEncoder.Options = .rgb
  ) {
    self.kernel = kernel
    self.threads = max(1, threads)
    self.paletteOptions = paletteOptions
    self.rgbOptions = rgbOptions
  }

  /// The escape counts of `request`'s tile, with smooth counts when its palette needs them.
  public func field(for request: TileRequest) -> EscapeField {
    kernel.render(
      Viewport(tile: request.tile), maxIterations: request.iterations,
      smooth: request.palette.isSmooth, threads: threads)
  }

  /// The PNG of `request`.
  public func png(for request: TileRequest) throws(PNGError) -> [UInt8] {
    let image = TileImage(field: field(for: request), palette: request.palette)
    return try image.encodePNG(paletteOptions: paletteOptions, rgbOptions: rgbOptions)
  }
}
