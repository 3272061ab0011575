extension BouncingBalls: ChartReadouts {
  /// The frame's totals and the first ball's centre (0, 0 without balls).
  public static var readoutNames: [String] {
    ["energy", "momentumX", "momentumY", "collisions", "ball0X", "ball0Y"]
  }

  public func writeReadouts(into values: inout BatchValues) {
    let totals = totals
    values.append(totals.energy, decimals: 2)
    values.append(totals.momentum.x, decimals: 2)
    values.append(totals.momentum.y, decimals: 2)
    values.append(Double(state.collisions))
    values.append(state.balls.first?.x ?? 0, decimals: 2)
    values.append(state.balls.first?.y ?? 0, decimals: 2)
  }
}
