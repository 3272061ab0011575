/// The iteration caps tiles are rendered at: a request's `iter` is rounded up to the next
/// step, so nearby values share one cached tile (`iter=99901` ... `100000` are one render, not
/// a hundred).
enum IterationSteps {
  /// Mantissas of the steps in each decade (an E-series): 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8.
  static let mantissas = [10, 12, 15, 20, 25, 30, 40, 50, 60, 80]

  /// Up to 100 unchanged (cheap); above, the next step at or above `iterations`, at most
  /// 100,000.
  static func snap(_ iterations: Int) -> Int {
    guard iterations > 100 else { return iterations }
    var scale = 10
    while true {
      for mantissa in mantissas where mantissa * scale >= iterations {
        return min(mantissa * scale, 100_000)
      }
      scale *= 10
    }
  }
}
