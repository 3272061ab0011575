extension Palette {
  /// The seed's colour for count `n` of `maxIterations`: black inside, else with f = n/max,
  /// f ≤ 0.5 → rgb(2f, 2f, 1-2f) (blue to yellow) and f > 0.5 → rgb(1, 2-2f, 0) (yellow to red).
  public static func classicColour(count n: Int, maxIterations: Int) -> RGB {
    guard n < maxIterations else { return .black }
    let f = Double(n) / Double(maxIterations)
    if f <= 0.5 {
      return RGB(unit: 2 * f, 2 * f, 1 - 2 * f)
    }
    return RGB(unit: 1, 2 - 2 * f, 0)
  }
}
