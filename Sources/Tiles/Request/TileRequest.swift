/// A parsed, validated request for a Mandelbrot tile: `/tiles/mandelbrot/Z/X/Y.png?iter=N&palette=P`.
///
/// Equal requests produce identical PNG bytes, so a request is also the tile cache's key and
/// the source of the ETag.
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
  /// How counts become colours.
  public var palette: Palette

  /// A request for `tile` with the given options.
  public init(
    tile: TileCoordinate, iterations: Int = TileRequest.defaultIterations,
    palette: Palette = .default
  ) {
    precondition(Self.iterationRange.contains(iterations), "iterations out of range")
    self.tile = tile
    self.iterations = iterations
    self.palette = palette
  }

  /// A strong ETag naming every input of the picture (RFC 9110 §8.8.3).
  public var etag: String {
    "\"mandelbrot-v\(Self.renderVersion)-\(tile.zoom)-\(tile.x)-\(tile.y)-\(iterations)-\(palette.rawValue)\""
  }

  /// The canonical URL path and query of this tile.
  public var description: String {
    "/tiles/mandelbrot/\(tile).png?iter=\(iterations)&palette=\(palette.rawValue)"
  }
}
