import Foundation
import Testing

@testable import Tiles

@Suite struct BigFixedTests {
  /// ±n/2^e with five limbs (256 fraction bits).
  func fixed(_ n: UInt64, over e: Int, negative: Bool = false) -> BigFixed {
    BigFixed(numerator: [n], overTwoToThe: e, isNegative: negative, limbCount: 5)
  }

  @Test func binaryFractionsAreExact() {
    #expect(fixed(3, over: 1).doubleValue == 1.5)
    #expect(fixed(3, over: 190, negative: true).doubleValue == -3 * 0x1p-190)
    #expect(BigFixed(-2, limbCount: 3).doubleValue == -2)
    #expect(BigFixed(limbCount: 2).doubleValue == 0)
  }

  @Test func sumsAndDifferencesFollowTheSigns() {
    let a = fixed(5, over: 3)
    let b = fixed(7, over: 3, negative: true)
    #expect((a + b).doubleValue == -0.25)
    #expect((a - b).doubleValue == 1.5)
    #expect((b - b).doubleValue == 0 && !(b - b).isNegative)
    #expect((-a).doubleValue == -0.625)
    #expect(a.doubled.doubleValue == 1.25)
  }

  @Test func productsAreExactWhileTheyFit() {
    // (1 + 2^-100)² = 1 + 2^-99 + 2^-200: all three terms fit in 256 fraction bits.
    let x = BigFixed(1, limbCount: 5) + fixed(1, over: 100)
    let square = x * x
    let expected = BigFixed(1, limbCount: 5) + fixed(1, over: 99) + fixed(1, over: 200)
    #expect(square == expected)
    #expect((fixed(3, over: 2, negative: true) * fixed(5, over: 1)).doubleValue == -1.875)
  }

  @Test func productsTruncateBelowTheLastFractionBit() {
    let tiny = fixed(1, over: 150)
    #expect((tiny * tiny).doubleValue == 0)  // 2^-300 is below 2^-256
  }

  @Test func referenceOrbitMatchesDoublesWhereTheyAreExact() {
    // c = -2: 0, -2, 2, 2, ... exactly, and c = i: 0, i, -1 + i, -i, -1 + i, ...
    let minusTwo = ReferenceOrbit(
      cx: BigFixed(-2, limbCount: 3), cy: BigFixed(limbCount: 3), maxIterations: 5)
    #expect(minusTwo.x == [0, -2, 2, 2, 2, 2])
    let i = ReferenceOrbit(
      cx: BigFixed(limbCount: 3), cy: BigFixed(1, limbCount: 3), maxIterations: 4)
    #expect(i.x == [0, 0, -1, 0, -1] && i.y == [0, 1, 1, -1, 1])
    let escaping = ReferenceOrbit(
      cx: BigFixed(1, limbCount: 3), cy: BigFixed(limbCount: 3), maxIterations: 100)
    #expect(escaping.x == [0, 1, 2, 5])  // stops at the first value past the bailout
  }

  @Test func tileIndicesHaveAnySize() {
    let text = "123456789012345678901234567890123456789012345678901234567890"
    let index = TileIndex(decimal: Substring(text))!
    #expect(index.description == text)
    #expect(TileIndex(decimal: "0")!.description == "0" && TileIndex(0).bitWidth == 0)
    #expect(TileIndex(decimal: "12a") == nil && TileIndex(decimal: "") == nil)
    #expect(TileIndex((1 << 40) + 5).ancestor(40) == TileIndex(1))
    #expect(TileIndex(0b1011_0110).low(4) == 0b0110)
    #expect(TileIndex(decimal: "18446744073709551616")!.bitWidth == 65)
    #expect(TileIndex(decimal: "18446744073709551616")!.intValue == nil)
    #expect(TileIndex(7) < TileIndex(decimal: "18446744073709551616")!)
  }

  @Test func extendedComplexReachesPastDoubles() {
    let tiny = ExtendedComplex(re: 1.5, im: -0.75, exponent: -1500)
    #expect(tiny.re == 1.5 && tiny.exponent == -1500)
    let square = tiny * tiny
    // (1.5 - 0.75i)² = 1.6875 - 2.25i, normalised to max part in [1, 2).
    #expect(square.re == 1.6875 / 2 && square.im == -2.25 / 2 && square.exponent == -2999)
    #expect((tiny + tiny).doubles == (0, 0))  // far below the double range
    let sum = ExtendedComplex(3, 4) + ExtendedComplex(re: 1, im: 0, exponent: -2)
    #expect(sum.doubles == (3.25, 4))
    #expect(ExtendedComplex(0, 0).isZero && (ExtendedComplex.zero + tiny) == tiny)
    #expect(abs(tiny.log2Norm - (log2(2.25) - 1500)) < 1e-12)
  }
}

extension BigFixedTests {
  /// The allocation-free stepper gives the very `BigFixed` values of Z ← Z² + C, bit for bit,
  /// with both signs, through escape, at two widths.
  @Test(arguments: [(-0.75, 0.1, 3), (0.25, -0.5, 18), (-1.9, -0.0001, 5), (0.3, 0.6, 34)])
  func stepperFollowsBigFixedExactly(x: Double, y: Double, limbs: Int) {
    func fixed(_ value: Double) -> BigFixed {
      let scaled = UInt64((abs(value) * 0x1p52).rounded())
      return BigFixed(
        numerator: [scaled], overTwoToThe: 52, isNegative: value < 0, limbCount: limbs)
        + BigFixed(
          numerator: [0x9E37_79B9_7F4A_7C15], overTwoToThe: 64 * (limbs - 1), limbCount: limbs)
    }
    let (cx, cy) = (fixed(x), fixed(y))
    var zx = BigFixed(limbCount: limbs)
    var zy = zx
    var stepper = OrbitStepper(cx: cx, cy: cy)
    for step in 0..<200 {
      let real = (zx + zy) * (zx - zy) + cx
      zy = (zx * zy).doubled + cy
      zx = real
      stepper.step()
      let (sx, sy) = stepper.z
      #expect(sx == zx && sy == zy, "step \(step)")
      #expect(stepper.doubles == (zx.doubleValue, zy.doubleValue))
      if zx.doubleValue * zx.doubleValue + zy.doubleValue * zy.doubleValue > 4 { break }
    }
  }
}
