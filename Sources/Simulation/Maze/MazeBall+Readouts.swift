extension MazeBall: ChartReadouts {
  /// The ball's centre and the tilt.
  public static var readoutNames: [String] { ["ballX", "ballY", "tiltX", "tiltY"] }

  public func writeReadouts(into values: inout BatchValues) {
    values.append(state.position.x, decimals: 2)
    values.append(state.position.y, decimals: 2)
    values.append(state.tilt.x, decimals: 3)
    values.append(state.tilt.y, decimals: 3)
  }
}
