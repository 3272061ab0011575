import Foundation
import Testing

@testable import Simulation

@Suite("Trigonometry far outside its accurate range does not trap")
struct DeterministicMathRangeTests {
  @Test(
    "huge, tiny and non-finite angles give a number or NaN, never a crash",
    arguments: [1e300, -1e300, 1e19, -9.3e18, Double.greatestFiniteMagnitude, .infinity, .nan])
  func farOut(x: Double) {
    let values = [DeterministicMath.sin(x), DeterministicMath.cos(x)]
    #expect(values.allSatisfy { $0.isNaN || (-1.000001...1.000001).contains($0) })
  }

  @Test("the usual range is unchanged: quadrants by k mod 4, negatives included")
  func usual() {
    for x in stride(from: -20.0, through: 20.0, by: 0.37) {
      #expect(abs(DeterministicMath.sin(x) - Foundation.sin(x)) < 1e-12)
      #expect(abs(DeterministicMath.cos(x) - Foundation.cos(x)) < 1e-12)
    }
  }
}
