/// A tile's column or row: a whole number of any size, since level Z has 2^Z of each.
public struct TileIndex: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Little-endian 64-bit limbs without high zero limbs (zero has none).
  let limbs: [UInt64]

  init(limbs: [UInt64]) {
    self.limbs = Limbs.trimmed(limbs)
  }

  /// The index `value`, which must not be negative.
  public init(_ value: Int) {
    precondition(value >= 0, "a tile index is never negative")
    self.init(limbs: [UInt64(value)])
  }

  /// The value of a string of ASCII digits (leading zeros allowed), or nil if it has anything else.
  public init?(decimal text: Substring) {
    guard !text.isEmpty else { return nil }
    var limbs: [UInt64] = []
    for character in text.utf8 {
      guard (48...57).contains(character) else { return nil }
      limbs = Limbs.multiplyAdd(limbs, 10, UInt64(character - 48))
    }
    self.init(limbs: limbs)
  }

  /// Bits needed to write the index: it is below 2^Z exactly when `bitWidth` ≤ Z.
  public var bitWidth: Int { Limbs.bitWidth(limbs) }

  /// The value as an Int when it fits in 62 bits, else nil.
  public var intValue: Int? {
    guard bitWidth <= 62 else { return nil }
    return Int(limbs.first ?? 0)
  }

  /// The low `bits` bits (at most 62) as an Int.
  public func low(_ bits: Int) -> Int {
    precondition((0...62).contains(bits), "too many low bits")
    return Int((limbs.first ?? 0) & ((1 << UInt64(bits)) - 1))
  }

  /// The index of the ancestor `levels` levels up: floor(self / 2^levels).
  public func ancestor(_ levels: Int) -> TileIndex {
    TileIndex(limbs: Limbs.shiftedRight(limbs, by: levels))
  }

  /// 2·self + 1: the numerator of the centre, in units of half a tile.
  var centreNumerator: TileIndex {
    TileIndex(limbs: Limbs.multiplyAdd(limbs, 2, 1))
  }

  /// The decimal digits.
  public var description: String { Limbs.decimal(limbs) }

  public static func < (a: TileIndex, b: TileIndex) -> Bool {
    Limbs.compare(a.limbs, b.limbs) < 0
  }
}
