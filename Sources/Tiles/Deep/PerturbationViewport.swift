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

  /// Half the anchor's side in half-pixels: offsets inside it are below this.
  static let halfSide = 1 << (levelsUp + 8)

  /// The numerator of pixel i's real offset from the anchor's centre, in units of
  /// 2^-(Z + 9) (an odd number of half-pixels, times 3).
  @inline(__always)
  func numerator(column i: Int) -> Int {
    3 * (512 * column + 2 * i + 1 - Self.halfSide)
  }

  /// The numerator of pixel j's imaginary offset from the anchor's centre (rows go down).
  @inline(__always)
  func numerator(row j: Int) -> Int {
    -3 * (512 * row + 2 * j + 1 - Self.halfSide)
  }

  /// The offset of pixel (i, j) from a reference at numerators `reference` as doubles (zero or
  /// subnormal past about 1e-308).
  @inline(__always)
  func offset(column i: Int, row j: Int, from reference: (x: Int, y: Int)) -> (Double, Double) {
    (
      scalbn(Double(numerator(column: i) - reference.x), unitExponent),
      scalbn(Double(numerator(row: j) - reference.y), unitExponent)
    )
  }

  /// The same offset in extended form, exact at any depth.
  func extendedOffset(column i: Int, row j: Int, from reference: (x: Int, y: Int))
    -> ExtendedComplex
  {
    ExtendedComplex(
      re: Double(numerator(column: i) - reference.x), im: Double(numerator(row: j) - reference.y),
      exponent: unitExponent)
  }

  /// A bound on |dc| for any pixel of the anchor and a reference inside it, as mantissa and
  /// power of two.
  var maxOffset: (mantissa: Double, exponent: Int) {
    (6 * Double(Self.halfSide) * 2.0.squareRoot(), unitExponent)
  }

  /// Points the reference may be, as numerators from the anchor's centre: the centre, then an
  /// 8 x 8 grid of pixel centres over the anchor. A reference that stays bounded as long as the
  /// pixels do keeps their deltas small; one that escapes early leaves them to plain doubles.
  static let candidates: [(x: Int, y: Int)] =
    [(0, 0)]
    + (0..<64).map { index in
      let step = halfSide / 4
      return (3 * ((index % 8 * 2 - 7) * step / 2 + 1), -3 * ((index / 8 * 2 - 7) * step / 2 + 1))
    }

  /// Whether offsets must start in extended form: the pixel spacing, 3·2^-(Z + 8), is below
  /// 2^-900, where squares and products of deltas would leave the double range.
  public var needsExtendedRange: Bool { tile.zoom >= 892 }

  /// Fraction limbs that carry the reference point and its orbit: the pixel's bits plus 64.
  var limbCount: Int { 2 + (tile.zoom + 9 + 64) / 64 }

  /// A candidate reference point, exactly: the anchor's centre plus numerators·2^-(Z + 9).
  func point(at candidate: (x: Int, y: Int)) -> (x: BigFixed, y: BigFixed) {
    let (x, y) = centre
    let limbs = limbCount
    func shift(_ n: Int) -> BigFixed {
      BigFixed(
        numerator: [UInt64(n.magnitude)], overTwoToThe: -unitExponent, isNegative: n < 0,
        limbCount: limbs)
    }
    return (x + shift(candidate.x), y + shift(candidate.y))
  }

  /// The anchor's centre, exactly: (-2 + 3·(2X + 1)/2^(L + 1), 1.5 - 3·(2Y + 1)/2^(L + 1)) for
  /// the anchor (L, X, Y).
  public var centre: (x: BigFixed, y: BigFixed) {
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
