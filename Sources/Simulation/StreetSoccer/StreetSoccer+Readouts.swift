extension StreetSoccer: ChartReadouts {
  /// The score and the turns played.
  public static var readoutNames: [String] { ["homeGoals", "awayGoals", "turnsPlayed"] }

  public func writeReadouts(into values: inout BatchValues) {
    values.append(Double(state.statistics.goals[0]))
    values.append(Double(state.statistics.goals[1]))
    values.append(Double(state.turnsPlayed))
  }
}
