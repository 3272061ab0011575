/// Arithmetic on unsigned integers of any size held as little-endian 64-bit limbs: the shared
/// core of `TileIndex` and `BigFixed`. Results carry no leading zero limbs unless a fixed width
/// is asked for.
enum Limbs {
  /// `a` without its high zero limbs.
  static func trimmed(_ a: [UInt64]) -> [UInt64] {
    var a = a
    while let last = a.last, last == 0 { a.removeLast() }
    return a
  }

  /// -1, 0 or 1 as `a` is below, equal to or above `b` (both trimmed or of equal width).
  static func compare(_ a: [UInt64], _ b: [UInt64]) -> Int {
    let a = trimmed(a)
    let b = trimmed(b)
    if a.count != b.count { return a.count < b.count ? -1 : 1 }
    for index in stride(from: a.count - 1, through: 0, by: -1) where a[index] != b[index] {
      return a[index] < b[index] ? -1 : 1
    }
    return 0
  }

  /// a + b, as wide as the wider of the two plus a carry limb when needed.
  static func add(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
    let width = max(a.count, b.count)
    var sum = [UInt64](repeating: 0, count: width)
    var carry: UInt64 = 0
    for index in 0..<width {
      let (s1, o1) = (index < a.count ? a[index] : 0).addingReportingOverflow(
        index < b.count ? b[index] : 0)
      let (s2, o2) = s1.addingReportingOverflow(carry)
      sum[index] = s2
      carry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
    }
    if carry != 0 { sum.append(carry) }
    return sum
  }

  /// a - b for a ≥ b, as wide as `a`.
  static func subtract(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
    var difference = a
    var borrow: UInt64 = 0
    for index in 0..<a.count {
      let (d1, o1) = a[index].subtractingReportingOverflow(index < b.count ? b[index] : 0)
      let (d2, o2) = d1.subtractingReportingOverflow(borrow)
      difference[index] = d2
      borrow = (o1 ? 1 : 0) + (o2 ? 1 : 0)
    }
    precondition(borrow == 0, "subtracting a larger number")
    return difference
  }

  /// a·factor + addend.
  static func multiplyAdd(_ a: [UInt64], _ factor: UInt64, _ addend: UInt64) -> [UInt64] {
    var result = [UInt64](repeating: 0, count: a.count)
    var carry = addend
    for index in 0..<a.count {
      let (high, low) = a[index].multipliedFullWidth(by: factor)
      let (sum, overflow) = low.addingReportingOverflow(carry)
      result[index] = sum
      carry = high + (overflow ? 1 : 0)
    }
    if carry != 0 { result.append(carry) }
    return result
  }

  /// a divided by a small divisor: quotient and remainder.
  static func divide(_ a: [UInt64], by divisor: UInt64) -> ([UInt64], UInt64) {
    var quotient = [UInt64](repeating: 0, count: a.count)
    var remainder: UInt64 = 0
    for index in stride(from: a.count - 1, through: 0, by: -1) {
      let (q, r) = divisor.dividingFullWidth((remainder, a[index]))
      quotient[index] = q
      remainder = r
    }
    return (trimmed(quotient), remainder)
  }

  /// a·2^bits.
  static func shiftedLeft(_ a: [UInt64], by bits: Int) -> [UInt64] {
    let limbs = bits / 64
    let rest = UInt64(bits % 64)
    var result = [UInt64](repeating: 0, count: a.count + limbs + 1)
    for index in 0..<a.count {
      result[index + limbs] |= a[index] << rest
      if rest > 0 { result[index + limbs + 1] |= a[index] >> (64 - rest) }
    }
    return trimmed(result)
  }

  /// floor(a / 2^bits).
  static func shiftedRight(_ a: [UInt64], by bits: Int) -> [UInt64] {
    let limbs = bits / 64
    let rest = UInt64(bits % 64)
    guard limbs < a.count else { return [] }
    var result = [UInt64](repeating: 0, count: a.count - limbs)
    for index in 0..<result.count {
      result[index] = a[index + limbs] >> rest
      if rest > 0, index + limbs + 1 < a.count {
        result[index] |= a[index + limbs + 1] << (64 - rest)
      }
    }
    return trimmed(result)
  }

  /// The number of significant bits (0 for zero).
  static func bitWidth(_ a: [UInt64]) -> Int {
    let a = trimmed(a)
    guard let top = a.last else { return 0 }
    return 64 * (a.count - 1) + 64 - top.leadingZeroBitCount
  }

  /// The decimal digits of `a`.
  static func decimal(_ a: [UInt64]) -> String {
    var rest = trimmed(a)
    guard !rest.isEmpty else { return "0" }
    var chunks: [UInt64] = []
    while !rest.isEmpty {
      let (quotient, remainder) = divide(rest, by: 10_000_000_000_000_000_000)
      chunks.append(remainder)
      rest = quotient
    }
    var text = String(chunks.removeLast())
    for chunk in chunks.reversed() {
      let digits = String(chunk)
      text += String(repeating: "0", count: 19 - digits.count) + digits
    }
    return text
  }
}
