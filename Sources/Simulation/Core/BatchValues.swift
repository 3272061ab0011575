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
    var divisor = 1.0
    for _ in 0..<min(max(decimals, 0), 9) { divisor *= 10 }
    let scaled = value * divisor
    guard scaled.isFinite, abs(scaled) < 9_007_199_254_740_992 else {
      values.append(value)
      return
    }
    let magnitude = Double(UInt64(abs(scaled) + 0.5))
    values.append((scaled < 0 ? -magnitude : magnitude) / divisor)
  }

  public mutating func removeAll() {
    values.removeAll(keepingCapacity: true)
  }
}
