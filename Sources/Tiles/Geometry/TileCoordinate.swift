/// A 256x256 tile of the Mandelbrot quadtree: level `zoom`, column `x`, row `y` (row 0 at the top).
///
/// Level 0 is the seed's whole window, x in [-2, 1] and y in [-1.5, 1.5]; each level halves the
/// side, so level `zoom` has `2^zoom` columns and rows, numbers of any size.
public struct TileCoordinate: Sendable, Hashable, CustomStringConvertible {
  /// The deepest level drawn with plain doubles. A tile's pixel there is `3 / 2^50`, about
  /// 2.7e-15: twelve units in the last place of a coordinate in [1, 2), or 1.3e-15 relative to
  /// |c| = 2. One level deeper and neighbouring pixels are only six ulps apart while the orbit's
  /// rounding error grows with every iteration, so deeper tiles are drawn by perturbation.
  public static let doubleLimit = 42
  /// The deepest level served: about 1e-602, with reference orbits of 2,073 bits.
  public static let maxZoom = 2000
  /// The side of one tile in pixels.
  public static let size = 256

  /// Quadtree level, 0...`maxZoom`.
  public let zoom: Int
  /// Column, 0..<2^zoom, counted from the left.
  public let x: TileIndex
  /// Row, 0..<2^zoom, counted from the top.
  public let y: TileIndex

  /// Validates and creates a coordinate, or returns nil when it names no tile.
  public init?(zoom: Int, x: TileIndex, y: TileIndex) {
    guard (0...Self.maxZoom).contains(zoom), x.bitWidth <= zoom, y.bitWidth <= zoom else {
      return nil
    }
    self.zoom = zoom
    self.x = x
    self.y = y
  }

  /// The same with small indices; nil also for negative ones.
  public init?(zoom: Int, x: Int, y: Int) {
    guard x >= 0, y >= 0 else { return nil }
    self.init(zoom: zoom, x: TileIndex(x), y: TileIndex(y))
  }

  /// Whether plain doubles draw this tile (else perturbation does).
  public var isShallow: Bool { zoom <= Self.doubleLimit }

  /// `Z/X/Y`, as in the tile's URL.
  public var description: String { "\(zoom)/\(x)/\(y)" }
}
