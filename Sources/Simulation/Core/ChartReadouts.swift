/// A model's few numbers worth charting over time (energy, a ball's position, the score), each
/// rounded as its frame rounds it: what a compare group sends beside every pane's frame.
public protocol ChartReadouts: Simulation {
  /// The readouts' names, in the order `writeReadouts` gives them.
  static var readoutNames: [String] { get }
  /// Appends exactly `readoutNames.count` values.
  func writeReadouts(into values: inout BatchValues)
}
