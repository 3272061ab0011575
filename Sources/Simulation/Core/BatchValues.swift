/// The numbers a `BatchStepping` model gives after a step, gathered for a batch reply.
public struct BatchValues: Sendable {
  public private(set) var values: [Double] = []

  public init(capacity: Int = 0) {
    values.reserveCapacity(capacity)
  }

  public mutating func append(_ value: Double) {
    values.append(value)
  }

  /// `value` rounded to `decimals` places exactly as `JSONWriter.number(_:decimals:)` writes it
  /// (half away from zero), as the nearest double: what a client parsing the frame reads.
  public mutating func append(_ value: Double, decimals: Int) {
    let divisor = Self.powersOfTen[min(max(decimals, 0), 9)]
    let scaled = value * divisor
    guard scaled.isFinite, abs(scaled) < 9_007_199_254_740_992 else {
      values.append(value)
      return
    }
    let magnitude = Double(UInt64(abs(scaled) + 0.5))
    values.append((scaled < 0 ? -magnitude : magnitude) / divisor)
  }

  /// 10^0 to 10^9, each exact in a double (as the loop that multiplied 1.0 by 10 made them).
  private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

  public mutating func removeAll() {
    values.removeAll(keepingCapacity: true)
  }
}
