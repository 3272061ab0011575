import Foundation

/// A complex number with an exponent of its own, (re + i·im)·2^exponent, for deltas smaller than
/// doubles reach (below about 1e-300). Normalised so that max(|re|, |im|) is in [1, 2), or both
/// are zero.
struct ExtendedComplex: Sendable, Equatable {
  var re: Double
  var im: Double
  var exponent: Int

  static let zero = ExtendedComplex(re: 0, im: 0, exponent: 0)

  /// (re + i·im)·2^exponent, normalised.
  init(re: Double, im: Double, exponent: Int) {
    let largest = max(abs(re), abs(im))
    guard largest > 0, largest.isFinite else {
      self.re = 0
      self.im = 0
      self.exponent = 0
      return
    }
    let shift = Int(largest.exponent)
    self.re = scalbn(re, -shift)
    self.im = scalbn(im, -shift)
    self.exponent = exponent + shift
  }

  /// The double complex (x, y).
  init(_ x: Double, _ y: Double) {
    self.init(re: x, im: y, exponent: 0)
  }

  var isZero: Bool { re == 0 && im == 0 }

  /// The value as doubles; parts below the double range become zero or subnormal.
  var doubles: (Double, Double) {
    (scalbn(re, exponent), scalbn(im, exponent))
  }

  /// log2(|re| + |im|) + exponent: a bound on log2 |z| within half a bit; -inf for zero.
  var log2Norm: Double {
    isZero ? -.infinity : log2(abs(re) + abs(im)) + Double(exponent)
  }

  static func + (a: ExtendedComplex, b: ExtendedComplex) -> ExtendedComplex {
    if a.isZero { return b }
    if b.isZero { return a }
    if a.exponent >= b.exponent {
      let shift = b.exponent - a.exponent
      return ExtendedComplex(
        re: a.re + scalbn(b.re, shift), im: a.im + scalbn(b.im, shift), exponent: a.exponent)
    }
    return b + a
  }

  static func * (a: ExtendedComplex, b: ExtendedComplex) -> ExtendedComplex {
    ExtendedComplex(
      re: a.re * b.re - a.im * b.im, im: a.re * b.im + a.im * b.re,
      exponent: a.exponent + b.exponent)
  }

  /// (x + i·y)·self for a double complex factor.
  func scaled(_ x: Double, _ y: Double) -> ExtendedComplex {
    ExtendedComplex(re: x * re - y * im, im: x * im + y * re, exponent: exponent)
  }

  static prefix func - (a: ExtendedComplex) -> ExtendedComplex {
    ExtendedComplex(re: -a.re, im: -a.im, exponent: a.exponent)
  }

  static func - (a: ExtendedComplex, b: ExtendedComplex) -> ExtendedComplex {
    a + -b
  }

  /// a / b; zero when b is zero.
  static func / (a: ExtendedComplex, b: ExtendedComplex) -> ExtendedComplex {
    let square = b.re * b.re + b.im * b.im
    guard square > 0 else { return .zero }
    return ExtendedComplex(
      re: (a.re * b.re + a.im * b.im) / square, im: (a.im * b.re - a.re * b.im) / square,
      exponent: a.exponent - b.exponent)
  }

  /// The parts as doubles times 2^-`unitExponent`, rounded to whole numbers; nil when either
  /// is `limit` or more in size.
  func rounded(inUnitsOf unitExponent: Int, below limit: Double) -> (x: Int, y: Int)? {
    let shift = exponent - unitExponent
    let (x, y) = (scalbn(re, shift).rounded(), scalbn(im, shift).rounded())
    guard abs(x) < limit, abs(y) < limit else { return nil }
    return (Int(x), Int(y))
  }
}

extension ExtendedComplex {
  /// x + i·y, exactly enough for a reference orbit's last value however small it is.
  init(_ x: BigFixed, _ y: BigFixed) {
    let (a, b) = (x.scaled, y.scaled)
    let exponent = max(a.exponent, b.exponent)
    self.init(
      re: scalbn(a.mantissa, a.exponent - exponent), im: scalbn(b.mantissa, b.exponent - exponent),
      exponent: exponent)
  }
}
