import Foundation

/// The update Z ← Z² + C of `ReferenceOrbit` on preallocated limbs, with exactly `BigFixed`'s
/// arithmetic (the same sums, the same truncated products, in the same order) but no
/// allocation per update: 1.5 to 1.7 times as fast at 1e-300 and 1e-600 (benchmarks.md).
///
/// Numbers are sign and magnitude, `limbs` little-endian 64-bit limbs, the last one the
/// integer part, as in `BigFixed`; zero is never negative.
struct OrbitStepper: ~Copyable {
  let limbs: Int
  /// zx, zy, cx, cy, then scratch: the sum, the difference, and a double-width product.
  private let storage: UnsafeMutablePointer<UInt64>
  private var signs: (zx: Bool, zy: Bool, cx: Bool, cy: Bool) = (false, false, false, false)

  private var zx: UnsafeMutablePointer<UInt64> { storage }
  private var zy: UnsafeMutablePointer<UInt64> { storage + limbs }
  private var cx: UnsafeMutablePointer<UInt64> { storage + 2 * limbs }
  private var cy: UnsafeMutablePointer<UInt64> { storage + 3 * limbs }
  private var sum: UnsafeMutablePointer<UInt64> { storage + 4 * limbs }
  private var difference: UnsafeMutablePointer<UInt64> { storage + 5 * limbs }
  private var product: UnsafeMutablePointer<UInt64> { storage + 6 * limbs }

  /// Z = 0 and C = (cx, cy).
  init(cx: BigFixed, cy: BigFixed) {
    precondition(cx.limbCount == cy.limbCount, "mixed widths")
    limbs = cx.limbCount
    storage = .allocate(capacity: 8 * limbs)
    storage.initialize(repeating: 0, count: 8 * limbs)
    for index in 0..<limbs {
      self.cx[index] = cx.magnitude[index]
      self.cy[index] = cy.magnitude[index]
    }
    signs.cx = cx.isNegative
    signs.cy = cy.isNegative
  }

  deinit {
    storage.deallocate()
  }

  /// Z as `BigFixed`.
  var z: (x: BigFixed, y: BigFixed) {
    (
      BigFixed(
        isNegative: signs.zx, magnitude: Array(UnsafeBufferPointer(start: zx, count: limbs))),
      BigFixed(isNegative: signs.zy, magnitude: Array(UnsafeBufferPointer(start: zy, count: limbs)))
    )
  }

  /// Z as doubles, as `BigFixed.doubleValue` rounds them.
  var doubles: (x: Double, y: Double) {
    (Self.double(zx, limbs, signs.zx), Self.double(zy, limbs, signs.zy))
  }

  /// One update, as `ReferenceOrbit` writes it with `BigFixed`:
  /// x ← (x + y)·(x − y) + cx, y ← 2·(x·y) + cy.
  mutating func step() {
    let n = limbs
    // The sum and difference of x and y, exactly.
    let sumSign = Self.add(zx, signs.zx, zy, signs.zy, into: sum, n)
    let differenceSign = Self.add(zx, signs.zx, zy, !signs.zy, into: difference, n)
    // y ← 2·(x·y) + cy, from the old x and y.
    Self.multiply(zx, zy, into: product, n)
    var productSign = Self.normalised(signs.zx != signs.zy, product + (n - 1), n)
    let doubledSign = Self.add(
      product + (n - 1), productSign, product + (n - 1), productSign, into: zy, n)
    signs.zy = Self.add(zy, doubledSign, cy, signs.cy, into: zy, n)
    // x ← (x + y)·(x − y) + cx.
    Self.multiply(sum, difference, into: product, n)
    productSign = Self.normalised(sumSign != differenceSign, product + (n - 1), n)
    signs.zx = Self.add(product + (n - 1), productSign, cx, signs.cx, into: zx, n)
  }

  /// The sign of a value with this magnitude: never negative when it is zero.
  private static func normalised(
    _ negative: Bool, _ magnitude: UnsafeMutablePointer<UInt64>, _ n: Int
  ) -> Bool {
    guard negative else { return false }
    for index in 0..<n where magnitude[index] != 0 { return true }
    return false
  }

  /// result ← ±a + ±b exactly (the carry past the top limb dropped, as `BigFixed` drops it);
  /// returns the result's sign. `result` may be `a` or `b`.
  private static func add(
    _ a: UnsafeMutablePointer<UInt64>, _ aNegative: Bool, _ b: UnsafeMutablePointer<UInt64>,
    _ bNegative: Bool, into result: UnsafeMutablePointer<UInt64>, _ n: Int
  ) -> Bool {
    if aNegative == bNegative {
      var carry: UInt64 = 0
      for index in 0..<n {
        let (s1, o1) = a[index].addingReportingOverflow(b[index])
        let (s2, o2) = s1.addingReportingOverflow(carry)
        result[index] = s2
        carry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
      }
      return normalised(aNegative, result, n)
    }
    var order = 0
    for index in stride(from: n - 1, through: 0, by: -1) where a[index] != b[index] {
      order = a[index] < b[index] ? -1 : 1
      break
    }
    let (larger, smaller, negative) = order >= 0 ? (a, b, aNegative) : (b, a, bNegative)
    var borrow: UInt64 = 0
    for index in 0..<n {
      let (d1, o1) = larger[index].subtractingReportingOverflow(smaller[index])
      let (d2, o2) = d1.subtractingReportingOverflow(borrow)
      result[index] = d2
      borrow = (o1 ? 1 : 0) + (o2 ? 1 : 0)
    }
    return normalised(negative, result, n)
  }

  /// product ← a·b, all 2n limbs.
  private static func multiply(
    _ a: UnsafeMutablePointer<UInt64>, _ b: UnsafeMutablePointer<UInt64>,
    into product: UnsafeMutablePointer<UInt64>, _ n: Int
  ) {
    product.update(repeating: 0, count: 2 * n)
    for i in 0..<n where a[i] != 0 {
      var carry: UInt64 = 0
      let ai = a[i]
      for j in 0..<n {
        let (high, low) = ai.multipliedFullWidth(by: b[j])
        let (s1, o1) = product[i + j].addingReportingOverflow(low)
        let (s2, o2) = s1.addingReportingOverflow(carry)
        product[i + j] = s2
        carry = high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
      }
      product[i + n] = carry
    }
  }

  /// `BigFixed.doubleValue` of a magnitude and sign.
  private static func double(_ magnitude: UnsafeMutablePointer<UInt64>, _ n: Int, _ negative: Bool)
    -> Double
  {
    var top = n - 1
    while top >= 0 && magnitude[top] == 0 { top -= 1 }
    guard top >= 0 else { return 0 }
    var value = 0.0
    for index in stride(from: top, through: max(0, top - 2), by: -1) {
      value += scalbn(Double(magnitude[index]), 64 * (index - (n - 1)))
    }
    return negative ? -value : value
  }
}
