import Foundation

/// A signed fixed-point number of `limbCount` 64-bit limbs: one integer limb and
/// `limbCount - 1` fraction limbs, so |value| < 2^64 with 64·(limbCount - 1) bits after the
/// point. Reference orbits stay inside |z| ≤ 2 (plus one step), so fixed point is enough;
/// products are truncated to the same width.
public struct BigFixed: Sendable, Equatable {
  /// Whether the value is below zero (never set for zero itself).
  public private(set) var isNegative: Bool
  /// |value|·2^(64·(limbCount - 1)), little-endian, exactly `limbCount` limbs.
  var magnitude: [UInt64]

  /// Limbs in all, the integer limb included.
  public var limbCount: Int { magnitude.count }
  /// Bits after the point.
  public var fractionBits: Int { 64 * (magnitude.count - 1) }

  init(isNegative: Bool, magnitude: [UInt64]) {
    self.magnitude = magnitude
    self.isNegative = isNegative && magnitude.contains { $0 != 0 }
  }

  /// Zero with `limbCount` limbs.
  public init(limbCount: Int) {
    precondition(limbCount >= 2, "a BigFixed needs an integer and a fraction limb")
    self.init(isNegative: false, magnitude: [UInt64](repeating: 0, count: limbCount))
  }

  /// The whole number `value` with `limbCount` limbs.
  public init(_ value: Int, limbCount: Int) {
    self.init(limbCount: limbCount)
    magnitude[limbCount - 1] = value.magnitude.toUInt64
    isNegative = value < 0
  }

  /// ±numerator / 2^exponent, exactly; the fraction must fit in `limbCount - 1` limbs and the
  /// value below 2^64.
  init(numerator: [UInt64], overTwoToThe exponent: Int, isNegative: Bool = false, limbCount: Int) {
    let fractionBits = 64 * (limbCount - 1)
    precondition(exponent <= fractionBits, "not enough fraction limbs")
    var shifted = Limbs.shiftedLeft(numerator, by: fractionBits - exponent)
    precondition(shifted.count <= limbCount, "too large for fixed point")
    shifted += [UInt64](repeating: 0, count: limbCount - shifted.count)
    self.init(isNegative: isNegative, magnitude: shifted)
  }

  /// The nearest Double (truncated below the top 128 significant bits).
  public var doubleValue: Double {
    guard let top = magnitude.lastIndex(where: { $0 != 0 }) else { return 0 }
    var value = 0.0
    for index in stride(from: top, through: max(0, top - 2), by: -1) {
      value += scalbn(Double(magnitude[index]), 64 * (index - (limbCount - 1)))
    }
    return isNegative ? -value : value
  }

  /// The value as mantissa·2^exponent with the mantissa's top bit in its first 64 (truncated
  /// below the top 128 significant bits), so tiny values keep their digits; (0, 0) for zero.
  var scaled: (mantissa: Double, exponent: Int) {
    guard let top = magnitude.lastIndex(where: { $0 != 0 }) else { return (0, 0) }
    var value = 0.0
    for index in stride(from: top, through: max(0, top - 2), by: -1) {
      value += scalbn(Double(magnitude[index]), 64 * (index - top))
    }
    return (isNegative ? -value : value, 64 * (top - (limbCount - 1)))
  }

  /// The value with the opposite sign.
  public static prefix func - (value: BigFixed) -> BigFixed {
    BigFixed(isNegative: !value.isNegative, magnitude: value.magnitude)
  }

  /// The exact sum; both operands must have the same width.
  public static func + (a: BigFixed, b: BigFixed) -> BigFixed {
    precondition(a.limbCount == b.limbCount, "mixed widths")
    if a.isNegative == b.isNegative {
      var sum = Limbs.add(a.magnitude, b.magnitude)
      sum.removeLast(sum.count - a.limbCount)
      return BigFixed(isNegative: a.isNegative, magnitude: sum)
    }
    if Limbs.compare(a.magnitude, b.magnitude) >= 0 {
      return BigFixed(isNegative: a.isNegative, magnitude: Limbs.subtract(a.magnitude, b.magnitude))
    }
    return BigFixed(isNegative: b.isNegative, magnitude: Limbs.subtract(b.magnitude, a.magnitude))
  }

  /// The exact difference.
  public static func - (a: BigFixed, b: BigFixed) -> BigFixed {
    a + -b
  }

  /// The product, truncated toward zero to the operands' width.
  public static func * (a: BigFixed, b: BigFixed) -> BigFixed {
    precondition(a.limbCount == b.limbCount, "mixed widths")
    let n = a.limbCount
    var product = [UInt64](repeating: 0, count: 2 * n)
    a.magnitude.withUnsafeBufferPointer { a in
      b.magnitude.withUnsafeBufferPointer { b in
        product.withUnsafeMutableBufferPointer { product in
          for i in 0..<n where a[i] != 0 {
            var carry: UInt64 = 0
            for j in 0..<n {
              let (high, low) = a[i].multipliedFullWidth(by: b[j])
              let (s1, o1) = product[i + j].addingReportingOverflow(low)
              let (s2, o2) = s1.addingReportingOverflow(carry)
              product[i + j] = s2
              carry = high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
            }
            product[i + n] = carry
          }
        }
      }
    }
    return BigFixed(
      isNegative: a.isNegative != b.isNegative, magnitude: Array(product[(n - 1)..<(2 * n - 1)]))
  }

  /// 2·value, exactly.
  public var doubled: BigFixed {
    self + self
  }
}

extension UInt {
  fileprivate var toUInt64: UInt64 { UInt64(self) }
}
