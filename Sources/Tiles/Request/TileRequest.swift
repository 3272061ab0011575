/// A parsed, validated request for a Mandelbrot tile: `/tiles/mandelbrot/Z/X/Y.png?iter=N&palette=P`,
/// or its escape counts, `/tiles/mandelbrot/Z/X/Y.counts?iter=N`.
///
/// Equal requests produce identical bytes, so a request is also the tile cache's key and the
/// source of the ETag.
public struct TileRequest: Sendable, Hashable, CustomStringConvertible {
  /// The iteration cap when the query gives none: the seed's 200.
  public static let defaultIterations = 200
  /// The accepted values of `iter`.
  public static let iterationRange = 1...100_000
  /// Bumped whenever the pixels for a given request change, so stale ETags stop matching.
  public static let renderVersion = 1

  /// Which tile.
  public var tile: TileCoordinate
  /// The iteration cap, within `iterationRange`.
  public var iterations: Int
  /// How counts become colours (always the default for `.counts`).
  public var palette: Palette
  /// A picture or the counts.
  public var format: TileFormat

  /// A request for `tile` with the given options.
  public init(
    tile: TileCoordinate, iterations: Int = TileRequest.defaultIterations,
    palette: Palette = .default, format: TileFormat = .png
  ) {
    precondition(Self.iterationRange.contains(iterations), "iterations out of range")
    self.tile = tile
    self.iterations = iterations
    self.palette = palette
    self.format = format
  }

  /// A strong ETag naming every input of the body (RFC 9110 §8.8.3).
  public var etag: String {
    switch format {
    case .png:
      "\"mandelbrot-v\(Self.renderVersion)-\(tile.zoom)-\(tile.x)-\(tile.y)-\(iterations)-\(palette.rawValue)\""
    case .counts:
      "\"mandelbrot-counts-v\(Self.renderVersion)-\(tile.zoom)-\(tile.x)-\(tile.y)-\(iterations)\""
    }
  }

  /// The canonical URL path and query of this tile.
  public var description: String {
    switch format {
    case .png: "/tiles/mandelbrot/\(tile).png?iter=\(iterations)&palette=\(palette.rawValue)"
    case .counts: "/tiles/mandelbrot/\(tile).counts?iter=\(iterations)"
    }
  }
}
