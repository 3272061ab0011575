/// A 256x256 tile of the Mandelbrot quadtree: level `zoom`, column `x`, row `y` (row 0 at the top).
///
/// Level 0 is the seed's whole window, x in [-2, 1] and y in [-1.5, 1.5]; each level halves the
/// side, so level `zoom` has `2^zoom` columns and rows.
public struct TileCoordinate: Sendable, Hashable, CustomStringConvertible {
  /// The deepest level served. A tile's pixel there is `3 / 2^50`, about 2.7e-15: twelve units in
  /// the last place of a coordinate in [1, 2), or 1.3e-15 relative to |c| = 2. One level deeper
  /// and neighbouring pixels are only six ulps apart while the orbit's rounding error grows with
  /// every iteration, so plain doubles draw blocky noise. Deeper zoom needs a perturbation kernel.
  public static let maxZoom = 42
  /// The side of one tile in pixels.
  public static let size = 256

  /// Quadtree level, 0...`maxZoom`.
  public let zoom: Int
  /// Column, 0..<2^zoom, counted from the left.
  public let x: Int
  /// Row, 0..<2^zoom, counted from the top.
  public let y: Int

  /// Validates and creates a coordinate, or returns nil when it names no tile.
  public init?(zoom: Int, x: Int, y: Int) {
    guard (0...Self.maxZoom).contains(zoom) else { return nil }
    let count = 1 << zoom
    guard (0..<count).contains(x), (0..<count).contains(y) else { return nil }
    self.zoom = zoom
    self.x = x
    self.y = y
  }

  /// `Z/X/Y`, as in the tile's URL.
  public var description: String { "\(zoom)/\(x)/\(y)" }
}
