import Foundation

/// Where a deep tile's pixels lie relative to its reference point, the centre of the ancestor
/// tile `levelsUp` levels above it, which all the tile's near neighbours share.
///
/// Tile corners are exact binary fractions, so the offsets are exact: pixel (i, j) of tile
/// (Z, X, Y) is c = C + dc with dc = 3·(512·x + 2i + 1 - 2^(levelsUp + 8))·2^-(Z + 9) along
/// the real axis, where x = X mod 2^levelsUp, and the same with a minus sign for rows.
public struct PerturbationViewport: Sendable, Hashable {
  /// Levels between a tile and the tile whose centre is its reference point.
  public static let levelsUp = 4

  /// The tile drawn.
  public let tile: TileCoordinate
  /// The ancestor whose centre is the reference point.
  public let anchor: TileCoordinate
  /// The tile's column and row inside the anchor, 0..<2^levelsUp.
  let column: Int
  let row: Int

  /// The viewport of `tile`, which must be at least `levelsUp` levels deep.
  public init(tile: TileCoordinate) {
    let up = Self.levelsUp
    precondition(tile.zoom >= up, "a perturbation tile is at least \(up) levels deep")
    self.tile = tile
    anchor = TileCoordinate(zoom: tile.zoom - up, x: tile.x.ancestor(up), y: tile.y.ancestor(up))!
    column = tile.x.low(up)
    row = tile.y.low(up)
  }

  /// 2^-(Z + 9): the unit of the offsets' numerators.
  var unitExponent: Int { -(tile.zoom + 9) }

  /// The numerator of pixel i's real offset (j's imaginary offset is minus `numerator(row:)`).
  @inline(__always)
  func numerator(column i: Int) -> Int {
    3 * (512 * column + 2 * i + 1 - (1 << (Self.levelsUp + 8)))
  }

  @inline(__always)
  func numerator(row j: Int) -> Int {
    -3 * (512 * row + 2 * j + 1 - (1 << (Self.levelsUp + 8)))
  }

  /// The offset of pixel (i, j) from the reference point as doubles (zero or subnormal past
  /// about 1e-308).
  @inline(__always)
  func offset(column i: Int, row j: Int) -> (Double, Double) {
    (
      scalbn(Double(numerator(column: i)), unitExponent),
      scalbn(Double(numerator(row: j)), unitExponent)
    )
  }

  /// The offset of pixel (i, j) in extended form, exact at any depth.
  func extendedOffset(column i: Int, row j: Int) -> ExtendedComplex {
    ExtendedComplex(
      re: Double(numerator(column: i)), im: Double(numerator(row: j)), exponent: unitExponent)
  }

  /// The largest |dc| over the anchor's tiles, as mantissa and power of two.
  var maxOffset: (mantissa: Double, exponent: Int) {
    (3 * Double(1 << (Self.levelsUp + 8)) * 2.0.squareRoot(), unitExponent)
  }

  /// Whether offsets must start in extended form: the pixel spacing, 3·2^-(Z + 8), is below
  /// 2^-900, where squares and products of deltas would leave the double range.
  public var needsExtendedRange: Bool { tile.zoom >= 892 }

  /// Fraction limbs that carry the reference point and its orbit: the pixel's bits plus 64.
  var limbCount: Int { 2 + (tile.zoom + 9 + 64) / 64 }

  /// The reference point, exactly: (-2 + 3·(2X + 1)/2^(L + 1), 1.5 - 3·(2Y + 1)/2^(L + 1)) for
  /// the anchor (L, X, Y).
  public var reference: (x: BigFixed, y: BigFixed) {
    let limbs = limbCount
    let exponent = anchor.zoom + 1
    let x = BigFixed(
      numerator: Limbs.multiplyAdd(anchor.x.centreNumerator.limbs, 3, 0), overTwoToThe: exponent,
      limbCount: limbs)
    let y = BigFixed(
      numerator: Limbs.multiplyAdd(anchor.y.centreNumerator.limbs, 3, 0), overTwoToThe: exponent,
      limbCount: limbs)
    let threeHalves = BigFixed(numerator: [3], overTwoToThe: 1, limbCount: limbs)
    return (x - BigFixed(2, limbCount: limbs), threeHalves - y)
  }
}
