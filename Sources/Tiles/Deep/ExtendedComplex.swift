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
}
