extension Holes: ChartReadouts {
  /// The ball (0, 0 while no ball is on the table) and the game's counts.
  public static var readoutNames: [String] { ["ballX", "ballY", "score", "ballsLeft", "level"] }

  public func writeReadouts(into values: inout BatchValues) {
    let present = state.phase != .lost && state.phase != .over
    values.append(present ? state.position.x : 0, decimals: 2)
    values.append(present ? state.position.y : 0, decimals: 2)
    values.append(Double(state.score))
    values.append(Double(state.ballsLeft))
    values.append(Double(state.level))
  }
}
