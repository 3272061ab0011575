/// A grid of sample points in the complex plane: where each pixel of an image is computed.
///
/// Pixel (i, j) samples its centre, `c = left + (i + 0.5)·step + i·(top - (j + 0.5)·step)`, with
/// row 0 at the top. The arithmetic matches `shared/bench/mandel_tile.h` operation for operation,
/// so every kernel sees bit-identical `c`. Tiles past the double limit use
/// `PerturbationViewport` instead.
public struct Viewport: Sendable, Hashable {
  /// Real part of the left edge.
  public var left: Double
  /// Imaginary part of the top edge.
  public var top: Double
  /// Distance between neighbouring samples, the same along both axes.
  public var step: Double
  /// Number of columns.
  public var width: Int
  /// Number of rows.
  public var height: Int

  /// A viewport with explicit edges and spacing.
  public init(left: Double, top: Double, step: Double, width: Int, height: Int) {
    precondition(width > 0 && height > 0, "a viewport needs at least one pixel")
    self.left = left
    self.top = top
    self.step = step
    self.width = width
    self.height = height
  }

  /// The 256x256 grid of a quadtree tile: side = 3/2^Z, left = -2 + X·side, top = 1.5 - Y·side.
  /// The tile must be shallow (`TileCoordinate.isShallow`).
  public init(tile: TileCoordinate) {
    precondition(tile.isShallow, "tiles past the double limit need a PerturbationViewport")
    let side = 3.0 / Double(1 << tile.zoom)
    self.init(
      left: -2.0 + Double(tile.x.intValue!) * side, top: 1.5 - Double(tile.y.intValue!) * side,
      step: side / Double(TileCoordinate.size), width: TileCoordinate.size,
      height: TileCoordinate.size)
  }

  /// The real part of column `i`'s centre.
  @inline(__always)
  public func real(column i: Int) -> Double {
    left + (Double(i) + 0.5) * step
  }

  /// The imaginary part of row `j`'s centre.
  @inline(__always)
  public func imaginary(row j: Int) -> Double {
    top - (Double(j) + 0.5) * step
  }

  /// The pixel spacing relative to the largest |coordinate| in view: where it nears 1e-15,
  /// doubles can no longer tell neighbouring pixels apart.
  public var relativePixelSize: Double {
    let right = left + Double(width) * step
    let bottom = top - Double(height) * step
    let largest = max(abs(left), abs(right), abs(top), abs(bottom))
    return largest > 0 ? step / largest : 1
  }
}
