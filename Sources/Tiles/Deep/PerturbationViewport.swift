import Foundation

/// Where a deep tile's pixels lie relative to the centre C of the ancestor tile `levelsUp`
/// levels above it (the anchor), which all the tile's near neighbours share, and to a
/// reference point near C.
///
/// Tile corners are exact binary fractions, so the offsets are exact: pixel (i, j) of tile
/// (Z, X, Y) is c = C + 3·(512·x + 2i + 1 - 2^(levelsUp + 8))·2^-(Z + 9) along the real axis,
/// where x = X mod 2^levelsUp, and the same with a minus sign for rows; a reference point is
/// C plus whole multiples of 2^-(Z + 9 + fineBits), so dc = c - reference is exact too.
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

  /// Bits below the offset unit that a reference point may have: a reference is a multiple
  /// of 2^-(Z + 9 + fineBits), so that pixel offsets from it are still exact doubles. A
  /// nucleus found by Newton's method is rounded to this grid, 2^-36 of the unit.
  static let fineBits = 36

  /// How far a reference may lie from the anchor's centre, in fine numerators along either
  /// axis: 8 half-sides of the anchor (a nucleus may lie outside it), 2^52.6, so that pixel
  /// offsets (below 2^49.6 + 2^52.6 < 2^53) stay exact doubles.
  static let referenceReach = Double(24 * halfSide) * 0x1p36

  /// The unit of a reference point's numerators, 2^-(Z + 9 + fineBits).
  var fineExponent: Int { unitExponent - Self.fineBits }

  /// Pixel i's real numerator in the reference's finer units.
  @inline(__always)
  func fineNumerator(column i: Int) -> Int { numerator(column: i) << Self.fineBits }

  /// Pixel j's imaginary numerator in the reference's finer units.
  @inline(__always)
  func fineNumerator(row j: Int) -> Int { numerator(row: j) << Self.fineBits }

  /// The offset of pixel (i, j) from a reference at fine numerators `reference` as doubles
  /// (zero or subnormal past about 1e-308).
  @inline(__always)
  func offset(column i: Int, row j: Int, from reference: (x: Int, y: Int)) -> (Double, Double) {
    (
      scalbn(Double(fineNumerator(column: i) - reference.x), fineExponent),
      scalbn(Double(fineNumerator(row: j) - reference.y), fineExponent)
    )
  }

  /// The same offset in extended form, exact at any depth.
  func extendedOffset(column i: Int, row j: Int, from reference: (x: Int, y: Int))
    -> ExtendedComplex
  {
    ExtendedComplex(
      re: Double(fineNumerator(column: i) - reference.x),
      im: Double(fineNumerator(row: j) - reference.y), exponent: fineExponent)
  }

  /// A bound on |dc| for any pixel of the anchor and a reference at fine numerators
  /// `reference`, as mantissa and power of two: 6·halfSide·√2 units for a reference inside
  /// the anchor, more for one outside it.
  func maxOffset(from reference: (x: Int, y: Int)) -> (mantissa: Double, exponent: Int) {
    let side = 3 * Double(Self.halfSide)
    let farthest = max(
      side, scalbn(Double(max(reference.x.magnitude, reference.y.magnitude)), -Self.fineBits))
    return ((side + farthest) * 2.0.squareRoot(), unitExponent)
  }

  /// Points the reference may be when no nucleus serves, as fine numerators from the anchor's
  /// centre: the centre, then an 8 x 8 grid of pixel centres over the anchor. A reference that
  /// stays bounded as long as the pixels do keeps their deltas small; one that escapes early
  /// leaves them to plain doubles.
  static let candidates: [(x: Int, y: Int)] =
    [(0, 0)]
    + (0..<64).map { index in
      let step = halfSide / 4
      return (
        3 * ((index % 8 * 2 - 7) * step / 2 + 1) << fineBits,
        -3 * ((index / 8 * 2 - 7) * step / 2 + 1) << fineBits
      )
    }

  /// Whether offsets must start in extended form: the pixel spacing, 3·2^-(Z + 8), is below
  /// 2^-900, where squares and products of deltas would leave the double range.
  public var needsExtendedRange: Bool { tile.zoom >= 892 }

  /// Fraction limbs that carry the reference point and its orbit: the pixel's bits plus 64.
  var limbCount: Int { 2 + (tile.zoom + 9 + 64) / 64 }

  /// A reference point, exactly: the anchor's centre plus fine numerators
  /// ·2^-(Z + 9 + fineBits).
  func point(at candidate: (x: Int, y: Int)) -> (x: BigFixed, y: BigFixed) {
    let (x, y) = centre
    let limbs = limbCount
    func shift(_ n: Int) -> BigFixed {
      BigFixed(
        numerator: [UInt64(n.magnitude)], overTwoToThe: -fineExponent, isNegative: n < 0,
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
